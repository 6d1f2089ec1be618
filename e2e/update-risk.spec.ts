// Updates at risk: a promise ("will force it to ...") is shown with the reason it may not happen.
// The shoot's outlook, its fleet row, and the forecast (its tile, and the "at risk only" filter in
// the URL) say it.
//
// Shoots used here, only read: garden-platform/monitoring-prod, on a long-expired Kubernetes
// version whose forced update the garden's admission webhook rejects every night.
import { expect, test } from "@playwright/test";
import { screenshot } from "./support/screenshot";

const SHOOT = { namespace: "garden-platform", name: "monitoring-prod" };

test.use({ viewport: { width: 1440, height: 1000 } });

test("the outlook and the fleet row say why the promised update of monitoring-prod is at risk", async ({
  page,
}, testInfo) => {
  await page.goto(`/shoots/${SHOOT.namespace}/${SHOOT.name}`);
  const outlook = page.locator("section[aria-labelledby=outlook-title]");
  // The first forecast of a fresh server takes a while to compute.
  await expect(outlook.getByTestId("outlook-consequence")).toContainText("will force it to", { timeout: 30_000 });
  const risk = outlook.getByRole("note", { name: "Update at risk" });
  // The reason, with the failed runs on record, the webhook's answer and who must act.
  await expect(risk).toContainText(/At risk: every maintenance since .* failed \(\d+ runs on record\)/);
  await expect(risk).toContainText('admission webhook "shoot-policy.platform.example.com" denied the request');
  await expect(risk).toContainText("Who must act: the landscape operators");
  await screenshot(page, testInfo, "update-risk-outlook");

  await page.goto(`/shoots?q=${SHOOT.name}`);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: SHOOT.name, exact: true }) });
  await expect(row.getByTestId("row-update-risk")).toContainText("At risk: webhook denied");
});

test("the forecast counts the updates at risk and filters to them", async ({ page, request }, testInfo) => {
  const answer = (await (await request.get("/api/v1/forecast?days=30")).json()) as {
    items: { name: string; risk?: { summary: string } }[];
  };
  const atRisk = answer.items.filter((i) => i.risk);
  expect(atRisk.length).toBeGreaterThan(0);
  expect(atRisk.length).toBeLessThan(answer.items.length);

  await page.goto("/forecast");
  const tile = page.getByTestId("forecast-risk-tile");
  await expect(tile).toContainText(`${atRisk.length} of ${answer.items.length} forced updates are at risk`);

  await page.getByRole("checkbox", { name: "At risk only" }).check();
  await expect(page).toHaveURL(/[?&]atRisk=true/);
  const rows = page.locator("tr[data-forecast-item]");
  await expect(rows).toHaveCount(Math.min(atRisk.length, 100));
  await expect(page.locator("tr[data-forecast-item]:not([data-at-risk])")).toHaveCount(0);
  // Each row says why, without hovering.
  const shootRow = rows.filter({ has: page.getByRole("link", { name: SHOOT.name, exact: true }) }).first();
  await expect(shootRow.getByText("At risk", { exact: true })).toBeVisible();
  await expect(page.locator("[data-risk-explanation]").first()).toContainText("At risk: ");
  await screenshot(page, testInfo, "update-risk-forecast");

  // The tile's button shows every update again; a reload keeps the filter in the URL.
  await page.goto("/forecast?atRisk=true");
  await expect(page.getByRole("checkbox", { name: "At risk only" })).toBeChecked();
  await tile.getByRole("button", { name: "Show every update" }).click();
  await expect(page).not.toHaveURL(/atRisk=/);
  await expect(rows).toHaveCount(Math.min(answer.items.length, 100));
});

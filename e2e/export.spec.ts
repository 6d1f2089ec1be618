// Taking things out of Almanac: the fleet, the forecast and the audit log as CSV and JSON with the
// page's filters, a shoot's and its project's maintenance calendars, the shoot as YAML with a copy
// button worked from the keyboard, and the link to the cluster in the Gardener dashboard.
//
// Shoots used (read only): garden-analytics/warehouse-etl-us.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { screenshot } from "./support/screenshot";

const SHOOT = { namespace: "garden-analytics", name: "warehouse-etl-us" };

/**
 * Follows a download link as the page would and answers the file's name and text. Clicking it
 * starts a download, but Chromium's download manager does not send the journeys' Authorization
 * header (a signed-in person's cookie it does send), so the file is fetched with the page's
 * request context, which does.
 */
async function download(page: Page, link: Locator) {
  const href = await link.getAttribute("href");
  expect(await link.getAttribute("download")).not.toBeNull();
  const [started] = await Promise.all([page.waitForEvent("download"), link.click()]);
  await started.cancel();
  const response = await page.request.get(href!);
  expect(response.status(), href!).toBe(200);
  const disposition = response.headers()["content-disposition"] ?? "";
  return { filename: /filename="([^"]+)"/.exec(disposition)?.[1], text: await response.text() };
}

test("the shoot's YAML, copied from the keyboard, its calendars and its dashboard link", async ({
  page,
  context,
}, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(`/shoots/${SHOOT.namespace}/${SHOOT.name}`);
  const links = page.getByRole("navigation", { name: "Cluster links" });
  await expect(links.getByRole("link", { name: /Open in Gardener dashboard/ })).toHaveAttribute(
    "href",
    `https://dashboard.garden.example.com/namespace/${SHOOT.namespace}/shoots/${SHOOT.name}`,
  );

  await screenshot(page, testInfo, "shoot-links");
  const yamlButton = links.getByRole("button", { name: "YAML" });
  await yamlButton.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `${SHOOT.name} as YAML` });
  await expect(dialog).toBeVisible();
  const yaml = dialog.getByTestId("shoot-yaml");
  await expect(yaml).toContainText("kind: Shoot");
  await expect(yaml).toContainText(`name: ${SHOOT.name}`);
  await screenshot(page, testInfo, "shoot-yaml-dialog");
  // Tab reaches the copy button; Enter copies.
  const copy = dialog.getByRole("button", { name: "Copy YAML" });
  for (let i = 0; i < 6 && !(await copy.evaluate((b) => b === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await expect(copy).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("status")).toHaveText("Copied to the clipboard.");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain("apiVersion: core.gardener.cloud/v1beta1");
  expect(copied).toContain(`namespace: ${SHOOT.namespace}`);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(yamlButton).toBeFocused();

  const calendar = await download(page, links.getByRole("link", { name: "Maintenance calendar" }));
  expect(calendar.filename).toBe(`${SHOOT.name}-maintenance.ics`);
  expect(calendar.text).toMatch(/^BEGIN:VCALENDAR\r\n/);
  expect(calendar.text.replaceAll("\r\n ", "")).toContain(
    `SUMMARY:Maintenance window: ${SHOOT.namespace}/${SHOOT.name}`,
  );
  await expect(links.getByRole("link", { name: "Project calendar" })).toHaveAttribute(
    "href",
    `/api/v1/namespaces/${SHOOT.namespace}/calendar.ics`,
  );
});

test("the fleet, the forecast and the audit log download with the page's filters", async ({ page, request }) => {
  await page.goto(`/shoots?namespace=${SHOOT.namespace}&q=prod`);
  const total = (await (await request.get(`/api/v1/shoots?namespace=${SHOOT.namespace}&q=prod&limit=1`)).json())
    .total as number;
  expect(total).toBeGreaterThan(0);
  const csv = await download(page, page.getByRole("link", { name: "Download the shoots these filters select as CSV" }));
  expect(csv.filename).toMatch(/^almanac-shoots-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = csv.text.trimEnd().split("\r\n");
  expect(lines[0]).toMatch(/^namespace,name,project,status,/);
  expect(lines).toHaveLength(total + 1);
  expect(lines.slice(1).every((l) => l.startsWith(`${SHOOT.namespace},`))).toBe(true);

  await page.goto("/forecast?days=90&stuck=true");
  await expect(
    page.getByRole("link", { name: "Download the forced updates these filters select as JSON" }),
  ).toHaveAttribute("href", "/api/v1/forecast/export?days=90&stuck=true&format=json");
  const forecast = await download(
    page,
    page.getByRole("link", { name: "Download the forced updates these filters select as JSON" }),
  );
  expect(forecast.filename).toMatch(/^almanac-forecast-90d-\d{4}-\d{2}-\d{2}\.json$/);
  const items = JSON.parse(forecast.text) as { stuck: boolean }[];
  expect(items.every((i) => i.stuck)).toBe(true);

  await page.goto("/audit?action=landscape.seed");
  const audit = await download(
    page,
    page.getByRole("link", { name: "Download the events these filters select as CSV" }),
  );
  expect(audit.filename).toMatch(/^almanac-audit-\d{4}-\d{2}-\d{2}\.csv$/);
  const rows = audit.text.trimEnd().split("\r\n");
  expect(rows[0]).toBe("id,at,actor,action,kind,namespace,name,changes,request_id");
  expect(rows.length).toBeGreaterThan(1);
  expect(rows.slice(1).every((r) => r.split(",")[3] === "landscape.seed")).toBe(true);
});

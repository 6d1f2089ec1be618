// Bulk actions on the fleet page (issue 29, item 1): two clusters ticked one by one, previewed,
// maintained now, watched to the end, and their changes found in the audit log under the action's
// id; "all N that this filter selects" previewed for a new window (not started), the preview
// counting exactly what the list counts; a viewer sees why the actions are disabled.
//
// Shoots changed here (other journeys leave them alone): two of project sandbox's poc-cilium-*
// clusters, maintained now (their windows and versions are not changed).
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import type { BulkPreviewAnswer } from "../lib/api/bulk-actions";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { screenshot } from "./support/screenshot";

test.use({ viewport: { width: 1440, height: 900 } });
// A preview, an action run by the worker and four screenshots, on a machine others share.
test.setTimeout(120_000);

type Row = { namespace: string; name: string };
const key = (s: Row) => `${s.namespace}/${s.name}`;
const countLine = (page: Page) => page.getByText(/^\d+ shoots?( · \d+ loaded)?$/);

/** Two clusters that a maintain-now would act on (the API's own preview says so). */
async function twoToMaintain(request: APIRequestContext): Promise<Row[]> {
  const list = (await (await request.get("/api/v1/shoots?q=poc-cilium&limit=50")).json()) as { items: Row[] };
  const shoots = list.items.map((s) => ({ namespace: s.namespace, name: s.name }));
  const preview = (await (
    await request.post("/api/v1/bulk-actions", { data: { action: "maintain", shoots, dryRun: true } })
  ).json()) as BulkPreviewAnswer;
  const acting = preview.items
    .filter((i) => i.outcome === "act")
    .map((i) => ({ namespace: i.namespace, name: i.name }));
  expect(acting.length, "two poc-cilium clusters a maintain-now acts on").toBeGreaterThanOrEqual(2);
  return acting.slice(0, 2);
}

test("two clusters ticked, previewed, maintained now, watched to the end and found in the audit log", async ({
  page,
  request,
}, testInfo) => {
  const [a, b] = await twoToMaintain(request);
  await page.goto("/shoots?q=poc-cilium");
  await expect(page.locator(`[data-shoot="${key(a)}"]`)).toBeVisible();

  // One by one: a click ticks the first, space the second (from the keyboard).
  await page.getByRole("checkbox", { name: `Select ${a.name} (${a.namespace})` }).click();
  const second = page.getByRole("checkbox", { name: `Select ${b.name} (${b.namespace})` });
  await second.focus();
  await page.keyboard.press("Space");
  await expect(second).toBeChecked();
  const bar = page.getByTestId("selection-bar");
  await expect(bar.getByTestId("selection-count")).toHaveText("2 shoots selected");
  await screenshot(page, testInfo, "bulk-selected-1440");

  await bar.getByRole("button", { name: "Actions" }).click();
  await page.getByRole("button", { name: /^Maintain now/ }).click();
  const dialog = page.getByRole("dialog", { name: "Maintain now · 2 shoots" });
  await expect(dialog).toBeVisible();
  const preview = dialog.getByTestId("bulk-preview");
  await expect(preview.locator("[data-count=act] dd")).toHaveText("2", { timeout: 30_000 });
  for (const s of [a, b]) await expect(preview.locator(`[data-bulk-item="${key(s)}"]`)).toContainText("Will change");
  await screenshot(dialog, testInfo, "bulk-preview");

  await dialog.getByRole("button", { name: "Start: maintain now on 2 clusters" }).click();
  const progress = page.getByRole("dialog", { name: "Maintain now: progress" }).getByTestId("bulk-progress");
  await expect(progress).toHaveAttribute("data-state", "Succeeded", { timeout: 60_000 });
  await expect(progress.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  for (const s of [a, b]) await expect(progress.locator(`[data-bulk-item="${key(s)}"]`)).toContainText("Done");
  await screenshot(progress, testInfo, "bulk-progress-done");
  await expectNoSeriousA11yViolations(
    page,
    "bulk progress",
    page.getByRole("dialog", { name: "Maintain now: progress" }),
  );

  // The audit log, filtered by the action's id: one change per cluster.
  await progress.getByRole("link", { name: "Its changes in the audit log" }).click();
  await expect(page).toHaveURL(/\/audit\?bulkAction=[0-9a-f-]{36}$/);
  const id = new URL(page.url()).searchParams.get("bulkAction")!;
  await expect(page.getByTestId("bulk-action-filter")).toHaveText(id);
  const events = (await (await request.get(`/api/v1/audit?bulkAction=${id}&limit=50`)).json()) as {
    items: { target: { name?: string }; bulkActionId?: string }[];
  };
  expect(events.items.map((e) => e.target.name).sort()).toEqual([a.name, b.name].sort());
  expect(events.items.every((e) => e.bulkActionId === id)).toBe(true);
  for (const s of [a, b]) await expect(page.getByRole("main").getByText(s.name).first()).toBeVisible();
});

test("all N that a filter selects: a new window previewed for exactly the list's shoots", async ({
  page,
  request,
}, testInfo) => {
  const expected = (await (await request.get("/api/v1/shoots?project=sandbox&limit=1")).json()) as { total: number };
  expect(expected.total).toBeGreaterThan(1);
  await page.goto("/shoots?project=sandbox");
  await expect(countLine(page)).toHaveText(new RegExp(`^${expected.total} shoots?`));

  // The header's box ticks what is shown, one untick leaves the rest; then the whole filter (shoots
  // not loaded count too: the request sends the filter, not the keys).
  await page.getByRole("checkbox", { name: /^Select the \d+ shoots shown$/ }).click();
  const bar = page.getByTestId("selection-bar");
  // All of them are loaded (the first page holds 30).
  await expect(bar.getByTestId("selection-count")).toHaveText(`${expected.total} shoots selected`);
  await page.locator("[data-select-shoot]").first().click();
  await expect(bar.getByTestId("selection-count")).toHaveText(`${expected.total - 1} shoots selected`);
  await bar.getByRole("button", { name: `Select all ${expected.total} that this filter selects` }).click();
  await expect(bar.getByTestId("selection-count")).toHaveText(`All ${expected.total} shoots this filter selects`);

  await bar.getByRole("button", { name: "Actions" }).click();
  await page.getByRole("button", { name: /^Set maintenance window/ }).click();
  const dialog = page.getByRole("dialog", { name: /^Set maintenance window · all/ });
  await dialog.getByLabel("Window starts (UTC)").fill("01:00");
  await dialog.getByLabel("Window ends (UTC)").fill("02:30");
  await dialog.getByRole("button", { name: "Preview" }).click();
  const preview = dialog.getByTestId("bulk-preview");
  // The preview judges each cluster as the single-shoot endpoints would: seconds on a busy machine.
  await expect(preview.getByRole("heading")).toHaveText(`Preview of ${expected.total} clusters`, { timeout: 30_000 });
  const counts = await Promise.all(
    ["act", "unchanged", "refused"].map(async (k) => Number(await preview.locator(`[data-count=${k}] dd`).innerText())),
  );
  expect(counts.reduce((x, y) => x + y, 0)).toBe(expected.total);
  await expect(dialog.getByRole("button", { name: /^Start: set maintenance window on \d+ clusters?$/ })).toBeEnabled();
  await screenshot(dialog, testInfo, "bulk-filter-preview");
  await expectNoSeriousA11yViolations(page, "bulk preview", dialog);

  // Dark, and a phone: the preview reads the same (not started: nothing changes).
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(dialog, testInfo, "bulk-filter-preview-dark");
  await expectNoSeriousA11yViolations(page, "bulk preview, dark", dialog);
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(dialog, testInfo, "bulk-filter-preview-390");
  await page.setViewportSize({ width: 1440, height: 900 });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expectNoSeriousA11yViolations(page, "fleet with a selection");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(bar).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  await screenshot(page, testInfo, "bulk-selected-390");
  await screenshot(bar, testInfo, "bulk-bar-390");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, testInfo, "bulk-selected-dark");
  await expectNoSeriousA11yViolations(page, "fleet with a selection, dark");
  await bar.getByRole("button", { name: "Clear" }).click();
  await expect(bar).toBeHidden();
});

test("a viewer sees why the bulk actions are disabled", async ({ browser, request }, testInfo) => {
  const made = await request.post("/api/v1/tokens", {
    data: { name: `e2e-bulk-viewer-${Date.now()}`, role: "viewer", scope: "analytics", expiresInDays: null },
  });
  expect(made.status(), await made.text()).toBe(201);
  const { value } = (await made.json()) as { value: string };
  const context = await browser.newContext({
    extraHTTPHeaders: { authorization: `Bearer ${value}` },
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.goto("/shoots");
  await page.locator("[data-select-shoot]").first().click();
  const bar = page.getByTestId("selection-bar");
  const actions = bar.getByRole("button", { name: "Actions" });
  await expect(actions).toBeDisabled();
  const reason = "Your role viewer on project analytics does not allow changing clusters; bulk actions need operator.";
  await expect(bar.getByTestId("not-allowed")).toHaveText(reason);
  await expect(actions).toHaveAccessibleDescription(reason);
  await screenshot(page, testInfo, "bulk-viewer-disabled");
  await context.close();
});

// Freeze periods: from the navigation to /freezes, a new freeze made with the keyboard over a
// forced update the forecast shows (its form first names the missing fields), the freeze listed
// with that update linked to its shoot, the forecast page marking the update as inside the freeze,
// and the freeze deleted after confirming. Changes no shoot (a freeze stops only what Almanac
// starts); the freeze is removed at the end, so other journeys never meet it.
import { expect, test } from "@playwright/test";
import type { ForecastAnswer } from "../lib/api/forecast";
import { screenshot } from "./support/screenshot";

const HOUR_MS = 3_600_000;
const REASON = "E2E release freeze";

test.use({ viewport: { width: 1440, height: 900 } });
// Three pages, a dialog each way and screenshots on a machine other journeys share.
test.setTimeout(120_000);

test("a freeze over a forced update is listed with it, marks it in the forecast, and is deleted", async ({
  page,
  request,
}, testInfo) => {
  // A forced update a few hours ahead at least (not a held rollout), among the forecast's first.
  const answer = (await (await request.get("/api/v1/forecast?days=30&limit=40&summary=true")).json()) as ForecastAnswer;
  const item = answer.items.find((i) => !i.held && Date.parse(i.at) > Date.now() + 2 * HOUR_MS);
  expect(item, "the e2e landscape has a forced update in the coming 30 days").toBeDefined();
  const at = Date.parse(item!.at);

  await page.goto("/shoots");
  await page.getByRole("navigation").getByRole("link", { name: "Freezes", exact: true }).click();
  await expect(page).toHaveURL(/\/freezes$/);
  await expect(page.getByRole("heading", { level: 1, name: "Freezes" })).toBeVisible();
  await expect(page.getByTestId("gardener-note")).toContainText(
    "Gardener cannot be stopped from forcing the update of an expired version.",
  );
  await expect(page.getByTestId("now-line")).toBeVisible();

  // The form names what is missing beside each field.
  await page.getByRole("button", { name: "New freeze" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New freeze" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Create freeze" }).click();
  await expect(dialog.getByText("Some fields need another look.")).toBeVisible();
  await expect(dialog.getByLabel("From")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByLabel("Reason")).toHaveAttribute("aria-invalid", "true");
  await screenshot(page, testInfo, "freezes-form-errors");

  // datetime-local values in the browser's own time zone, an hour either side of the update.
  const local = (ms: number) =>
    page.evaluate((m) => {
      const d = new Date(m);
      const pad = (n: number) => String(n).padStart(2, "0");
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    }, ms);
  await dialog.getByLabel("From").fill(await local(at - HOUR_MS));
  await dialog.getByLabel("Until").fill(await local(at + HOUR_MS));
  await dialog.getByLabel("Reason").fill(REASON);
  await dialog.getByLabel("Reason").press("Enter");
  await expect(dialog).toBeHidden();

  const card = page.locator("[data-freeze]", { hasText: REASON });
  await expect(card).toBeVisible();
  await expect(card).toContainText("Whole landscape");
  await expect(card.getByTestId("forced-inside")).toContainText("Gardener forces");
  const forced = card.locator(`[data-forced-item="${item!.namespace}/${item!.name}"]`).first();
  await expect(forced).toBeVisible();
  await expect(forced.getByRole("link", { name: item!.name })).toHaveAttribute(
    "href",
    `/shoots/${item!.namespace}/${item!.name}`,
  );
  await screenshot(page, testInfo, "freezes-1440");
  const freezeId = await card.getAttribute("data-freeze");

  // The forecast page marks the update as inside the freeze, linked to its shoot.
  await page.getByRole("navigation").getByRole("link", { name: "Forecast", exact: true }).click();
  const note = page.locator(`[data-freeze-note="${freezeId}"]`).first();
  await expect(note).toBeVisible();
  await expect(note).toContainText(REASON);
  await expect(note).toContainText("Gardener forces this update anyway");
  await expect(page.getByTestId("forced-in-freezes")).toBeVisible();
  await screenshot(note, testInfo, "forecast-freeze-mark");

  // On a phone and in the dark theme, as the other pages.
  await page.goto("/freezes");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  await screenshot(page, testInfo, "freezes-390");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, testInfo, "freezes-dark");
  await page.emulateMedia({ colorScheme: "light" });

  // Deleted after confirming: gone from the list and from the forecast's marks.
  await card.getByRole("button", { name: `Delete the freeze ${REASON}` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete this freeze?" });
  await expect(confirm).toContainText(REASON);
  await confirm.getByRole("button", { name: "Delete freeze" }).click();
  await expect(confirm).toBeHidden();
  await expect(card).toHaveCount(0);
  const after = (await (await request.get("/api/v1/forecast?days=30&limit=40")).json()) as ForecastAnswer;
  expect(after.items.filter((i) => i.freeze?.id === freezeId)).toEqual([]);
});

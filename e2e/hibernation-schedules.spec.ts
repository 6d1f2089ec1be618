// Journeys of hibernation schedules: the lifecycle page's editor (a bad cron refused at its field
// as typed, the words and the next moments once it is fixed, a save that persists and lands in the
// history), the server's 422 naming the field, the fleet saying when the cluster sleeps or wakes,
// and the warning where HibernationPossible is False.
//
// Shoots used here (other journeys should leave them alone):
//   garden-platform/ci-runners-stage  the schedule editor (a schedule is saved)
//   garden-platform/dns-prod          HibernationPossible False (nothing is saved)
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { screenshot } from "./support/screenshot";

const SCHEDULE_SHOOT = { namespace: "garden-platform", name: "ci-runners-stage" };
const NOT_POSSIBLE_SHOOT = { namespace: "garden-platform", name: "dns-prod" };

type Ref = { namespace: string; name: string };
const api = (s: Ref) => `/api/v1/namespaces/${s.namespace}/shoots/${s.name}`;
const pageOf = (s: Ref) => `/shoots/${s.namespace}/${s.name}`;

const WEEKNIGHTS = { start: "00 19 * * 1-5", end: "00 07 * * 1-5", location: "Europe/Berlin" };

// New schedules start on the browser's zone: Berlin's here.
test.use({ timezoneId: "Europe/Berlin" });

async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.ok(), `GET ${url}`).toBe(true);
  return (await response.json()) as T;
}

const editorOf = (page: Page) => page.getByRole("form", { name: "Hibernation schedule" });

interface ShootJson {
  metadata: { resourceVersion: string };
  spec: { hibernation?: { enabled?: boolean; schedules?: { start?: string; end?: string; location?: string }[] } };
}

test("a hibernation schedule: a bad cron is refused at its field, the fixed one reads in words with its next moments, and the save persists, is recorded and shows in the fleet", async ({
  page,
  request,
}, testInfo) => {
  // Many steps (a save, a reload, the fleet, a removal): more than the default 30 s on a busy machine.
  test.setTimeout(120_000);
  const before = await getJson<ShootJson>(request, api(SCHEDULE_SHOOT));
  expect(before.spec.hibernation?.schedules ?? []).toEqual([]);

  await page.goto(pageOf(SCHEDULE_SHOOT));
  const editor = editorOf(page);
  await editor.scrollIntoViewIfNeeded();
  await expect(editor.getByTestId("no-schedules")).toBeVisible();
  const save = editor.getByRole("button", { name: "Save schedules" });
  await expect(save).toBeDisabled();

  // A new schedule, on the keyboard: its first field takes the focus, on the browser's zone.
  await editor.getByRole("button", { name: "Add schedule" }).click();
  const start = editor.getByLabel("Hibernate at (cron)");
  const end = editor.getByLabel("Wake up at (cron)");
  const zone = editor.getByLabel("Time zone");
  await expect(start).toBeFocused();
  await expect(zone).toHaveValue("Europe/Berlin");

  // An hour that does not exist: the engine's validation, beside the field, as typed.
  await page.keyboard.type("00 25 * * 1-5");
  await expect(start).toHaveAttribute("aria-invalid", "true");
  const startError = editor.locator(`#${await start.getAttribute("aria-describedby")}`);
  await expect(startError).toContainText("not a valid cron spec");
  await expect(save).toBeDisabled();
  await expect(editor.locator("#hibernation-save-blocked")).toContainText(
    "Not ready to save. Schedule 1, hibernate at: not a valid cron spec",
  );
  await expect(editor.getByTestId("schedule-words")).toHaveCount(0);
  await screenshot(editor, testInfo, "hibernation-invalid.png");

  // An unknown zone, named at its field.
  await zone.fill("Europe/Berln");
  await expect(zone).toHaveAttribute("aria-invalid", "true");
  await expect(editor.locator(`#${await zone.getAttribute("aria-describedby")}`)).toContainText("not a valid location");
  await zone.fill("Europe/Berlin");
  await expect(zone).toHaveAttribute("aria-invalid", "false");

  // Fixed: the schedule in words, and the next moments in local time and UTC.
  await start.fill(WEEKNIGHTS.start);
  await end.fill(WEEKNIGHTS.end);
  await expect(start).toHaveAttribute("aria-invalid", "false");
  await expect(editor.getByTestId("schedule-words")).toHaveText(
    "Hibernates at 07:00 PM, Monday through Friday; wakes at 07:00 AM, Monday through Friday (Europe/Berlin)",
  );
  const next = editor.getByTestId("next-moments");
  await expect(next.getByTestId("next-hibernation")).toContainText(/19:00/);
  await expect(next.getByTestId("next-hibernation")).toContainText(/UTC/);
  await expect(next.getByTestId("next-wake")).toContainText(/07:00/);
  await expect(next.getByTestId("next-wake")).toContainText(/UTC/);
  await expect(save).toBeEnabled();
  await screenshot(editor, testInfo, "hibernation-editor.png");

  // The server judges the same way: a bad cron sent past the page is a 422 naming the field.
  const refused = await request.patch(api(SCHEDULE_SHOOT), {
    data: { spec: { hibernation: { schedules: [{ start: "00 25 * * *", location: "Europe/Berlin" }] } } },
    headers: { "content-type": "application/merge-patch+json" },
  });
  expect(refused.status()).toBe(422);
  const problem = (await refused.json()) as { errors?: { field: string }[] };
  expect(problem.errors?.map((e) => e.field)).toContain("spec.hibernation.schedules[0].start");

  await save.click();
  // The save is one merge patch, then the shoot read again: seconds on a busy machine.
  await expect(editor.getByRole("status").filter({ hasText: "Saved." })).toBeVisible({ timeout: 15_000 });
  await expect(editor.getByText("No changes.")).toBeVisible();

  const saved = await getJson<ShootJson>(request, api(SCHEDULE_SHOOT));
  expect(saved.spec.hibernation?.schedules).toEqual([WEEKNIGHTS]);

  // After a reload the editor shows what is stored.
  await page.reload();
  const reloaded = editorOf(page);
  // The panel loads after the page is interactive: on a busy machine that takes a while.
  await expect(reloaded.getByLabel("Hibernate at (cron)")).toHaveValue(WEEKNIGHTS.start, { timeout: 30_000 });
  await expect(reloaded.getByLabel("Wake up at (cron)")).toHaveValue(WEEKNIGHTS.end);
  await expect(reloaded.getByLabel("Time zone")).toHaveValue(WEEKNIGHTS.location);

  // The history records the change under its own label.
  const history = await getJson<{
    items: { type: string; action?: string; changes?: { field?: string; after?: unknown }[] }[];
  }>(request, `${api(SCHEDULE_SHOOT)}/history?limit=20`);
  const update = history.items.find(
    (i) => i.type === "audit" && i.changes?.some((c) => c.field === "spec.hibernation.schedules"),
  );
  expect(update?.changes).toContainEqual(
    expect.objectContaining({ field: "spec.hibernation.schedules", after: [WEEKNIGHTS] }),
  );
  const historyPanel = page.getByRole("region", { name: /^History/ });
  await expect(historyPanel).toContainText("Hibernation schedules");
  await expect(historyPanel).toContainText("00 19 * * 1-5 → 00 07 * * 1-5 (Europe/Berlin)");

  // The fleet says when it sleeps next, or, asleep already, when it wakes.
  await page.goto(`/shoots?q=${SCHEDULE_SHOOT.name}`);
  const row = page.locator(`[data-shoot="${SCHEDULE_SHOOT.namespace}/${SCHEDULE_SHOOT.name}"]`);
  // In the browser's time zone: Berlin's 07:00 and 19:00 are 06:00 and 18:00 in a UTC browser.
  await expect(row.getByTestId("fleet-hibernation")).toHaveText(
    /^(Hibernated · wakes Mon (06|07):00|sleeps \w{3} (18|19):00) ·$/,
  );
  await screenshot(page, testInfo, "hibernation-fleet.png");

  // Removing the schedule removes the list.
  await page.goto(pageOf(SCHEDULE_SHOOT));
  const again = editorOf(page);
  await again.getByRole("button", { name: "Remove schedule 1" }).click();
  await expect(again.getByTestId("no-schedules")).toBeVisible();
  await again.getByRole("button", { name: "Save schedules" }).click();
  await expect(again.getByRole("status").filter({ hasText: "Saved." })).toBeVisible({ timeout: 15_000 });
  const removed = await getJson<ShootJson>(request, api(SCHEDULE_SHOOT));
  expect(removed.spec.hibernation?.schedules ?? []).toEqual([]);
});

test("a preset on a cluster whose HibernationPossible constraint is False warns that Gardener will not hibernate it; Cancel undoes it", async ({
  page,
  request,
}, testInfo) => {
  type Constraints = { status?: { constraints?: { type: string; status: string }[] } };
  const shoot = await getJson<Constraints>(request, api(NOT_POSSIBLE_SHOOT));
  expect(shoot.status?.constraints?.find((c) => c.type === "HibernationPossible")?.status).toBe("False");

  await page.goto(pageOf(NOT_POSSIBLE_SHOOT));
  const editor = editorOf(page);
  await editor.getByRole("button", { name: /^Add preset: Weeknights and weekends/ }).click();
  await expect(editor.getByLabel("Hibernate at (cron)")).toHaveValue(WEEKNIGHTS.start);
  await expect(editor.getByLabel("Wake up at (cron)")).toHaveValue(WEEKNIGHTS.end);
  const warning = editor.locator('[data-warning="constraint"]');
  await expect(warning).toContainText(
    "Gardener will not hibernate this cluster while its HibernationPossible constraint is False",
  );
  await expect(warning).toContainText("the schedule has no effect until the constraint is True again");
  await screenshot(editor, testInfo, "hibernation-not-possible.png");
  // In the dark theme and on a phone, the editor keeps its fields and warnings readable.
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(editor, testInfo, "hibernation-not-possible-dark.png");
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(editor.getByLabel("Hibernate at (cron)")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "no sideways scrolling at 390 px").toBeLessThanOrEqual(0);
  await screenshot(editor, testInfo, "hibernation-not-possible-390.png");

  // Escape in a field undoes the edits, as Cancel does; nothing was sent.
  await editor.getByLabel("Wake up at (cron)").press("Escape");
  await expect(editor.getByTestId("no-schedules")).toBeVisible();
  const after = await getJson<ShootJson>(request, api(NOT_POSSIBLE_SHOOT));
  expect(after.spec.hibernation?.schedules ?? []).toEqual([]);
});

test("a viewer sees the schedules read-only, with the reason", async ({ browser, request }) => {
  const created = await request.post("/api/v1/tokens", {
    data: { name: `e2e-hibernation-viewer-${Date.now()}`, role: "viewer", scope: "platform", expiresInDays: null },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { value } = (await created.json()) as { value: string };
  const context = await browser.newContext({
    extraHTTPHeaders: { authorization: `Bearer ${value}` },
    timezoneId: "Europe/Berlin",
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.goto(pageOf(NOT_POSSIBLE_SHOOT));
  const editor = editorOf(page);
  const reason = "Your role viewer on project platform does not allow this; it needs operator.";
  const save = editor.getByRole("button", { name: "Save schedules" });
  // The panel mounts once the page above it is interactive: seconds on a busy machine.
  await expect(save).toBeDisabled({ timeout: 15_000 });
  await expect(save).toHaveAccessibleDescription(reason);
  await expect(editor.getByText(reason)).toBeVisible();
  await expect(editor.getByRole("button", { name: "Add schedule" })).toHaveCount(0);
  await context.close();
});

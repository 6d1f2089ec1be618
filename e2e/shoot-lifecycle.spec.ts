// The lifecycle page of one shoot: the expiry outlook with its live countdown, the version
// timeline, a control-plane migration watched to its end, and why a shoot cannot hibernate.
//
// Shoots used (other journeys should leave them alone):
//   - garden-analytics/warehouse-etl-us: read only; its control plane's Kubernetes version
//     expires within days and the forecast forces it to the next one.
//   - garden-payments/invoicing-canary: migrated to another seed of the same provider.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { screenshot } from "./support/screenshot";

const READ_SHOOT = { namespace: "garden-analytics", name: "warehouse-etl-us" };
const MIGRATE_SHOOT = { namespace: "garden-payments", name: "invoicing-canary" };

// Local time beside UTC, as an operator in Berlin would see it.
test.use({ timezoneId: "Europe/Berlin" });

/** Berlin's zone abbreviation at a moment, as the page writes it: "CET" in winter, "CEST" in summer. */
const berlinAbbreviation = (at: Date) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", timeZoneName: "short" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName")!.value;

const shootApi = (s: { namespace: string; name: string }) => `/api/v1/namespaces/${s.namespace}/shoots/${s.name}`;

async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.ok(), `${url} answered ${response.status()}`).toBeTruthy();
  return (await response.json()) as T;
}

interface ForecastItem {
  name: string;
  target: string;
  from: string;
  to?: string;
  stuck: boolean;
  window: { begin: string } | null;
}

test("open a shoot and read its timeline and countdown", async ({ page, request }, testInfo) => {
  const shoot = await getJson<{ spec: { kubernetes: { version: string }; provider: { workers: { name: string }[] } } }>(
    request,
    shootApi(READ_SHOOT),
  );
  const version = shoot.spec.kubernetes.version;
  const forecast = await getJson<{ items: ForecastItem[] }>(
    request,
    `/api/v1/forecast?days=365&namespace=${READ_SHOOT.namespace}`,
  );
  const forced = forecast.items.find(
    (i) => i.name === READ_SHOOT.name && i.target === "controlPlane" && i.from === version && !i.stuck,
  );
  expect(forced, `the forecast forces ${READ_SHOOT.name}'s Kubernetes ${version} to a newer version`).toBeTruthy();
  const windowUtc = new Date(forced!.window!.begin).toISOString().slice(11, 16); // "13:00"

  await page.goto(`/shoots/${READ_SHOOT.namespace}/${READ_SHOOT.name}`);
  await expect(page.getByRole("heading", { level: 1, name: READ_SHOOT.name })).toBeVisible();

  // The sentence names the version, its expiry, the window and the version it will be forced to.
  const headline = page.getByTestId("outlook-headline");
  await expect(headline).toContainText(`Kubernetes ${version} expires on`);
  const consequence = page.getByTestId("outlook-consequence");
  await expect(consequence).toContainText(`will force it to ${forced!.to}`);
  await expect(consequence).toContainText(`${windowUtc} UTC`);
  // The local time beside it, in the zone's abbreviation at that window (CET or CEST).
  await expect(consequence).toContainText(`${windowUtc} UTC (`);
  await expect(consequence).toContainText(` ${berlinAbbreviation(new Date(forced!.window!.begin))})`);

  // The countdown ticks.
  const countdown = page.getByRole("timer", { name: `Countdown until ${version} expires` });
  await expect(countdown).toBeVisible();
  const first = await countdown.textContent();
  await expect.poll(() => countdown.textContent(), { timeout: 5_000 }).not.toBe(first);

  // The chart has a lane for the control plane and one per worker pool's image, and says so to
  // screen readers too.
  const timeline = page.getByRole("region", { name: "Version timeline" });
  await expect(timeline.locator("svg text", { hasText: "Control plane" })).toBeVisible();
  for (const worker of shoot.spec.provider.workers) {
    await expect(timeline.locator("svg text", { hasText: `Pool "${worker.name}"` }).first()).toBeVisible();
  }
  await expect(
    timeline.getByRole("rowheader", {
      name: new RegExp(`^Control plane, Kubernetes ${version.replaceAll(".", "\\.")}$`),
    }),
  ).toBeAttached();
  await expect(
    timeline
      .getByRole("img", { name: new RegExp(`^Forced update → ${forced!.to!.replaceAll(".", "\\.")}\\.`) })
      .first(),
  ).toBeVisible();

  // A mark explains itself on hover.
  await timeline
    .getByRole("img", { name: /^Forced update/ })
    .first()
    .hover();
  await expect(page.getByRole("tooltip")).toContainText(`from ${version}, window of`);

  // The near view shows the daily windows.
  await timeline.getByRole("button", { name: "5 weeks" }).click();
  await expect(timeline.getByRole("button", { name: "5 weeks" })).toHaveAttribute("aria-pressed", "true");
  await expect(timeline.getByRole("img", { name: /^Next maintenance window/ })).toBeVisible();
  await timeline.getByRole("button", { name: "15 months" }).click();

  await screenshot(page, testInfo, "lifecycle.png");
});

interface MigrationAnswer {
  seed: string;
  destinations: { name: string; ready: boolean; current: boolean; reasons: string[] }[];
  migration: { state: string } | null;
}

test("start a migration and watch it finish", async ({ page, request }, testInfo) => {
  const before = await getJson<MigrationAnswer>(request, `${shootApi(MIGRATE_SHOOT)}/migration`);
  const destination = before.destinations.find((d) => !d.current && d.ready && d.reasons.length === 0);
  expect(destination, `${MIGRATE_SHOOT.name} has a seed it can move to`).toBeTruthy();

  await page.goto(`/shoots/${MIGRATE_SHOOT.namespace}/${MIGRATE_SHOOT.name}`);
  const panel = page.getByRole("region", { name: "Control plane seed" });
  await expect(panel.getByTestId("current-seed")).toHaveText(before.seed);

  await panel.getByRole("button", { name: /Migrate control plane/ }).click();
  const dialog = page.getByRole("dialog", { name: `Migrate the control plane of ${MIGRATE_SHOOT.name}` });
  await expect(dialog).toBeVisible();
  // The current seed and impossible ones cannot be chosen, and say why.
  await expect(dialog.getByRole("radio", { name: new RegExp(`^${before.seed}`) })).toBeDisabled();
  await expect(
    dialog.getByText("Not possible: update of binding rejected, shoot is already assigned to the same seed"),
  ).toBeVisible();
  const confirm = dialog.getByRole("button", { name: /^(Choose a seed|Migrate to)/ });
  await expect(confirm).toBeDisabled();

  await dialog.getByRole("radio", { name: new RegExp(`^${destination!.name}`) }).check();
  // A production cluster's move is confirmed by typing its name (e2e/shoot-operations.spec.ts).
  const shoot = await getJson<{ spec: { purpose?: string } }>(request, shootApi(MIGRATE_SHOOT));
  if (shoot.spec.purpose === "production")
    await dialog.getByLabel(new RegExp(`Type ${MIGRATE_SHOOT.name} to confirm the migration`)).fill(MIGRATE_SHOOT.name);
  await dialog.getByRole("button", { name: `Migrate to ${destination!.name}` }).click();
  await expect(dialog).toBeHidden();

  // The steps progress live: one runs while the later ones wait. The simulated migration may take
  // only seconds, so a page that shows it late may find it finished: then the checks below hold.
  const steps = panel.locator("li[data-step]");
  await expect(steps).toHaveCount(9);
  const running = panel.locator('li[data-state="running"]');
  await expect(running.or(panel.getByTestId("migration-state").filter({ hasText: "Succeeded" })).first()).toBeVisible({
    timeout: 15_000,
  });
  if ((await running.count()) === 1) {
    await expect(panel.getByRole("button", { name: /Migrate control plane/ })).toBeDisabled();
    await screenshot(page, testInfo, "migration-running.png");
  }
  await expect(panel.locator('li[data-state="done"]').first()).toBeVisible();

  // It finishes: every step done, the seed changed, on the panel and in the page header.
  await expect(panel.getByTestId("migration-state")).toHaveText("Succeeded", { timeout: 60_000 });
  await expect(panel.locator('li[data-state="done"]')).toHaveCount(9);
  await expect(panel.getByTestId("current-seed")).toHaveText(destination!.name);
  await expect(page.getByText(/on cloud profile .*, seed /)).toContainText(`seed ${destination!.name}.`);
  await expect(panel.getByText(`The control plane moved to ${destination!.name}`)).toBeVisible();
  await screenshot(page, testInfo, "migration-done.png");
});

test("an awake shoot whose webhooks block hibernation says why it cannot hibernate", async ({ page, request }) => {
  // Gardener refuses hibernation unless HibernationPossible is True; the health panel says so.
  const list = await getJson<{ items: { namespace: string; name: string; hibernated: boolean }[] }>(
    request,
    "/api/v1/shoots?limit=200",
  );
  type Detail = { status?: { constraints?: { type: string; status: string; message?: string }[] } };
  let blocked: { namespace: string; name: string; message: string } | undefined;
  let fine: { namespace: string; name: string } | undefined;
  for (const row of list.items.filter((r) => !r.hibernated)) {
    if (blocked && fine) break;
    const detail = await getJson<Detail>(request, shootApi(row));
    const possible = detail.status?.constraints?.find((c) => c.type === "HibernationPossible");
    if (!blocked && possible?.status === "False") blocked = { ...row, message: possible.message ?? "" };
    if (!fine && possible?.status === "True") fine = row;
  }
  expect(blocked, "a demo shoot with problematic webhooks").toBeTruthy();
  await page.goto(`/shoots/${blocked!.namespace}/${blocked!.name}`);
  const note = page.getByTestId("hibernation-refused");
  await expect(note).toContainText("Gardener refuses to hibernate it now: its HibernationPossible constraint is False");
  await expect(note).toContainText(blocked!.message.slice(0, 40));
  expect(fine, "a demo shoot that may hibernate").toBeTruthy();
  await page.goto(`/shoots/${fine!.namespace}/${fine!.name}`);
  await expect(page.getByRole("heading", { name: /Hibernation: Awake/ })).toBeVisible();
  await expect(page.getByTestId("hibernation-refused")).toHaveCount(0);
});

test("the health summary follows what the panel shows: an operation in progress is not said to have succeeded", async ({
  page,
  request,
}) => {
  type Row = {
    namespace: string;
    name: string;
    conditions: { status: string }[];
    lastOperation: { type: string; state: string; progress?: number } | null;
  };
  const list = await getJson<{ items: Row[] }>(request, "/api/v1/shoots?limit=500");
  const running = list.items.find((r) => r.lastOperation?.state === "Processing" && r.conditions.length > 0);
  expect(running, "a demo shoot with an operation in progress").toBeTruthy();
  await page.goto(`/shoots/${running!.namespace}/${running!.name}`);
  const summary = page.getByTestId("health-summary");
  await expect(summary).toContainText(`The ${running!.lastOperation!.type} operation is in progress`);
  await expect(summary).not.toContainText("succeeded");
  // A shoot without conditions: every demo shoot has some (the care controller writes them at
  // creation), so lib/ui/status.test.ts covers that summary.
});

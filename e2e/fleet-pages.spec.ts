// The fleet-wide pages: cloud profiles (list and a profile's timeline), the forecast (day and
// week, filters in the URL), the audit log (a change made through the API, found by shoot and
// action) and migrations (one started through the API, watched from start to finish).
//
// Shoots this file changes (others should leave them alone):
// - garden-sandbox/playground-trial: confineSpecUpdateRollout toggled, then set back.
// - the first of MIGRATION_CANDIDATES that can migrate (a gcp-ap1 shoot moving to gcp-eu1), or
//   on a database where they have all moved already, the first shoot of the fleet that can.
// Everything else is only read, and assertions compare the pages with the API at that moment.
import { type APIRequestContext, expect, test } from "@playwright/test";
import { screenshot } from "./support/screenshot";

const AUDIT_SHOOT = { namespace: "garden-sandbox", name: "playground-trial" };
const MIGRATION_CANDIDATES = [
  { namespace: "garden-sandbox", name: "poc-keda-trial" },
  { namespace: "garden-analytics", name: "feature-store-eu" },
  { namespace: "garden-platform", name: "monitoring-stage" },
];
// The journeys send the admin token (playwright.config.ts): the audit log names it.
const ACTOR = "admin-token";

const shootApi = (s: { namespace: string; name: string }) => `/api/v1/namespaces/${s.namespace}/shoots/${s.name}`;

test("the cloud profiles list leads to a profile's timeline, impact and machine images", async ({
  page,
  request,
}, testInfo) => {
  const profiles = (await (await request.get("/api/v1/cloudprofiles")).json()).items as {
    metadata: { name: string };
    spec: { kubernetes: { versions: { version: string }[] }; machineImages: { name: string; versions: unknown[] }[] };
  }[];
  expect(profiles.length).toBeGreaterThan(0);

  await page.goto("/cloudprofiles");
  await expect(page.getByRole("heading", { level: 1, name: "Cloud profiles" })).toBeVisible();
  const table = page.getByRole("table", { name: "Cloud profiles" });
  for (const p of profiles) {
    const row = table.getByRole("row").filter({ has: page.getByRole("link", { name: p.metadata.name, exact: true }) });
    await expect(row).toContainText(`${p.spec.kubernetes.versions.length}`);
    await expect(row).toContainText(`${p.spec.machineImages.length} images`);
  }
  // The shoot counts come from the fleet summary, one per profile.
  const total = (await (await request.get("/api/v1/shoots/summary?cloudProfile=azure")).json()).total as number;
  await expect(
    table
      .getByRole("row")
      .filter({ hasText: "azure" })
      .getByRole("link", { name: String(total), exact: true }),
  ).toBeVisible();
  await screenshot(page, testInfo, "cloudprofiles.png");

  await table.getByRole("link", { name: "azure", exact: true }).click();
  await expect(page).toHaveURL(/\/cloudprofiles\/azure$/);
  await expect(page.getByRole("heading", { level: 1, name: "azure" })).toBeVisible();
  const azure = profiles.find((p) => p.metadata.name === "azure")!;

  // The timeline draws every patch; hovering a band explains it.
  const timeline = page.getByRole("region", { name: "Kubernetes versions over time" });
  const newest = azure.spec.kubernetes.versions[0].version;
  await expect(
    timeline.locator("svg text", { hasText: new RegExp(`^${newest.replaceAll(".", "\\.")}$`) }),
  ).toBeVisible();
  const chart = timeline.locator(".recharts-wrapper");
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.85, box.y + 60);
  const tooltip = page.getByRole("tooltip");
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toContainText(/Kubernetes \d+\.\d+\.\d+|Minor line \d+\.\d+/);
  await expect(tooltip).toContainText(/Preview|Supported|Deprecated|Expired/);

  // The same facts as a table: one row per version.
  await timeline.getByText(/Show the \d+ Kubernetes versions as a table/).click();
  const versions = timeline.getByRole("table", { name: "Kubernetes versions of the cloud profile" });
  await expect(versions.locator("tbody tr")).toHaveCount(azure.spec.kubernetes.versions.length);

  // The impact is the forecast of this profile's shoots; stuck clusters are called out.
  const forecast = (await (await request.get("/api/v1/forecast?days=365")).json()).items as {
    cloudProfile: string;
    stuck: boolean;
    name: string;
  }[];
  const impact = forecast.filter((i) => i.cloudProfile === "azure");
  const impactPanel = page.getByRole("region", { name: /Impact: forced updates/ });
  if (impact.length > 0) {
    await expect(impactPanel.locator("tr[data-forecast-item]").first()).toBeVisible();
    await expect(impactPanel.locator("tr[data-forecast-item]:not([data-forecast-item='azure'])")).toHaveCount(0);
  } else {
    await expect(impactPanel.getByText(/No forced updates in the next 365 days/)).toBeVisible();
  }
  const stuck = impact.filter((i) => i.stuck);
  if (stuck.length > 0) await expect(page.getByRole("note", { name: "Stuck clusters" })).toContainText(stuck[0].name);

  const images = page.getByRole("region", { name: "Machine images" });
  for (const image of azure.spec.machineImages) {
    await expect(images.getByRole("table", { name: `Versions of ${image.name}` }).locator("tbody tr")).toHaveCount(
      image.versions.length,
    );
  }
  await expect(images).toContainText("Update strategy:");
  // Hover again for the screenshot, from the top of the page (the sticky navigation would
  // otherwise land in the middle of a full-page screenshot).
  await page.evaluate(() => window.scrollTo(0, 0));
  const again = (await chart.boundingBox())!;
  await page.mouse.move(again.x + again.width * 0.85, again.y + 60);
  await expect(tooltip).toBeVisible();
  await screenshot(page, testInfo, "cloudprofile-detail.png");
});

test("an unknown cloud profile says so", async ({ page }) => {
  await page.goto("/cloudprofiles/no-such-profile");
  await expect(page.getByRole("alert").filter({ hasText: "cloud profile" })).toContainText(
    'There is no cloud profile named "no-such-profile"',
  );
});

test("the forecast groups by day or week, and its filters live in the URL", async ({ page, request }, testInfo) => {
  await page.goto("/forecast");
  const rows = page.locator("tr[data-forecast-item]");
  const summary = page.getByText(/forced updates? on \d+ shoots? in the next \d+ days/);
  /** The number of updates the summary line counts. */
  const counted = async () => Number(/^(\d+) forced/.exec((await summary.textContent()) ?? "")?.[1]);
  await expect(rows.first()).toBeVisible();
  await expect(page.getByRole("button", { name: "30 days" })).toHaveAttribute("aria-pressed", "true");
  await expect(summary).toContainText("in the next 30 days");
  // Day headings first.
  await expect(page.locator("th[scope=colgroup]").first()).toHaveText(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d+ \w+ \d{4}/);
  await screenshot(page, testInfo, "forecast.png");

  // Then weeks.
  await page.getByRole("button", { name: "Week", exact: true }).click();
  await expect(page).toHaveURL(/by=week/);
  await expect(page.locator("th[scope=colgroup]").first()).toHaveText(/^Week of /);
  await expect(page.getByRole("region", { name: "Forced updates per week" })).toBeVisible();
  await screenshot(page, testInfo, "forecast-week.png");

  // A longer horizon is asked of the server.
  await page.getByRole("button", { name: "365 days" }).click();
  await expect(page).toHaveURL(/days=365/);
  await expect(summary).toContainText("in the next 365 days");
  const all = await counted();
  expect(all).toBeGreaterThan(0);

  // A cloud profile narrows the list to its shoots, and the URL says so.
  const answer = (await (await request.get("/api/v1/forecast?days=365")).json()).items as { cloudProfile: string }[];
  const profile = ["gcp", "aws", "azure"].find(
    (p) => answer.some((i) => i.cloudProfile === p) && answer.some((i) => i.cloudProfile !== p),
  )!;
  await page.getByLabel("Cloud profile", { exact: true }).selectOption(profile);
  await expect(page).toHaveURL(new RegExp(`cloudProfile=${profile}`));
  await expect(page.locator(`tr[data-forecast-item]:not([data-forecast-item='${profile}'])`)).toHaveCount(0);
  await expect(rows.first()).toBeVisible();
  await expect.poll(counted).toBeLessThan(all);

  // Stuck only: either stuck rows, or the empty state whose reset clears the filters.
  await page.getByLabel("Stuck only").check();
  await expect(page).toHaveURL(/stuck=true/);
  const empty = page.getByText("No forced updates match these filters");
  await expect(rows.first().or(empty)).toBeVisible();
  if (await empty.isVisible()) {
    await page.getByRole("button", { name: "Reset filters" }).click();
    await expect(page).not.toHaveURL(/stuck=true|cloudProfile=/);
    await expect(page).toHaveURL(/days=365/);
  } else {
    await expect(page.locator("tr[data-forecast-item]:not([data-stuck])")).toHaveCount(0);
    // Why each is stuck is written in its row, not only in a tooltip.
    await expect(page.locator("[data-stuck-explanation]").first()).toBeVisible();
    await expect(page.locator("[data-stuck-explanation]").first()).toContainText("Maintenance fails in this window");
    await expect(page.locator(`tr[data-forecast-item]:not([data-forecast-item='${profile}'])`)).toHaveCount(0);
  }

  // A reload keeps the view.
  await page.goto("/forecast?days=90&by=week&kind=machineImage");
  await expect(page.getByRole("button", { name: "90 days" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("button", { name: "Week", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByLabel("Kind", { exact: true })).toHaveValue("machineImage");
  await expect(rows.first().or(page.getByText("No forced updates match these filters"))).toBeVisible();
  await expect(page.locator("tr[data-forecast-item]:not([data-kind='machineImage'])")).toHaveCount(0);
});

/**
 * Sets confineSpecUpdateRollout through the API with the current resourceVersion. The simulated
 * gardenlet writes the shoot's status while it reconciles, so a conflict (409) is read again and
 * retried.
 */
async function setConfine(request: APIRequestContext, value: boolean): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    const shoot = await (await request.get(shootApi(AUDIT_SHOOT))).json();
    const r = await request.patch(shootApi(AUDIT_SHOOT), {
      headers: { "content-type": "application/merge-patch+json" },
      data: {
        metadata: { resourceVersion: shoot.metadata.resourceVersion },
        spec: { maintenance: { confineSpecUpdateRollout: value } },
      },
    });
    // The request id is recorded with the audit event: it tells this change from any other.
    if (r.status() === 200) return r.headers()["x-request-id"];
    expect(r.status(), await r.text()).toBe(409);
  }
  throw new Error("the shoot kept changing under the patch");
}

test("the audit log shows a change made through the API, found by shoot and action", async ({
  page,
  request,
}, testInfo) => {
  const before = Boolean(
    (await (await request.get(shootApi(AUDIT_SHOOT))).json()).spec.maintenance?.confineSpecUpdateRollout,
  );
  const firstChange = await setConfine(request, !before);

  await page.goto("/audit");
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  await page.getByLabel("Namespace", { exact: true }).fill(AUDIT_SHOOT.namespace);
  await page.getByLabel("Shoot", { exact: true }).fill(AUDIT_SHOOT.name);
  await expect(page).toHaveURL(new RegExp(`namespace=${AUDIT_SHOOT.namespace}.*name=${AUDIT_SHOOT.name}`));
  await page.getByLabel("Action", { exact: true }).selectOption("shoot.update");
  await expect(page).toHaveURL(/action=shoot\.update/);

  const events = page.getByRole("table", { name: "Audit events, newest first" }).locator("tbody tr");
  const mine = events.filter({ hasText: firstChange });
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText(ACTOR);
  await expect(mine).toContainText("Spec changed");
  await expect(mine).toContainText("spec.maintenance.confineSpecUpdateRollout");
  const change = mine.getByRole("listitem").filter({ hasText: "confineSpecUpdateRollout" });
  await expect(change.locator("code").last()).toHaveText(String(!before));
  await expect(page.locator("tbody tr:not([data-action='shoot.update'])")).toHaveCount(0);
  for (const link of await events.getByRole("link").all()) await expect(link).toHaveText(AUDIT_SHOOT.name);

  // Live: setting it back appears at the top without a reload.
  const setBack = await setConfine(request, before);
  await expect(events.first()).toContainText(setBack);
  await expect(
    events.first().getByRole("listitem").filter({ hasText: "confineSpecUpdateRollout" }).locator("code").last(),
  ).toHaveText(String(before));
  await screenshot(page, testInfo, "audit.png");

  // Older events come a page (50) at a time: toggle until there are more than a page of them.
  const auditOf = async () =>
    (
      (
        await (
          await request.get(
            `/api/v1/audit?namespace=${AUDIT_SHOOT.namespace}&name=${AUDIT_SHOOT.name}&action=shoot.update&limit=500`,
          )
        ).json()
      ).items as unknown[]
    ).length;
  let total = await auditOf();
  for (let value = !before; total <= 50; value = !value, total++) await setConfine(request, value);
  await setConfine(request, before);
  total = await auditOf();
  await expect(events).toHaveCount(50);
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(events).toHaveCount(Math.min(total, 100));
  if (total <= 100) await expect(page.getByText(`${total} events shown, the oldest reached.`)).toBeVisible();

  // Another action filter empties the list; the reset brings everything back.
  await page.getByLabel("Action", { exact: true }).selectOption("shoot.migrate.failed");
  await expect(page.getByText("No audit events match these filters")).toBeVisible();
  await page.getByRole("button", { name: "Reset filters" }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(events.first()).toBeVisible();
  await expect(page.getByLabel("Shoot", { exact: true })).toHaveValue("");
});

test("a migration started through the API appears on the migrations page and finishes there", async ({
  page,
  request,
}, testInfo) => {
  let shoot: { namespace: string; name: string } | undefined;
  let destination: string | undefined;
  // The named candidates first; on a database where they have moved already, any shoot that can.
  const fleet = (await (await request.get("/api/v1/shoots?limit=500")).json()).items as {
    namespace: string;
    name: string;
  }[];
  for (const candidate of [...MIGRATION_CANDIDATES, ...fleet]) {
    const view = await (await request.get(`${shootApi(candidate)}/migration`)).json();
    // Admitted and ready: a migration to a seed that is not ready waits for it, as in Gardener.
    const free = (view.destinations as { name: string; reasons: string[]; current: boolean; ready: boolean }[]).find(
      (d) => !d.current && d.ready && d.reasons.length === 0,
    );
    if (free && view.migration?.state !== "Processing") {
      shoot = candidate;
      destination = free.name;
      break;
    }
  }
  expect(shoot, "a shoot that can migrate").toBeDefined();

  await page.goto("/migrations");
  await expect(page.getByRole("heading", { level: 1, name: "Migrations" })).toBeVisible();
  await expect(page.getByRole("region", { name: /Running/ })).toBeVisible();

  const started = await request.post(`${shootApi(shoot!)}/migrate`, {
    headers: { "content-type": "application/json" },
    data: { seedName: destination },
  });
  expect(started.status(), await started.text()).toBe(202);
  const id = (await started.json()).id as string;

  // It appears while it runs, with its progress and current step...
  const card = page.locator(`article[data-migration-id="${id}"]`);
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card).toHaveAccessibleName(`Migration of ${shoot!.namespace}/${shoot!.name}`);
  await expect(card.getByRole("progressbar")).toBeVisible();
  await expect(card).toContainText(destination!);
  await screenshot(page, testInfo, "migrations.png");

  // ...and moves to the finished ones when it is done.
  // (The shoot may have migrated before, in an earlier run on the same database: the id tells them apart.)
  const finished = page.getByRole("region", { name: "Finished" }).locator(`tbody tr[data-migration-id="${id}"]`);
  await expect(finished).toContainText("Succeeded", { timeout: 60_000 });
  await expect(card).toHaveCount(0);
  await expect(finished.getByRole("link", { name: shoot!.name })).toHaveAttribute(
    "href",
    `/shoots/${shoot!.namespace}/${shoot!.name}`,
  );
});

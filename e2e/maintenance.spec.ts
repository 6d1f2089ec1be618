// Journeys of the lifecycle page's maintenance: the window editor (a refusal beside the field,
// a save that lands in the history), the automatic-update toggles, "maintain now", a manual
// Kubernetes update, and two tabs editing the same cluster.
//
// Shoots used here (other journeys should leave them alone):
//   garden-analytics/warehouse-etl-us  the window editor
//   garden-platform/gitops-stage       the auto-update toggle
//   garden-payments/payouts-canary     two tabs, one conflict
//   garden-analytics/ml-train-us       the version update dialog (a minor update)
//   garden-platform/ingress-prod       the machine image dialog
//   the first of MAINTAIN_CANDIDATES whose plan changes the control plane's version: maintain now
//   (a shoot the garden's webhook blocks: the run fails with the webhook's answer)
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { screenshot } from "./support/screenshot";

const WINDOW_SHOOT = { namespace: "garden-analytics", name: "warehouse-etl-us" };
const TOGGLE_SHOOT = { namespace: "garden-platform", name: "gitops-stage" };
const CONFLICT_SHOOT = { namespace: "garden-payments", name: "payouts-canary" };
const VERSION_SHOOT = { namespace: "garden-analytics", name: "ml-train-us" };
const IMAGE_SHOOT = { namespace: "garden-platform", name: "ingress-prod" };
// Demo shoots still on an expired Kubernetes version because a webhook of the garden rejects their
// maintenance (the demo's history says so, and the garden's admission rules keep doing it), so
// maintaining them now plans a control plane update that the garden then rejects. (Most other demo
// shoots with a pending update have a version released hours ago pending, which maintain now takes.)
const MAINTAIN_CANDIDATES = [
  { namespace: "garden-analytics", name: "notebooks-eu" },
  { namespace: "garden-payments", name: "checkout-canary" },
  { namespace: "garden-sandbox", name: "poc-cilium-trial" },
];

type Ref = { namespace: string; name: string };
const api = (s: Ref) => `/api/v1/namespaces/${s.namespace}/shoots/${s.name}`;
const pageOf = (s: Ref) => `/shoots/${s.namespace}/${s.name}`;

// Times are read on a Berlin clock, so the daylight saving note has a known zone to talk about.
test.use({ timezoneId: "Europe/Berlin" });

/**
 * Berlin's UTC offset at `at` (now by default), in minutes and as Gardener writes it ("+0100" in
 * winter, "+0200" in summer): the editor stores a window with the offset its zone has today, so
 * the expected values follow the season the journey runs in.
 */
function berlinOffset(at: Date = new Date()): { minutes: number; gardener: string } {
  const name =
    new Intl.DateTimeFormat("en-US", { timeZone: "Europe/Berlin", timeZoneName: "longOffset" })
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
  expect(m, `Berlin's offset "${name}"`).toBeTruthy();
  const minutes = m![1] ? (m![1] === "-" ? -1 : 1) * (Number(m![2]) * 60 + Number(m![3])) : 0;
  const abs = Math.abs(minutes);
  return {
    minutes,
    gardener: `${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`,
  };
}

/** A Gardener time ("220000+0900") on Berlin's clock today, as the editor shows it ("14:00"). */
function onBerlinClock(gardenerTime: string): string {
  const m = /^(\d{2})(\d{2})\d{2}([+-])(\d{2})(\d{2})$/.exec(gardenerTime);
  expect(m, `a Gardener time: ${gardenerTime}`).toBeTruthy();
  const offset = (m![3] === "-" ? -1 : 1) * (Number(m![4]) * 60 + Number(m![5]));
  const minute = (((Number(m![1]) * 60 + Number(m![2]) - offset + berlinOffset().minutes) % 1440) + 1440) % 1440;
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.ok(), `GET ${url}`).toBe(true);
  return (await response.json()) as T;
}

interface HistoryItem {
  type: string;
  action?: string;
  trigger?: string;
  changes?: { field?: string; after?: unknown; to?: string }[];
}

function editorOf(page: Page) {
  return page.getByRole("form", { name: "Maintenance settings" });
}

test("the maintenance window: a 20-minute window and an unknown zone are refused as typed, a valid window is saved and recorded", async ({
  page,
  request,
}, testInfo) => {
  const berlin = berlinOffset().gardener; // "+0100" in winter, "+0200" in summer
  await page.goto(pageOf(WINDOW_SHOOT));
  const editor = editorOf(page);
  await expect(editor.getByLabel("Time zone")).toHaveValue("Europe/Berlin");
  // The stored window keeps its own offset, shown beside the editor's zone.
  await expect(editor.getByText(/^Stored as/)).toContainText("+0900");
  await expect(
    editor.getByText(
      /Europe\/Berlin moves to UTC\+0[12]:00 on .+; Gardener stores a fixed offset, so this window will then start at \d\d:\d\d local time\./,
    ),
  ).toBeVisible();
  await expect(editor.getByRole("table")).toContainText("UTC");
  await screenshot(page, testInfo, "maintenance-editor.png");

  // Looking at the window on another clock changes nothing.
  await editor.getByRole("button", { name: "Show in Asia/Tokyo" }).click();
  await expect(editor.getByLabel("Time zone")).toHaveValue("Asia/Tokyo");
  await expect(editor.getByLabel("Start")).toHaveValue("22:00");
  await expect(editor.getByRole("button", { name: "Save changes" })).toBeDisabled();
  await editor.getByLabel("Time zone").fill("Europe/Berlin");
  // 22:00+09:00 is 13:00 UTC: 14:00 in Berlin in winter, 15:00 in summer.
  await expect(editor.getByLabel("Start")).toHaveValue(onBerlinClock("220000+0900"));

  await editor.getByLabel("Start").fill("22:00");
  await editor.getByLabel("Duration", { exact: true }).check();
  const duration = editor.getByLabel("Duration in minutes");
  const save = editor.getByRole("button", { name: "Save changes" });
  await duration.fill("20");

  // The engine's rule, in words, beside the duration as it is typed; Save stays off and says why.
  const tooShort = "The window must be at least 30 minutes long; this one is 20 minutes.";
  await expect(editor.locator("#maintenance-until-error")).toHaveText(tooShort);
  await expect(duration).toHaveAttribute("aria-invalid", "true");
  await expect(duration).toHaveAttribute("aria-describedby", "maintenance-until-error");
  await expect(save).toBeDisabled();
  await expect(editor.locator("#maintenance-save-blocked")).toHaveText(`Not ready to save. Duration: ${tooShort}`);
  await expect(save).toHaveAttribute("aria-describedby", "maintenance-save-blocked");
  // No next windows for a window that cannot be saved, only a hint.
  await expect(editor.getByTestId("window-preview-invalid")).toHaveText("Fix the window to see its next occurrences.");
  await expect(editor.getByRole("table")).toHaveCount(0);
  await screenshot(page, testInfo, "maintenance-invalid.png");
  // Too long, and back to valid, as typed.
  await duration.fill("400");
  await expect(editor.locator("#maintenance-until-error")).toHaveText(
    "The window can be at most 6 hours long; this one is 6 hours 40 minutes.",
  );
  await expect(save).toBeDisabled();
  await duration.fill("20");
  await expect(editor.locator("#maintenance-until-error")).toHaveText(tooShort);

  // An unknown zone is refused beside its field, naming the zone meant; the times stay.
  const zone = editor.getByLabel("Time zone");
  await zone.fill("Berlin");
  await expect(editor.locator("#maintenance-zone-error")).toHaveText(
    '"Berlin" is not a time zone. Did you mean Europe/Berlin?',
  );
  await expect(zone).toHaveAttribute("aria-invalid", "true");
  await expect(save).toBeDisabled();
  await expect(editor.locator("#maintenance-save-blocked")).toContainText("Time zone:");
  await screenshot(page, testInfo, "maintenance-invalid-zone.png");
  await zone.fill("Europe/Berlin");
  await expect(editor.locator("#maintenance-zone-error")).toHaveCount(0);
  await expect(duration).toHaveValue("20");
  await expect(editor.getByLabel("Start")).toHaveValue("22:00");
  // Nothing was sent.
  const refused = await getJson<{ spec: { maintenance: { timeWindow: { begin: string } } } }>(
    request,
    api(WINDOW_SHOOT),
  );
  expect(refused.spec.maintenance.timeWindow.begin).toBe("220000+0900");

  await duration.fill("90");
  await expect(editor.locator("#maintenance-until-error")).toHaveCount(0);
  await editor.getByRole("button", { name: "Save changes" }).click();
  await expect(editor.getByRole("status").filter({ hasText: "Saved; the next maintenance moves to" })).toBeVisible();
  await expect(editor.getByText(/^Stored as/)).toContainText(`220000${berlin}`);

  const saved = await getJson<{ spec: { maintenance: { timeWindow: { begin: string; end: string } } } }>(
    request,
    api(WINDOW_SHOOT),
  );
  expect(saved.spec.maintenance.timeWindow).toEqual({ begin: `220000${berlin}`, end: `233000${berlin}` });
  const history = await getJson<{ items: HistoryItem[] }>(request, `${api(WINDOW_SHOOT)}/history?limit=20`);
  const update = history.items.find((i) => i.type === "audit" && i.action === "shoot.update");
  expect(update?.changes).toContainEqual(
    expect.objectContaining({ field: "spec.maintenance.timeWindow.begin", after: `220000${berlin}` }),
  );
  // The history panel shows the change, newest first.
  const historyPanel = page.getByRole("region", { name: /^History/ });
  await expect(historyPanel).toContainText(new RegExp(`220000\\${berlin}|22:00`));
});

test("switching automatic Kubernetes patch updates is saved and still set after a reload", async ({
  page,
  request,
}) => {
  await page.goto(pageOf(TOGGLE_SHOOT));
  const editor = editorOf(page);
  const toggle = editor.getByLabel("Kubernetes patch version");
  const before = await toggle.isChecked();
  await expect(editor.getByRole("button", { name: "Save changes" })).toBeDisabled();
  await toggle.setChecked(!before);
  await editor.getByRole("button", { name: "Save changes" }).click();
  await expect(editor.getByRole("status").filter({ hasText: "Saved; the next maintenance stays at" })).toBeVisible();

  await page.reload();
  await expect(editorOf(page).getByLabel("Kubernetes patch version")).toBeChecked({ checked: !before });
  const shoot = await getJson<{ spec: { maintenance: { autoUpdate: { kubernetesVersion: boolean } } } }>(
    request,
    api(TOGGLE_SHOOT),
  );
  expect(shoot.spec.maintenance.autoUpdate.kubernetesVersion).toBe(!before);
});

test("maintain now lists what will change, runs, and shows the garden's webhook rejecting it, as the record does", async ({
  page,
  request,
}, testInfo) => {
  type Plan = { changes: { target: string; kind: string; from: string; to: string; reason: string }[] };
  let chosen: { shoot: Ref; from: string; to: string } | undefined;
  for (const candidate of MAINTAIN_CANDIDATES) {
    const plan = await getJson<Plan>(request, `${api(candidate)}/maintenance-plan`);
    const change = plan.changes.find((c) => c.target === "controlPlane" && c.kind === "kubernetes");
    if (change) {
      chosen = { shoot: candidate, from: change.from, to: change.to };
      break;
    }
  }
  expect(chosen, "a demo shoot whose maintenance would update the control plane").toBeDefined();
  const { shoot, from, to } = chosen!;
  // Its record: every night, the garden's webhook rejected the update.
  type Recorded = { status: { lastMaintenance: { state: string; failureReason: string } } };
  const record = (await getJson<Recorded>(request, api(shoot))).status.lastMaintenance;
  expect(record.state).toBe("Failed");
  expect(record.failureReason).toMatch(/^Updates to the Shoot failed to be applied: .*webhook "/);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(pageOf(shoot));
  await expect(page.getByText(`Kubernetes ${from} on cloud profile`)).toBeVisible();
  await page.getByRole("button", { name: "Maintain now" }).click();
  const dialog = page.getByRole("dialog", { name: `Maintain ${shoot.name} now` });
  const changes = dialog.getByRole("list", { name: "Planned changes" });
  await expect(changes).toContainText("Control plane");
  await expect(changes).toContainText(`${from}`);
  await expect(changes).toContainText(`${to}`);
  await screenshot(page, testInfo, "maintain-now-dialog.png");

  // The request is accepted; the maintenance controller's update is what the webhook rejects.
  await dialog.getByRole("button", { name: "Maintain now" }).click();
  await expect(dialog.getByText("Maintenance did not finish.")).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByRole("status")).toContainText(`The maintenance failed: ${record.failureReason}`);
  await screenshot(page, testInfo, "maintain-now-rejected.png");
  await dialog.getByRole("button", { name: /^(Done|Close; keep watching in the header)$/ }).click();

  await expect(page.getByText(`Kubernetes ${from} on cloud profile`)).toBeVisible();
  const history = await getJson<{ items: (HistoryItem & { state?: string; failureReason?: string })[] }>(
    request,
    `${api(shoot)}/history?limit=20`,
  );
  const runs = history.items.filter((i) => i.type === "maintenance" && i.trigger === "maintain-now");
  expect(runs[0]).toMatchObject({ state: "Failed", failureReason: record.failureReason });
  expect(
    (await getJson<{ spec: { kubernetes: { version: string } } }>(request, api(shoot))).spec.kubernetes.version,
  ).toBe(from);
});

test("a manual minor update offers only allowed versions and asks for the cluster's name", async ({
  page,
  request,
}, testInfo) => {
  const before = await getJson<{ spec: { kubernetes: { version: string } } }>(request, api(VERSION_SHOOT));
  const current = before.spec.kubernetes.version;
  const [major, minor] = current.split(".").map(Number);
  const nextMinor = `${major}.${minor + 1}`;

  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(pageOf(VERSION_SHOOT));
  await page.getByRole("button", { name: "Update version" }).click();
  const dialog = page.getByRole("dialog", { name: "Update the Kubernetes version" });
  const minorGroup = dialog.getByRole("region", { name: `Next minor (${nextMinor})` });
  await expect(minorGroup.getByRole("radio").first()).toBeVisible();
  await expect(dialog.getByRole("region", { name: "Patch" })).toBeVisible();
  await expect(dialog).toContainText("upgrades must be performed one minor version at a time");
  // Never a version two minors ahead.
  await expect(dialog.getByRole("radio", { name: new RegExp(`to\\s*${major}\\.${minor + 2}\\.`) })).toHaveCount(0);

  const target = minorGroup.getByRole("radio").first();
  const targetVersion = (await target.getAttribute("value"))!;
  // The radio's name is its whole label: the versions, then the classification and the expiry
  // (so a screen reader hears them too), in the form the check above relies on.
  const escape = (v: string) => v.replaceAll(".", "\\.");
  await expect(target).toHaveAccessibleName(
    new RegExp(`^${escape(current)}\\s*to\\s*${escape(targetVersion)}(?!\\d).*(Expires|No expiration date)`, "i"),
  );
  await target.check();
  const submit = dialog.getByRole("button", { name: `Update to ${targetVersion}` });
  await expect(dialog).toContainText("This action cannot be undone: Kubernetes does not support downgrades");
  await expect(submit).toBeDisabled();
  await dialog.getByLabel(/Type the cluster name/).fill(VERSION_SHOOT.name);
  await expect(submit).toBeEnabled();
  await screenshot(page, testInfo, "version-update-dialog.png");

  await submit.click();
  await expect(dialog.getByRole("status")).toContainText(`Saved: Kubernetes ${current} → ${targetVersion}`);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByText(`Kubernetes ${targetVersion} on cloud profile`)).toBeVisible();
});

test("a machine image update names the pools it rolls and saves the chosen version", async ({
  page,
  request,
}, testInfo) => {
  type Workers = { spec: { provider: { workers: { name: string; machine: { image: { version: string } } }[] } } };
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(pageOf(IMAGE_SHOOT));
  await page.getByRole("button", { name: "Update images" }).click();
  const dialog = page.getByRole("dialog", { name: "Update machine images" });
  // A pool with a newer version of its own image (others may only offer other images).
  const newer = 'optgroup[label^="Newer"] option';
  const select = dialog
    .getByRole("combobox")
    .filter({ has: page.locator(newer) })
    .first();
  // The dialog reads the cloud profile first.
  await expect(select).toBeVisible({ timeout: 15_000 });
  const label = (await select.getAttribute("id"))!.replace(/^image-/, "");
  // The recommended version when there is one, else the newest.
  const recommended = select.locator(newer, { hasText: "recommended" });
  const value = await ((await recommended.count()) ? recommended.first() : select.locator(newer).first()).getAttribute(
    "value",
  );
  // An option's value is "image version".
  const version = value?.split(" ")[1];
  expect(version).toBeTruthy();
  await expect(dialog.getByRole("button", { name: "Choose a version" })).toBeDisabled();
  await select.selectOption(value!);
  await expect(dialog).toContainText(`every node of “${label}” is drained and replaced`);
  await screenshot(page, testInfo, "image-update-dialog.png");

  await dialog.getByRole("button", { name: "Update 1 pool" }).click();
  await expect(dialog.getByRole("status")).toContainText(`Saved: ${label} → ${version}`);
  const shoot = await getJson<Workers>(request, api(IMAGE_SHOOT));
  expect(shoot.spec.provider.workers.find((w) => w.name === label)?.machine.image.version).toBe(version);
});

test("a pool switches to another image of its profile, the dialog saying its nodes are replaced", async ({
  page,
  request,
}) => {
  type Image = { name: string; version: string };
  type Shoot = {
    spec: { provider: { workers: { name: string; machine: { image: Image } }[] } };
    status?: { lastOperation?: { state?: string } };
  };
  // A spec change waits for the operation under way (the journey before rolled a pool here).
  await expect
    .poll(async () => (await getJson<Shoot>(request, api(IMAGE_SHOOT))).status?.lastOperation?.state, {
      timeout: 30_000,
    })
    .toBe("Succeeded");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(pageOf(IMAGE_SHOOT));
  await page.getByRole("button", { name: "Update images" }).click();
  const dialog = page.getByRole("dialog", { name: "Update machine images" });
  const other = 'optgroup[label^="Switch to"] option';
  const select = dialog
    .getByRole("combobox")
    .filter({ has: page.locator(other) })
    .first();
  await expect(select).toBeVisible({ timeout: 15_000 });
  const pool = (await select.getAttribute("id"))!.replace(/^image-/, "");
  const value = (await select.locator(other).first().getAttribute("value"))!;
  const [name, version] = value.split(" ");
  await select.selectOption(value);
  await expect(dialog).toContainText(`Pool “${pool}” is rolled onto another image, ${name} ${version}`);
  await expect(dialog).toContainText("its nodes are replaced");
  await dialog.getByRole("button", { name: "Update 1 pool" }).click();
  await expect(dialog.getByRole("status")).toContainText(`Saved: ${pool} → ${name} ${version}`);
  const shoot = await getJson<Shoot>(request, api(IMAGE_SHOOT));
  expect(shoot.spec.provider.workers.find((w) => w.name === pool)?.machine.image).toMatchObject({ name, version });
});

test("two tabs: the second save reports the conflict, keeps its edits, and saves after re-applying them", async ({
  page,
  context,
  request,
}, testInfo) => {
  type Window = {
    spec: { maintenance: { timeWindow: { begin: string; end: string }; confineSpecUpdateRollout?: boolean } };
  };
  const berlin = berlinOffset().gardener;
  const original = (await getJson<Window>(request, api(CONFLICT_SHOOT))).spec.maintenance.timeWindow;
  // The edit below must really move the window, or "unchanged" would prove nothing.
  expect(original.begin).not.toBe(`031500${berlin}`);
  const second = await context.newPage();
  await page.goto(pageOf(CONFLICT_SHOOT));
  await second.goto(pageOf(CONFLICT_SHOOT));
  const first = editorOf(page);
  const other = editorOf(second);
  await expect(other.getByLabel("Start")).not.toHaveValue("");

  // The second tab starts editing the window...
  await other.getByLabel("Start").fill("03:15");
  await other.getByLabel("End time").fill("04:45");
  // ...while the first tab confines rollouts to the window and saves.
  const confine = first.getByLabel("Roll out changes only in the window");
  const confinedBefore = await confine.isChecked();
  await confine.setChecked(!confinedBefore);
  await first.getByRole("button", { name: "Save changes" }).click();
  await expect(first.getByRole("status").filter({ hasText: "Saved;" })).toBeVisible();

  await other.getByRole("button", { name: "Save changes" }).click();
  const conflict = other
    .getByRole("alert")
    .filter({ hasText: "This cluster was changed by someone else since you opened it:" });
  await expect(conflict).toBeVisible();
  await expect(conflict).toContainText(`rollouts confined to the window turned ${confinedBefore ? "off" : "on"}`);
  await expect(other.getByLabel("Start")).toHaveValue("03:15");
  await expect(other.getByLabel("End time")).toHaveValue("04:45");
  await screenshot(second, testInfo, "conflict.png");
  // The refused save changed nothing: the window is still the one read before the edit.
  const unchanged = await getJson<Window>(request, api(CONFLICT_SHOOT));
  expect(unchanged.spec.maintenance.timeWindow).toEqual(original);

  await conflict.getByRole("button", { name: "Re-apply my edits" }).click();
  await expect(other.getByLabel("Start")).toHaveValue("03:15");
  await expect(other.getByLabel("Roll out changes only in the window")).toBeChecked({ checked: !confinedBefore });
  await other.getByRole("button", { name: "Save changes" }).click();
  await expect(other.getByRole("status").filter({ hasText: "Saved; the next maintenance moves to" })).toBeVisible();

  const merged = await getJson<Window>(request, api(CONFLICT_SHOOT));
  expect(merged.spec.maintenance.timeWindow).toEqual({ begin: `031500${berlin}`, end: `044500${berlin}` });
  expect(merged.spec.maintenance.confineSpecUpdateRollout ?? false).toBe(!confinedBefore);
  await second.close();
});

test("two tabs: under the conflict banner the stored window is the one the other tab saved", async ({
  page,
  context,
  request,
}) => {
  type Window = { spec: { maintenance: { timeWindow: { begin: string; end: string } } } };
  const berlin = berlinOffset().gardener;
  const before = (await getJson<Window>(request, api(CONFLICT_SHOOT))).spec.maintenance.timeWindow;
  // The first tab must really move the window, or the line would prove nothing.
  const begin = before.begin === `051500${berlin}` ? "05:45" : "05:15";
  const second = await context.newPage();
  await page.goto(pageOf(CONFLICT_SHOOT));
  await second.goto(pageOf(CONFLICT_SHOOT));
  const first = editorOf(page);
  const other = editorOf(second);
  await expect(other.getByLabel("Start")).not.toHaveValue("");
  await expect(other.getByText(/^Stored as/)).toContainText(before.begin);

  // The second tab edits a toggle while the first tab moves the window and saves.
  const confine = other.getByLabel("Roll out changes only in the window");
  await confine.setChecked(!(await confine.isChecked()));
  await first.getByLabel("Start").fill(begin);
  await first.getByLabel("End time").fill("06:30");
  await first.getByRole("button", { name: "Save changes" }).click();
  await expect(first.getByRole("status").filter({ hasText: "Saved;" })).toBeVisible();
  const moved = (await getJson<Window>(request, api(CONFLICT_SHOOT))).spec.maintenance.timeWindow;
  expect(moved.begin).toBe(`${begin.replace(":", "")}00${berlin}`);

  // Noticed live or refused at the save: either way the banner names the new window, and the
  // stored line beneath it agrees, while the second tab's own edit is kept.
  await other.getByRole("button", { name: "Save changes" }).click();
  await expect(other.getByText(/changed by someone else/i).first()).toBeVisible();
  await expect(other.getByText(/^Stored as/)).toContainText(moved.begin);
  await expect(other.getByText(/^Stored as/)).not.toContainText(before.begin);
  await second.close();
});

// "Maintain now", then watch the pool roll: on the demo landscape a cluster with an update pending
// is maintained now, and its nodes panel follows the roll as it happens: new nodes join with the
// critical-components-not-ready taint and what they wait for, become ready, old nodes drain and go,
// and the pool ends Stable on the new versions.
//
// It runs an Almanac of its own (startAlmanac: its own data folder and fresh demo landscape), with
// roll ticks long enough that each step of a node stays on the page past the panel's refresh (it
// refreshes on live events and polls every 2 s while a pool rolls), without changing the shared
// server's other journeys. The page's rows are recorded as they change (a MutationObserver), so the
// journey asserts what the panel showed on the way, not only where it ended, and never how fast.
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { startAlmanac, type AppServer } from "../tests/support/app-server";
import { TEST_ADMIN_TOKEN } from "../tests/support/api-client";
import { screenshot } from "./support/screenshot";

const TAINT = "node.gardener.cloud/critical-components-not-ready";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 1000 };

let almanac: AppServer;

test.use({ extraHTTPHeaders: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  almanac = await startAlmanac({
    DATABASE_URL: "",
    ALMANAC_FAULT_RATE: "0",
    ALMANAC_RECONCILE_STEP_MS: "150",
    ALMANAC_POLL_SECONDS: "0.5",
    // Each step of a node (joining with the taint, draining) lasts at least a tick: longer than
    // the panel's refresh (a live event per tick, and a poll every 2 s while a pool rolls).
    ALMANAC_NODE_ROLL_STEP_MS: "2500",
  });
});

test.afterAll(async () => {
  await almanac?.stop();
});

type Ref = { namespace: string; name: string };
const api = (s: Ref) => `${almanac.baseUrl}/api/v1/namespaces/${s.namespace}/shoots/${s.name}`;

async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.ok(), `GET ${url}`).toBe(true);
  return (await response.json()) as T;
}

const minor = (version = "") => version.split(".").slice(0, 2).join(".");

/**
 * Whether a planned change makes the pools roll: a machine image, or a Kubernetes minor version
 * (Gardener updates a patch version in place, replacing no node).
 */
const rollsNodes = (c: { kind: string; from?: string; to?: string }) =>
  c.kind === "machineImage" || (c.kind === "kubernetes" && minor(c.from) !== minor(c.to));

interface Candidate extends Ref {
  nodes: number;
  pools: string[];
}

/**
 * A demo cluster whose maintenance would change something now and that the garden lets through
 * (its last maintenance was not rejected by a webhook), awake, its last operation succeeded, with
 * nodes in pools that replace them (rolling replacement, Gardener's default); of those, the
 * smallest with at least three nodes, so that old and new nodes are side by side for a while and
 * the roll is still short.
 */
async function pendingUpdate(request: APIRequestContext): Promise<Candidate> {
  type Row = { namespace: string; name: string };
  const list = await getJson<{ items: Row[] }>(request, `${almanac.baseUrl}/api/v1/shoots?limit=500`);
  const found: Candidate[] = [];
  for (const row of list.items) {
    type ShootJson = {
      spec: { hibernation?: { enabled?: boolean } };
      status?: { lastMaintenance?: { state?: string; failureReason?: string }; lastOperation?: { state?: string } };
    };
    const shoot = await getJson<ShootJson>(request, api(row));
    if (shoot.spec.hibernation?.enabled) continue;
    // A cluster whose last operation failed (the demo's lasting errors: missing cloud permissions,
    // quotas) fails the reconcile that maintenance starts too, and its nodes never roll.
    if (shoot.status?.lastOperation?.state !== "Succeeded") continue;
    if (/webhook/.test(shoot.status?.lastMaintenance?.failureReason ?? "")) continue;
    type Change = { target: string; kind: string; from?: string; to?: string; successful: boolean };
    const plan = await getJson<{ changes: Change[]; errors: string[] }>(request, `${api(row)}/maintenance-plan`);
    if (plan.errors.length > 0 || !plan.changes.some((c) => c.successful && rollsNodes(c))) continue;
    type Nodes = { items: unknown[]; pools: { pool: string; state: string; updateStrategy: string }[] };
    const nodes = await getJson<Nodes>(request, `${api(row)}/nodes`);
    if (nodes.items.length === 0 || nodes.pools.some((p) => p.state !== "Stable")) continue;
    // Pools that replace their nodes (in-place pools keep theirs: no node joins).
    if (nodes.pools.some((p) => p.updateStrategy !== "AutoRollingUpdate")) continue;
    found.push({ ...row, nodes: nodes.items.length, pools: nodes.pools.map((p) => p.pool) });
  }
  expect(found.length, "demo clusters with an update pending that the garden lets through").toBeGreaterThan(0);
  const roomy = found.filter((c) => c.nodes >= 3).sort((a, b) => a.nodes - b.nodes);
  return roomy[0] ?? found.sort((a, b) => b.nodes - a.nodes)[0];
}

interface Sighting {
  node: string;
  pool: string;
  state: string;
  behind: boolean;
  tainted: boolean;
  waits: string;
}

/**
 * Records every row the nodes panel shows, each time it changes, in window.__nodeSightings: the
 * node, its pool, its state, whether it is behind the target, carries the taint, and what it waits
 * for.
 */
async function recordRows(page: Page) {
  await page.evaluate((taint) => {
    const seen: Sighting[] = [];
    (window as unknown as { __nodeSightings: Sighting[] }).__nodeSightings = seen;
    const panel = document.querySelector('[data-testid="nodes-panel"]')!;
    const take = () => {
      for (const row of panel.querySelectorAll<HTMLElement>('[data-testid="node-row"]')) {
        const s: Sighting = {
          node: row.dataset.node ?? "",
          pool: row.closest<HTMLElement>('[data-testid="node-pool"]')?.dataset.pool ?? "",
          state: row.dataset.state ?? "",
          behind: row.dataset.behind !== undefined,
          tainted: (row.textContent ?? "").includes(taint),
          waits: row.querySelector('[data-testid="node-waits"]')?.textContent ?? "",
        };
        const last = seen.findLast((x) => x.node === s.node);
        if (!last || JSON.stringify(last) !== JSON.stringify(s)) seen.push(s);
      }
    };
    take();
    new MutationObserver(take).observe(panel, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  }, TAINT);
}

const sightings = (page: Page) =>
  page.evaluate(() => (window as unknown as { __nodeSightings: Sighting[] }).__nodeSightings);

/** The panel in both themes, on a desktop and on a phone (the page must not scroll sideways there). */
async function pictures(page: Page, panel: Locator, testInfo: Parameters<typeof screenshot>[1], name: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize(DESKTOP);
    await screenshot(panel, testInfo, `${name}-${colorScheme}.png`);
    await page.setViewportSize(PHONE);
    // The charts follow the new width when their ResizeObserver fires, a frame or more later.
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
        message: "the page scrolls sideways on a phone",
      })
      .toBeLessThanOrEqual(0);
    await screenshot(panel, testInfo, `${name}-${colorScheme}-phone.png`);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(DESKTOP);
}

test("maintain now on a cluster with an update pending, and watch its pool roll node by node", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(300_000);
  const shoot = await pendingUpdate(request);
  const before = await getJson<{ items: { name: string }[] }>(request, `${api(shoot)}/nodes`);
  const oldNodes = new Set(before.items.map((n) => n.name));

  await page.setViewportSize(DESKTOP);
  await page.goto(`${almanac.baseUrl}/shoots/${shoot.namespace}/${shoot.name}`);
  const panel = page.getByRole("region", { name: "Nodes", exact: true });
  await expect(panel.getByTestId("node-row")).toHaveCount(oldNodes.size, { timeout: 30_000 });
  for (const pool of await panel.getByTestId("node-pool").all())
    await expect(pool.getByTestId("roll-state")).toHaveText("Stable");
  await recordRows(page);

  await page.getByRole("button", { name: "Maintain now" }).click();
  const dialog = page.getByRole("dialog", { name: `Maintain ${shoot.name} now` });
  await expect(dialog.getByRole("list", { name: "Planned changes" })).toBeVisible();
  await dialog.getByRole("button", { name: "Maintain now" }).click();
  await dialog.getByRole("button", { name: /^(Done|Close; keep watching in the header)$/ }).click();

  // The roll begins: a pool says Rolling, and the nodes it still has are behind its new target.
  await expect(
    panel
      .getByTestId("roll-state")
      .filter({ hasText: /^(Rolling|Held)$/ })
      .first(),
  ).toBeVisible({
    timeout: 60_000,
  });
  await expect(panel.locator("[data-behind]").first()).toBeVisible();

  // A new node joins with the taint, says what it means, and what it waits for.
  const joining = panel.locator('[data-testid="node-row"][data-state="Joining"]').first();
  await expect(joining).toBeVisible({ timeout: 60_000 });
  await expect(panel.getByText(`${TAINT}:NoSchedule`).first()).toBeVisible();
  await expect(
    panel.getByText("New node; workload is scheduled once its node-critical components are ready.").first(),
  ).toBeVisible();
  await pictures(page, panel, testInfo, "node-roll-mid");

  // The roll ends: every pool Stable, every node on the target, ready and without the taint.
  for (const pool of await panel.getByTestId("node-pool").all()) {
    await expect(pool.getByTestId("roll-state")).toHaveText("Stable", { timeout: 180_000 });
    await expect(pool.getByTestId("roll-progress")).toHaveText(/^(\d+) of \1 nodes? updated$/);
  }
  await expect(panel.locator("[data-behind]")).toHaveCount(0);
  await expect(panel.getByText(TAINT)).toHaveCount(0);
  const rows = panel.getByTestId("node-row");
  for (const row of await rows.all()) {
    await expect(row).toHaveAttribute("data-state", "Ready");
    await expect(row.getByText("Ready", { exact: true })).toBeVisible();
  }
  await pictures(page, panel, testInfo, "node-roll-done");

  // On the way, as the panel showed it: new nodes joined with the taint and became ready without
  // it; old nodes of the rolled pool drained and are gone.
  const seen = await sightings(page);
  const finalNodes = (await rows.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.node ?? ""))).sort();
  const rolledPools = new Set(seen.filter((s) => s.behind).map((s) => s.pool));
  expect(rolledPools.size, "a pool whose nodes were behind its target").toBeGreaterThan(0);
  const newNodes = [...new Set(seen.map((s) => s.node))].filter((n) => !oldNodes.has(n));
  // Rolling replacement: new machines in, old ones out. (A step shorter than the panel's refresh
  // may pass unseen for one node, so each step is asked of some node, and the ends of every node.)
  expect(newNodes.length, "new nodes joined").toBeGreaterThan(0);
  expect(
    newNodes.some((node) => {
      const first = seen.find((s) => s.node === node);
      return first?.state === "Joining" && first.tainted && !first.behind;
    }),
    "a new node was shown joining, on the target, with the taint",
  ).toBe(true);
  for (const node of newNodes)
    expect(
      seen.findLast((s) => s.node === node),
      `${node} ended ready, without the taint`,
    ).toMatchObject({ state: "Ready", tainted: false });
  expect(
    seen.some((s) => s.tainted && s.waits !== ""),
    "a joining node said what it waits for",
  ).toBe(true);
  const rolledOld = [...oldNodes].filter((node) => seen.some((s) => s.node === node && rolledPools.has(s.pool)));
  expect(
    seen.some((s) => rolledOld.includes(s.node) && s.state === "Draining"),
    "an old node was shown draining",
  ).toBe(true);
  for (const node of rolledOld) expect(finalNodes, `${node} is gone`).not.toContain(node);
});

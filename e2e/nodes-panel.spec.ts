// The nodes panel on answers the demo's simulated garden does not give on its own: a roll held by
// a node-critical DaemonSet that never becomes ready, a pool updated in place, and a live garden
// that lists no nodes until the person reads them with a viewer kubeconfig (refused once, then
// allowed). GET .../nodes is answered by the page's network stand-in (page.route) with answers of
// the API's schema; everything else is the real server. Light and dark, desktop and phone.
//
// Shoots used: garden-analytics/ml-train-eu, read only (nothing is sent to it; the responsive
// journey reads it too). This file runs beside the others.
import { expect, test, type Page, type Route } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { screenshot } from "./support/screenshot";

const SHOOT = { namespace: "garden-analytics", name: "ml-train-eu" };
const NODES = `**/api/v1/namespaces/${SHOOT.namespace}/shoots/${SHOOT.name}/nodes*`;
const PHONE = { width: 390, height: 844 };
const TAINT = "node.gardener.cloud/critical-components-not-ready";

const target = { kubernetesVersion: "1.31.4", image: { name: "gardenlinux", version: "1592.3.0" } };
const old = { kubernetesVersion: "1.30.8", image: { name: "gardenlinux", version: "1443.10.0" } };
const calico = { kind: "DaemonSet", namespace: "kube-system", name: "calico-node", reason: "CrashLoopBackOff" };
const node = (name: string, pool: string, over: object = {}) => ({
  name,
  pool,
  zone: "europe-west1-b",
  ...target,
  ready: true,
  taints: [],
  state: "Ready",
  waitingFor: [],
  ...over,
});

const HELD = {
  source: "simulated",
  observedAt: new Date().toISOString(),
  pools: [
    {
      pool: "cpu-worker",
      updateStrategy: "AutoRollingUpdate",
      minimum: 3,
      maximum: 6,
      maxSurge: "1",
      maxUnavailable: "0",
      target,
      state: "Held",
      updated: 1,
      desired: 3,
      heldBy: { node: "shoot--analytics--ml-train-eu-cpu-worker-z1-5d9f8-x2k7q", waits: [calico] },
    },
    {
      pool: "gpu",
      updateStrategy: "AutoInPlaceUpdate",
      minimum: 1,
      maximum: 2,
      maxSurge: "0",
      maxUnavailable: "1",
      target,
      state: "Rolling",
      updated: 0,
      desired: 1,
    },
  ],
  items: [
    node("shoot--analytics--ml-train-eu-cpu-worker-z1-7c4b2-abcde", "cpu-worker", { ...old }),
    node("shoot--analytics--ml-train-eu-cpu-worker-z1-7c4b2-fghij", "cpu-worker", { ...old, state: "Draining" }),
    node("shoot--analytics--ml-train-eu-cpu-worker-z1-5d9f8-m3p8r", "cpu-worker"),
    node("shoot--analytics--ml-train-eu-cpu-worker-z1-5d9f8-x2k7q", "cpu-worker", {
      state: "Joining",
      taints: [{ key: TAINT, effect: "NoSchedule" }],
      waitingFor: [calico],
    }),
    node("shoot--analytics--ml-train-eu-gpu-z1-11aa2-qq7zt", "gpu", { ...old, state: "UpdatingInPlace", ready: false }),
  ],
};

const GARDEN_NOTE =
  "The garden reports the worker pools and the roll's last operation, not the nodes: they are inside the cluster.";
const GARDEN = { source: "garden", observedAt: new Date().toISOString(), note: GARDEN_NOTE, pools: [], items: [] };
const REFUSAL = {
  type: "about:blank",
  title: "Forbidden",
  status: 403,
  detail:
    'shoots.core.gardener.cloud "ml-train-eu" is forbidden: User "alice" cannot create resource "shoots/viewerkubeconfig"',
};

const fulfil = (route: Route, status: number, body: object) =>
  route.fulfill({
    status,
    contentType: status === 200 ? "application/json" : "application/problem+json",
    body: JSON.stringify(body),
  });

async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`a held roll names the component and the node it holds, old versions stand out (${colorScheme})`, async ({
    page,
  }, testInfo) => {
    // A page load, an accessibility analysis and two pictures, beside other journeys.
    test.setTimeout(90_000);
    await page.emulateMedia({ colorScheme });
    await page.route(NODES, (route) => fulfil(route, 200, HELD));
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.goto(`/shoots/${SHOOT.namespace}/${SHOOT.name}`);
    const panel = page.getByRole("region", { name: "Nodes", exact: true });
    const pool = panel.getByRole("region", { name: /Pool cpu-worker/ });
    await expect(pool.getByRole("alert")).toHaveText(
      "The roll of pool cpu-worker is held: node shoot--analytics--ml-train-eu-cpu-worker-z1-5d9f8-x2k7q waits for " +
        "DaemonSet kube-system/calico-node (CrashLoopBackOff). Until it is ready the node keeps the " +
        "critical-components-not-ready taint, takes no workload, and no further old node is drained.",
      // The panels render once the page is mounted, after the version timeline's chart code.
      { timeout: 30_000 },
    );
    await expect(pool.getByText("Rolling replacement")).toBeVisible();
    await expect(pool.getByTestId("roll-state")).toHaveText("Held");
    await expect(pool.getByTestId("roll-progress")).toHaveText("1 of 3 nodes updated");
    await expect(pool.getByRole("progressbar", { name: "Roll of pool cpu-worker" })).toHaveAttribute(
      "aria-valuenow",
      "33",
    );
    await expect(pool.getByText("up to 1 extra node, none unavailable")).toBeVisible();

    const joining = pool.getByRole("row", { name: /x2k7q/ });
    await expect(joining).toContainText("Joining");
    await expect(joining).toContainText(`${TAINT}:NoSchedule`);
    await expect(joining).toContainText("New node; workload is scheduled once its node-critical components are ready.");
    await expect(joining).toContainText("DaemonSet kube-system/calico-node: CrashLoopBackOff");
    // The old nodes are marked as behind the target (in words for screen readers, not colour only).
    await expect(pool.getByRole("row", { name: /fghij/ })).toContainText("Draining");
    await expect(pool.getByText("(not yet on the target, 1.31.4)")).toHaveCount(2);
    await expect(pool.getByText("(not yet on the target, gardenlinux 1592.3.0)")).toHaveCount(2);
    await expect(pool.getByRole("row", { name: /m3p8r/ }).getByText(/not yet on the target/)).toHaveCount(0);

    const gpu = panel.getByRole("region", { name: /Pool gpu/ });
    await expect(gpu.getByText("In place, automatic")).toBeVisible();
    await expect(gpu.getByText("up to 1 node unavailable")).toBeVisible();
    await expect(gpu.getByRole("row", { name: /qq7zt/ })).toContainText("Updating in place");
    await expect(panel.getByTestId("nodes-summary")).toHaveText(
      "2 pools, 5 nodes; pool cpu-worker held, pool gpu rolling.",
    );
    await expectNoSeriousA11yViolations(page, `the nodes panel (${colorScheme})`, panel);
    await panel.scrollIntoViewIfNeeded();
    await screenshot(panel, testInfo, `nodes-held-${colorScheme}.png`);

    // On a phone each node is a card: the page never scrolls sideways, and the held banner stays.
    await page.setViewportSize(PHONE);
    await expect(pool.getByRole("alert")).toBeVisible();
    // The charts follow the new width when their ResizeObserver fires, a frame or more later.
    await expect.poll(() => sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(panel, testInfo, `nodes-held-${colorScheme}-phone.png`);
  });
}

test("a live garden says what it cannot see; reading the nodes asks for a viewer kubeconfig, a refusal in its words", async ({
  page,
}, testInfo) => {
  let allowed = false;
  const asked: string[] = [];
  await page.route(NODES, (route) => {
    const through = new URL(route.request().url()).searchParams.get("through");
    if (!through) return fulfil(route, 200, GARDEN);
    asked.push(through);
    return allowed ? fulfil(route, 200, { ...HELD, source: "shoot" }) : fulfil(route, 403, REFUSAL);
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/shoots/${SHOOT.namespace}/${SHOOT.name}`);
  const panel = page.getByRole("region", { name: "Nodes", exact: true });
  await expect(panel.getByText(GARDEN_NOTE)).toBeVisible({ timeout: 30_000 });
  const read = panel.getByRole("button", { name: "Read nodes from the cluster" });
  await expect(read).toHaveAccessibleDescription(/short-lived read-only viewer kubeconfig .* never stores it/);
  expect(asked).toEqual([]);

  // The keyboard presses it; the garden refuses, and the panel says so in the garden's words.
  await read.focus();
  await page.keyboard.press("Enter");
  await expect(panel.getByTestId("nodes-refusal")).toHaveText(`The garden refused (403 Forbidden): ${REFUSAL.detail}`);
  await expect(panel.getByText(GARDEN_NOTE)).toBeVisible();
  expect(asked).toEqual(["viewer-kubeconfig"]);
  await screenshot(panel, testInfo, "nodes-garden-refused.png");

  // Allowed now: the nodes as read from inside the cluster.
  allowed = true;
  await read.click();
  await expect(panel.getByText(/Read from inside the cluster with a short-lived viewer kubeconfig/)).toBeVisible();
  await expect(panel.getByRole("row", { name: /x2k7q/ })).toContainText("Joining");
  await expect(panel.getByTestId("nodes-refusal")).toHaveCount(0);
  await expect(read).toHaveCount(0);
  await expect(panel.getByTestId("nodes-read-from-shoot")).toContainText(" UTC");
  await screenshot(panel, testInfo, "nodes-through-viewer.png");

  // Each read is a new credential: only "Read again" reads again.
  expect(asked).toEqual(["viewer-kubeconfig", "viewer-kubeconfig"]);
  await panel.getByRole("button", { name: "Read again" }).click();
  await expect.poll(() => asked.length).toBe(3);
  await expect(panel.getByRole("row", { name: /x2k7q/ })).toContainText("Joining");
});

// The live garden in the browser (issue 14, item 6): Almanac started on a garden's kubeconfig
// follows it, and the open lifecycle page shows a change made in the garden without a reload; a
// window edited on the page reaches the garden as exactly one merge patch of spec.maintenance.
//
// This spec runs its own Almanac (e2e/support/live-garden.ts): the stand-in Kubernetes API server
// in this process with a small landscape (garden-dev/cluster-0…3), and `npm start` pointed at it
// by GARDEN_KUBECONFIG on a free port. The shared webServer's simulated garden is not used here.
//
// Shoots used:
//   garden-dev/cluster-1  the garden changes it while its page is open, then its window is edited
//   garden-dev/cluster-2  a version change the garden holds for the window, then rolls out
import { expect, test, type Page } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../playwright.config";
import { type LiveGarden, startLiveGarden } from "./support/live-garden";
import { screenshot } from "./support/screenshot";

const SHOOT = { namespace: "garden-dev", name: "cluster-1" };

let live: LiveGarden;
const pageUrl = (s: { namespace: string; name: string }) => `${live.baseURL}/shoots/${s.namespace}/${s.name}`;

test.describe.configure({ mode: "serial" });
// The browser's clock is UTC, so the window typed is the window stored ("+0000").
test.use({ timezoneId: "UTC" });

test.beforeAll(async () => {
  test.setTimeout(240_000); // the embedded PostgreSQL's first start, migrations, the first sync
  live = await startLiveGarden(E2E_ADMIN_TOKEN);
});

test.afterAll(async () => {
  await live?.stop();
});

/** Marks the document, so that a reload (which would drop the mark) cannot pass for a live update. */
async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { __almanacMark?: string }).__almanacMark = "still here"));
}
async function expectSameDocument(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __almanacMark?: string }).__almanacMark)).toBe("still here");
}

test("the lifecycle page names the garden and follows a change made in it, without a reload", async ({
  page,
}, testInfo) => {
  await page.goto(pageUrl(SHOOT));
  const nav = page.getByRole("navigation", { name: "Main" });
  // The navigation says which garden this is: the kubeconfig's context and the API server.
  const server = new URL(live.garden.url).host;
  await expect(nav.getByText(`Garden ${live.context} · ${server}`)).toBeVisible();
  await expect(nav.getByText("Simulated garden")).toHaveCount(0);
  await expect(nav.getByRole("status")).toHaveText("Live", { timeout: 15_000 });

  const inGarden = live.garden.get("Shoot", SHOOT.namespace, SHOOT.name);
  await expect(page.getByText(`Kubernetes ${inGarden.spec.kubernetes.version} on cloud profile`)).toBeVisible();
  await screenshot(page, testInfo, "live-garden");
  await markDocument(page);

  // Gardener moves the control plane to another version of the profile and reports its operation.
  const next = inGarden.spec.kubernetes.version === "1.31.4" ? "1.31.2" : "1.31.4";
  live.garden.update("Shoot", SHOOT.namespace, SHOOT.name, (shoot) => {
    shoot.spec.kubernetes.version = next;
    shoot.status = {
      ...shoot.status,
      lastOperation: {
        type: "Reconcile",
        state: "Processing",
        progress: 40,
        description: `Updating the control plane to Kubernetes ${next}`,
        lastUpdateTime: new Date().toISOString(),
      },
    };
  });

  await expect(page.getByText(`Kubernetes ${next} on cloud profile`)).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole("heading", { name: "Last operation: Reconcile" })).toBeVisible();
  await expect(page.getByText("Processing 40%")).toBeVisible();
  await expect(page.getByText(`Updating the control plane to Kubernetes ${next}`)).toBeVisible();
  await expectSameDocument(page);
});

test("a window edited on the page reaches the garden as exactly that merge patch, and the page shows it", async ({
  page,
}) => {
  await page.goto(pageUrl(SHOOT));
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("status")).toHaveText("Live", {
    timeout: 15_000,
  });
  const editor = page.getByRole("form", { name: "Maintenance settings" });
  const before = live.garden.get("Shoot", SHOOT.namespace, SHOOT.name);
  await expect(editor.getByText(/^Stored as/)).toContainText(before.spec.maintenance.timeWindow.begin);
  await expect(editor.getByLabel("Time zone")).toHaveValue("UTC");
  await expect(editor.getByLabel("End", { exact: true })).toBeChecked();

  const requestsBefore = live.garden.requests.length;
  await editor.getByLabel("Start").fill("03:00");
  await editor.getByLabel("End", { exact: true }).check();
  await editor.getByLabel("End time").fill("04:30");
  await editor.getByRole("button", { name: "Save changes" }).click();
  await expect(editor.getByRole("status").filter({ hasText: "Saved; the next maintenance moves to" })).toBeVisible();

  // Exactly one write reached the garden: a merge patch of the window alone, guarded by the
  // garden's resourceVersion of the shoot the page showed.
  const writes = live.garden.requests.slice(requestsBefore).filter((r) => r.method !== "GET");
  expect(writes.map((r) => ({ method: r.method, path: r.path, contentType: r.contentType, body: r.body }))).toEqual([
    {
      method: "PATCH",
      path: `/apis/core.gardener.cloud/v1beta1/namespaces/${SHOOT.namespace}/shoots/${SHOOT.name}`,
      contentType: "application/merge-patch+json",
      body: {
        metadata: { resourceVersion: before.metadata.resourceVersion },
        spec: { maintenance: { timeWindow: { begin: "030000+0000", end: "043000+0000" } } },
      },
    },
  ]);
  const after = live.garden.get("Shoot", SHOOT.namespace, SHOOT.name);
  expect(after.spec.maintenance.timeWindow).toEqual({ begin: "030000+0000", end: "043000+0000" });
  expect(after.spec.maintenance.autoUpdate).toEqual(before.spec.maintenance.autoUpdate);

  // The page shows the garden's new window.
  await expect(editor.getByText(/^Stored as/)).toContainText("030000+0000");
  await expect(editor.getByText(/^Stored as/)).toContainText("043000+0000");
  await expect(editor.getByLabel("Start")).toHaveValue("03:00");
  await expect(page.getByText(/window 03:00–04:30 UTC/)).toBeVisible();
});

test("what the cluster runs stays apart from what its spec asks until the garden's reconcile of it succeeds", async ({
  page,
}) => {
  const shoot = { namespace: "garden-dev", name: "cluster-2" };
  // The garden reports a successful reconcile of the current generation: what runs is the spec.
  live.garden.update("Shoot", shoot.namespace, shoot.name, (s) => {
    s.spec.maintenance = { ...s.spec.maintenance, confineSpecUpdateRollout: true };
  });
  const ran = live.garden.update("Shoot", shoot.namespace, shoot.name, (s) => {
    s.status = {
      ...s.status,
      observedGeneration: s.metadata.generation,
      lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100, lastUpdateTime: new Date().toISOString() },
    };
  });
  const running: string = ran.spec.kubernetes.version;
  const asked = running === "1.31.4" ? "1.31.2" : "1.31.4";
  await page.goto(pageUrl(shoot));
  await expect(page.getByTestId("running-kubernetes")).toHaveText(running, { timeout: 10_000 });
  // Changes made before the page follows the garden would reach it only with the next event.
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("status")).toHaveText("Live", {
    timeout: 15_000,
  });
  await markDocument(page);

  // Someone asks for another version; the gardenlet holds it for the window.
  live.garden.update("Shoot", shoot.namespace, shoot.name, (s) => {
    s.spec.kubernetes.version = asked;
  });
  await expect(page.getByTestId("asked-kubernetes")).toHaveText(asked, { timeout: 10_000 });
  await expect(page.getByTestId("running-kubernetes")).toHaveText(running);
  await expect(page.getByTestId("rollout-when")).toHaveText(/^in the next window \(.+ local · .+ UTC\)$/);
  await expect(page.getByTestId("pending-rollout")).toContainText(`Control plane: Kubernetes ${running} → ${asked}`);

  // The window's reconcile rolls it out.
  live.garden.update("Shoot", shoot.namespace, shoot.name, (s) => {
    s.status = {
      ...s.status,
      observedGeneration: s.metadata.generation,
      lastOperation: {
        type: "Reconcile",
        state: "Succeeded",
        progress: 100,
        lastUpdateTime: new Date(Date.now() + 1000).toISOString(),
      },
    };
  });
  await expect(page.getByText(`Kubernetes ${asked} on cloud profile`)).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId("asked-kubernetes")).toHaveCount(0);
  await expect(page.getByTestId("pending-rollout")).toHaveCount(0);
  await expectSameDocument(page);
});

// The live garden in the browser (issue 14, item 6): Almanac started on a garden's kubeconfig
// follows it, and the open lifecycle page shows a change made in the garden without a reload.
//
// This spec runs its own Almanac (e2e/support/live-garden.ts): the stand-in Kubernetes API server
// in this process with a small landscape (garden-dev/cluster-0…3), and `npm start` pointed at it
// by GARDEN_KUBECONFIG on a free port. The shared webServer's simulated garden is not used here.
//
// Shoots used:
//   garden-dev/cluster-1  the garden changes it while its page is open
import { expect, test, type Page } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../playwright.config";
import { type LiveGarden, startLiveGarden } from "./support/live-garden";

const SHOOT = { namespace: "garden-dev", name: "cluster-1" };

let live: LiveGarden;
const pageUrl = (s: { namespace: string; name: string }) => `${live.baseURL}/shoots/${s.namespace}/${s.name}`;

test.describe.configure({ mode: "serial" });

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

test("the lifecycle page names the garden and follows a change made in it, without a reload", async ({ page }) => {
  await page.goto(pageUrl(SHOOT));
  const nav = page.getByRole("navigation", { name: "Main" });
  // The navigation says which garden this is: the kubeconfig's context and the API server.
  const server = new URL(live.garden.url).host;
  await expect(nav.getByText(`Garden ${live.context} · ${server}`)).toBeVisible();
  await expect(nav.getByText("Simulated garden")).toHaveCount(0);
  await expect(nav.getByRole("status")).toHaveText("Live", { timeout: 15_000 });

  const inGarden = live.garden.get("Shoot", SHOOT.namespace, SHOOT.name);
  await expect(page.getByText(`Kubernetes ${inGarden.spec.kubernetes.version} on cloud profile`)).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: "/tmp/live-garden.png" });
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

// The fleet page on the demo landscape (64 shoots). Reads only, except one PATCH of
// garden-platform/registry-stage's confineSpecUpdateRollout (which nothing else in e2e touches).
import { expect, test, type Page } from "@playwright/test";
import { screenshot } from "./support/screenshot";

const rows = (page: Page) => page.locator("[data-shoot]");
const countLine = (page: Page) => page.getByText(/^\d+ shoots?( · \d+ loaded)?$/);

test("browse the fleet and filter to clusters expiring within 30 days", async ({ page, request }, testInfo) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/shoots$/);
  await expect(page.getByRole("heading", { level: 1, name: "Fleet" })).toBeVisible();
  await expect(rows(page).first()).toBeVisible();
  await expect(page.locator("[data-live-state=live]")).toBeVisible();
  await screenshot(page, testInfo, "fleet");

  const expected = await (await request.get("/api/v1/shoots?expiringWithinDays=30&sort=expiry&limit=500")).json();
  expect(expected.total).toBeGreaterThan(0);

  // The tile tells how many there are; clicking it filters, soonest expiry first.
  const tile = page.getByRole("button", { name: /Expired or expiring ≤ 30 days/ });
  await expect(tile.locator("[data-tile-value]")).toHaveText(String(expected.total));
  await tile.click();
  await expect(page).toHaveURL(/expiringWithinDays=30/);
  await expect(page).toHaveURL(/sort=expiry/);
  await expect(tile).toHaveAttribute("aria-pressed", "true");
  await expect(countLine(page)).toHaveText(new RegExp(`^${expected.total} shoots?`));
  const shown = await rows(page).evaluateAll((els) => els.slice(0, 5).map((e) => e.getAttribute("data-shoot")));
  expect(shown).toEqual(
    expected.items.slice(0, 5).map((s: { namespace: string; name: string }) => `${s.namespace}/${s.name}`),
  );
  // Every row says when its earliest version expires (or that it already has).
  for (const text of await rows(page).locator("[role=cell]:nth-child(5) time").allTextContents()) {
    expect(text).toMatch(/^(expired .+ ago|in \d+ (d|h|min)|now)$/);
  }
  await expect(page.getByLabel("Expiring within")).toHaveValue("30");
  await screenshot(page, testInfo, "fleet-expiring-30-days");

  // The filter survives a reload (it lives in the URL), and a second click removes it.
  await page.reload();
  await expect(countLine(page)).toHaveText(new RegExp(`^${expected.total} shoots?`));
  await page.getByRole("button", { name: /Expired or expiring ≤ 30 days/ }).click();
  await expect(page).not.toHaveURL(/expiringWithinDays/);
});

test("search, empty state and reset", async ({ page, request }) => {
  const payments = await (await request.get("/api/v1/shoots?q=payments&limit=1")).json();
  await page.goto("/shoots");
  await page.getByLabel("Search").fill("payments");
  await expect(page).toHaveURL(/q=payments/);
  await expect(countLine(page)).toHaveText(new RegExp(`^${payments.total} shoots?`));
  expect(payments.total).toBeGreaterThan(0);
  const cells = await rows(page).locator("[role=cell]:first-child").allTextContents();
  // The virtual list draws the rows on screen (and a few more), never more than there are.
  expect(cells.length).toBe(Math.min(payments.total, cells.length));
  expect(cells.length).toBeGreaterThan(0);
  for (const cell of cells) expect(cell).toContain("payments");

  await page.getByLabel("Search").fill("no-such-cluster-anywhere");
  await expect(page.getByText("No clusters match these filters")).toBeVisible();
  await page.getByRole("button", { name: "Reset filters" }).last().click();
  await expect(page).toHaveURL(/\/shoots$/);
  await expect(page.getByLabel("Search")).toHaveValue("");
  await expect(rows(page).first()).toBeVisible();
});

test("status tiles, sorting by column and loading more rows on scroll", async ({ page, request }) => {
  const all = await (await request.get("/api/v1/shoots?limit=1")).json();
  const unhealthyTotal = (await (await request.get("/api/v1/shoots?status=unhealthy&limit=1")).json()).total;
  await page.goto("/shoots");
  const unhealthy = page.getByRole("button", { name: /^Unhealthy/ });
  await unhealthy.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/status=unhealthy/);
  await expect(countLine(page)).toHaveText(new RegExp(`^${unhealthyTotal} shoots?`));
  for (const status of await rows(page).locator("[role=cell]:nth-child(2)").allTextContents()) {
    expect(status).toContain("Unhealthy");
  }
  await page.keyboard.press("Enter");
  await expect(page).not.toHaveURL(/status=/);

  // Sorting by name, then descending, from the column header.
  await page.getByRole("button", { name: "Cluster" }).click();
  await expect(page.getByRole("columnheader", { name: "Cluster" })).toHaveAttribute("aria-sort", "ascending");
  await page.getByRole("button", { name: "Cluster" }).click();
  await expect(page).toHaveURL(/sort=-name/);
  const names = await rows(page).evaluateAll((els) =>
    els.slice(0, 4).map((e) => e.getAttribute("data-shoot")!.split("/")[1]),
  );
  expect(names).toEqual([...names].sort().reverse());

  // The first page holds 30 rows; scrolling to the end loads the rest.
  await page.getByRole("table", { name: "Shoots" }).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(page.locator(`[aria-rowindex="${all.total + 1}"]`)).toBeVisible();
});

test("a change made elsewhere shows up without a reload", async ({ page, request }) => {
  const path = "/api/v1/namespaces/garden-platform/shoots/registry-stage";
  await page.goto("/shoots?q=registry-stage");
  const autoUpdate = page.locator('[data-shoot="garden-platform/registry-stage"] [role=cell]:nth-child(8)');
  await expect(page.locator("[data-live-state=live]")).toBeVisible();
  const shoot = await (await request.get(path)).json();
  const before = shoot.spec.maintenance?.autoUpdate?.kubernetesVersion !== false;
  await expect(autoUpdate).toContainText(`K8s patch ${before ? "on" : "off"}`);
  const patch = await request.patch(path, {
    headers: { "content-type": "application/merge-patch+json" },
    data: {
      metadata: { resourceVersion: shoot.metadata.resourceVersion },
      spec: { maintenance: { autoUpdate: { kubernetesVersion: !before } } },
    },
  });
  expect(patch.status()).toBe(200);
  await expect(autoUpdate).toContainText(`K8s patch ${before ? "off" : "on"}`);
});

test("the live indicator shows when the connection drops and when it is back", async ({ page }) => {
  // The first stream says "ready" and then ends (a dropped connection); the reconnects fail
  // until the route is removed, after which the browser reaches the real server again.
  let first = true;
  await page.route("**/api/v1/events", async (route) => {
    if (first) {
      first = false;
      await route.fulfill({
        status: 200,
        headers: { "content-type": "text/event-stream" },
        body: "retry: 500\nevent: ready\ndata: {}\n\n",
      });
    } else {
      await route.fulfill({ status: 503, body: "" });
    }
  });
  await page.goto("/shoots");
  const indicator = page.locator("[data-live-state]");
  await expect(indicator).toHaveText("Reconnecting…");
  await expect(indicator).toHaveAttribute("title", /dropped/);
  await page.unroute("**/api/v1/events");
  await expect(indicator).toHaveText("Live", { timeout: 15_000 });
});

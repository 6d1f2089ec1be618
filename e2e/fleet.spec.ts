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
  // The status tiles count out of the 30-day selection, as the list; the expiry tiles say what they count out of.
  await expect(page.getByRole("button", { name: /^Healthy/ }).locator("[data-tile-total]")).toHaveText(
    `of ${expected.total}`,
  );
  await expect(tile.locator("[data-tile-total]")).toContainText("with any expiry");
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
  // The stream's URL carries ?since=, so match its path.
  const events = (url: URL) => url.pathname === "/api/v1/events";
  await page.route(events, async (route) => {
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
  await page.unroute(events);
  await expect(indicator).toHaveText("Live", { timeout: 15_000 });
});

test("fast input: a search typed and a select changed at once both reach the URL and the list", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  // The page's own navigations and list requests answer late and out of order, as on a busy
  // server, so that a stale write would have time to land after a newer one.
  let n = 0;
  await page.route(/_rsc=|\/api\/v1\/shoots\?/, async (route) => {
    n += 1;
    await new Promise((resolve) => setTimeout(resolve, [40, 400, 150][n % 3]));
    await route.continue();
  });
  await page.goto("/shoots");
  await expect(rows(page).first()).toBeVisible();
  const search = page.getByLabel("Search");
  const status = page.getByLabel("Status");
  const tries: { q: string; status: string; order: "type first" | "select first"; pause: number }[] = [
    { q: "prod", status: "healthy", order: "type first", pause: 0 },
    { q: "stage", status: "unhealthy", order: "select first", pause: 0 },
    { q: "eu", status: "", order: "type first", pause: 150 },
    { q: "payments", status: "progressing", order: "select first", pause: 100 },
    { q: "us", status: "healthy", order: "type first", pause: 280 },
  ];
  for (const t of tries) {
    if (t.order === "type first") {
      await search.fill("");
      await search.pressSequentially(t.q, { delay: 15 });
      if (t.pause) await page.waitForTimeout(t.pause);
      await status.selectOption(t.status);
    } else {
      await status.selectOption(t.status);
      if (t.pause) await page.waitForTimeout(t.pause);
      await search.fill("");
      await search.pressSequentially(t.q, { delay: 15 });
    }
    const wanted = new URLSearchParams({ q: t.q, ...(t.status ? { status: t.status } : {}) }).toString();
    await expect.poll(() => new URL(page.url()).search, { message: JSON.stringify(t) }).toBe(`?${wanted}`);
    await expect(search).toHaveValue(t.q);
    await expect(status).toHaveValue(t.status);
    // The list shows what the URL asks for: the same count and first rows as the API's answer.
    const expected = await (await request.get(`/api/v1/shoots?${wanted}&sort=status&limit=5`)).json();
    await expect(countLine(page)).toHaveText(new RegExp(`^${expected.total} shoots?`));
    if (expected.total > 0) {
      await expect
        .poll(() => rows(page).evaluateAll((els) => els.slice(0, 5).map((e) => e.getAttribute("data-shoot"))))
        .toEqual(expected.items.map((s: { namespace: string; name: string }) => `${s.namespace}/${s.name}`));
    }
  }
  // Stays so: nothing late overwrites the last choice.
  await page.waitForTimeout(800);
  expect(new URL(page.url()).search).toBe("?q=us&status=healthy");
});

test("'/' puts the cursor in the search, and the image column names each pool", async ({ page, request }) => {
  await page.goto("/shoots");
  await expect(rows(page).first()).toBeVisible();
  const search = page.getByLabel("Search");
  await page.locator("body").press("/");
  await expect(search).toBeFocused();
  await expect(search).toHaveValue("");
  // In the search itself (or any other text field) "/" is text.
  await page.keyboard.type("a/b");
  await expect(search).toHaveValue("a/b");
  await search.fill("");

  const first = (await (await request.get("/api/v1/shoots?sort=status&limit=1")).json()).items[0];
  const pool = first.workers[0];
  const images = page.locator(`[data-shoot="${first.namespace}/${first.name}"] [role=cell]:nth-child(6) li`).first();
  await expect(images).toContainText(`${pool.name}: ${pool.image.name} ${pool.image.version}`);
});

test("filter by purpose and by a label selector; a selector that does not parse says why", async ({
  page,
  request,
}, testInfo) => {
  const all = await (await request.get("/api/v1/shoots?limit=1")).json();
  const production = await (await request.get("/api/v1/shoots?purpose=production&limit=500")).json();
  const prodInPayments = await (
    await request.get(`/api/v1/shoots?purpose=production&labels=${encodeURIComponent("app in (checkout,ledger)")}`)
  ).json();
  expect(production.total).toBeGreaterThan(0);
  expect(production.total).toBeLessThan(all.total);
  expect(prodInPayments.total).toBeGreaterThan(0);
  expect(prodInPayments.total).toBeLessThan(production.total);

  await page.goto("/shoots");
  await expect(countLine(page)).toHaveText(new RegExp(`^${all.total} shoots?`));
  // Hydrated (the live connection is React's): a choice made before would be lost.
  await expect(page.locator("[data-live-state=live]")).toBeVisible({ timeout: 30_000 });
  await page.getByLabel("Purpose").selectOption("production");
  await expect(page).toHaveURL(/purpose=production/);
  await expect(countLine(page)).toHaveText(new RegExp(`^${production.total} shoots?`));
  const shown = await rows(page).evaluateAll((els) => els.slice(0, 3).map((e) => e.getAttribute("data-shoot")));
  const first = await (await request.get("/api/v1/shoots?purpose=production&sort=status&limit=3")).json();
  expect(shown).toEqual(first.items.map((s: { namespace: string; name: string }) => `${s.namespace}/${s.name}`));

  // A selector half typed is not applied; its reason shows under the field.
  const labels = page.getByLabel("Labels");
  await labels.fill("app in (checkout,");
  await labels.press("Enter");
  await expect(page.getByTestId("labels-problem")).toContainText("Not a label selector");
  await expect(labels).toHaveAttribute("aria-invalid", "true");
  await expect(countLine(page)).toHaveText(new RegExp(`^${production.total} shoots?`));
  await screenshot(page.getByRole("search", { name: "Filter the fleet" }), testInfo, "fleet-filter-labels-problem");

  await labels.fill("app in (checkout,ledger)");
  await expect(page.getByTestId("labels-problem")).toHaveCount(0);
  await labels.press("Enter");
  await expect(page).toHaveURL(/labels=app/);
  await expect(countLine(page)).toHaveText(new RegExp(`^${prodInPayments.total} shoots?`));
  for (const name of await rows(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-shoot"))))
    expect(name).toMatch(/^garden-payments\/(checkout|ledger)-/);
  await screenshot(page.getByRole("search", { name: "Filter the fleet" }), testInfo, "fleet-filter-bar");

  // Both survive a reload, and reset removes both.
  await page.reload();
  await expect(page.getByLabel("Purpose")).toHaveValue("production");
  await expect(labels).toHaveValue("app in (checkout,ledger)");
  await expect(countLine(page)).toHaveText(new RegExp(`^${prodInPayments.total} shoots?`));
  await page.getByRole("button", { name: "Reset filters (2)" }).click();
  await expect(labels).toHaveValue("");
  await expect(countLine(page)).toHaveText(new RegExp(`^${all.total} shoots?`));
});

for (const [name, options] of [
  ["dark", { colorScheme: "dark" as const }],
  ["390px", { viewport: { width: 390, height: 844 } }],
] as const) {
  test.describe(`the filter bar (${name})`, () => {
    test.use(options);
    test(`shows purpose and labels (${name})`, async ({ page }, testInfo) => {
      await page.goto(`/shoots?purpose=production&labels=${encodeURIComponent("env=prod,!legacy")}`);
      await expect(page.getByLabel("Purpose")).toHaveValue("production");
      await expect(page.getByLabel("Labels")).toHaveValue("env=prod,!legacy");
      await expect(rows(page).first()).toBeVisible();
      await screenshot(page.getByRole("search", { name: "Filter the fleet" }), testInfo, `fleet-filter-bar-${name}`);
    });
  });
}

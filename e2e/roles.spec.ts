// Journeys of the roles: the lifecycle page offers only what the caller's role allows, disables
// the rest and says why, and the API refuses it anyway; an operator maintains a cluster now; a
// viewer of one project uses the fleet-wide pages, which show that project only.
// Each journey acts through an API token of its own role, made by the admin (the journeys' default
// caller) with POST /api/v1/tokens.
//
// Shoots used here (other journeys should leave them alone):
//   garden-analytics/dashboards-eu   the viewer (a viewer on project analytics)
//   garden-sandbox/workshop-demo     the operator (an operator on the whole landscape: maintain now's
//                                    preview reads the cloud profile, which needs a landscape-wide role)
import { expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { screenshot } from "./support/screenshot";

const VIEWER_SHOOT = { namespace: "garden-analytics", name: "dashboards-eu", project: "analytics" };
const OPERATOR_SHOOT = { namespace: "garden-sandbox", name: "workshop-demo" };

type Ref = { namespace: string; name: string };
const api = (s: Ref) => `/api/v1/namespaces/${s.namespace}/shoots/${s.name}`;
const pageOf = (s: Ref) => `/shoots/${s.namespace}/${s.name}`;

test.use({ timezoneId: "Europe/Berlin" });

/**
 * A new API token named `name` with `role` on `scope` (a project, or "*"), made by the admin (the
 * journeys' default caller); answers its Authorization header. Needs POST /api/v1/tokens.
 */
async function tokenFor(request: APIRequestContext, name: string, role: string, scope: string): Promise<string> {
  const response = await request.post("/api/v1/tokens", {
    data: { name, role, scope, expiresInDays: null },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { value } = (await response.json()) as { value: string };
  return `Bearer ${value}`;
}

/** A browser context (pages and API) acting as the token's holder. */
async function actingAs(browser: Browser, authorization: string) {
  return browser.newContext({
    extraHTTPHeaders: { authorization },
    timezoneId: "Europe/Berlin",
    viewport: { width: 1280, height: 900 },
  });
}

test("a viewer sees why saving a maintenance window is not offered, and the API refuses it", async ({
  browser,
  request,
}, testInfo) => {
  const context = await actingAs(
    browser,
    await tokenFor(request, `e2e-viewer-${Date.now()}`, "viewer", VIEWER_SHOOT.project),
  );
  const page = await context.newPage();
  const reason = `Your role viewer on project ${VIEWER_SHOOT.project} does not allow this; it needs operator.`;

  await page.goto(pageOf(VIEWER_SHOOT));
  const editor = page.getByRole("form", { name: "Maintenance settings" });
  const save = editor.getByRole("button", { name: "Save changes" });
  await expect(save).toBeDisabled();
  await expect(save).toHaveAccessibleDescription(reason);
  await expect(editor.getByText(reason)).toBeVisible();
  // Nothing to edit: the times and the switches are disabled too; the time zone only changes the view.
  await expect(editor.getByLabel("Start")).toBeDisabled();
  await expect(editor.getByRole("checkbox", { name: "Kubernetes patch version" })).toBeDisabled();
  await expect(editor.getByLabel("Time zone")).toBeEnabled();
  // The header's actions say the same.
  for (const action of ["Maintain now", "Update images", "Update version"]) {
    const button = page.getByRole("button", { name: action, exact: true });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAccessibleDescription(reason);
  }
  await expect(page.getByRole("button", { name: "Migrate control plane…" })).toHaveAccessibleDescription(
    new RegExp(`^Your role viewer on project ${VIEWER_SHOOT.project} does not allow this; it needs admin\\.`),
  );
  await screenshot(page, testInfo, "roles-viewer-lifecycle");

  // The API refuses it all the same, in words.
  const before = (await (await request.get(api(VIEWER_SHOOT))).json()) as {
    metadata: { resourceVersion: string };
    spec: { maintenance: { timeWindow: { begin: string; end: string } } };
  };
  const refused = await context.request.patch(api(VIEWER_SHOOT), {
    headers: { "content-type": "application/merge-patch+json" },
    data: {
      metadata: { resourceVersion: before.metadata.resourceVersion },
      spec: { maintenance: { timeWindow: { begin: "010000+0000", end: "030000+0000" } } },
    },
  });
  expect(refused.status()).toBe(403);
  expect(refused.headers()["content-type"]).toContain("application/problem+json");
  expect(((await refused.json()) as { detail: string }).detail).toContain(
    `the role viewer on project ${VIEWER_SHOOT.project}; this needs operator.`,
  );
  const after = (await (await request.get(api(VIEWER_SHOOT))).json()) as typeof before;
  expect(after.spec.maintenance.timeWindow).toEqual(before.spec.maintenance.timeWindow);
  await context.close();
});

test("a viewer of one project sees that project's shoots on the fleet-wide pages", async ({
  browser,
  request,
}, testInfo) => {
  const context = await actingAs(
    browser,
    await tokenFor(request, `e2e-project-viewer-${Date.now()}`, "viewer", VIEWER_SHOOT.project),
  );
  const page = await context.newPage();
  const note = `Showing the shoots of your project ${VIEWER_SHOOT.project} only`;
  const expected = (await (await context.request.get("/api/v1/shoots?limit=500")).json()) as {
    total: number;
    items: { namespace: string }[];
  };
  expect(expected.total).toBeGreaterThan(0);
  expect(new Set(expected.items.map((s) => s.namespace))).toEqual(new Set([VIEWER_SHOOT.namespace]));

  await page.goto("/shoots");
  await expect(page.getByRole("note")).toContainText(note);
  await expect(page.getByText(new RegExp(`^${expected.total} shoots?( · \\d+ loaded)?$`))).toBeVisible();
  const shown = await page.locator("[data-shoot]").evaluateAll((els) => els.map((e) => e.getAttribute("data-shoot")));
  expect(shown.length).toBeGreaterThan(0);
  for (const shoot of shown) expect(shoot).toMatch(new RegExp(`^${VIEWER_SHOOT.namespace}/`));
  // The project filter offers the caller's project only.
  await expect(page.getByLabel("Project").locator("option")).toHaveText(["All projects", VIEWER_SHOOT.project]);
  await screenshot(page, testInfo, "roles-project-viewer-fleet");

  await page.goto("/forecast");
  await expect(page.getByRole("note")).toContainText(`forced updates of your project ${VIEWER_SHOOT.project}`);
  await expect(page.getByLabel("Project").locator("option")).toHaveText([
    "All projects",
    `${VIEWER_SHOOT.project} (${VIEWER_SHOOT.namespace})`,
  ]);
  // Loaded (not refused): the running migrations are counted, the log's events or its emptiness shown.
  const loaded = {
    "/migrations": page.getByRole("heading", { name: /^Running \(\d+\)$/ }),
    "/audit": page.getByText(/events? shown|The audit log is empty/),
  };
  for (const [path, sign] of Object.entries(loaded)) {
    await page.goto(path);
    await expect(page.getByRole("note")).toContainText(`of your project ${VIEWER_SHOOT.project} only`);
    await expect(sign).toBeVisible();
    await expect(page.getByText(/could not be loaded/)).toHaveCount(0);
  }
  await context.close();
});

test("an operator maintains a cluster now, and may not migrate it", async ({ browser, request }, testInfo) => {
  const tokenName = `e2e-operator-${Date.now()}`;
  const context = await actingAs(browser, await tokenFor(request, tokenName, "operator", "*"));
  const page = await context.newPage();

  await page.goto(pageOf(OPERATOR_SHOOT));
  const migrate = page.getByRole("button", { name: "Migrate control plane…" });
  await expect(migrate).toBeDisabled();
  await expect(migrate).toHaveAccessibleDescription(
    /^Your role operator on the whole landscape does not allow this; it needs admin\./,
  );
  await expect(page.getByRole("form", { name: "Maintenance settings" }).getByLabel("Start")).toBeEnabled();

  const maintainNow = page.getByRole("button", { name: "Maintain now", exact: true });
  await expect(maintainNow).toBeEnabled();
  await maintainNow.click();
  const dialog = page.getByRole("dialog", { name: `Maintain ${OPERATOR_SHOOT.name} now` });
  await dialog.getByRole("button", { name: "Maintain now" }).click();
  await expect(dialog.getByText("Maintenance finished.")).toBeVisible({ timeout: 30_000 });
  await screenshot(page, testInfo, "roles-operator-maintained");
  await dialog.getByRole("button", { name: "Done" }).click();

  // The request was the operator's: the audit log names the token.
  const search = new URLSearchParams({ actor: `token:${tokenName}`, ...OPERATOR_SHOOT });
  const audit = (await (await request.get(`/api/v1/audit?${search}`)).json()) as { items: { action: string }[] };
  expect(audit.items.length, "an audit event of the operator's token").toBeGreaterThan(0);
  await context.close();
});

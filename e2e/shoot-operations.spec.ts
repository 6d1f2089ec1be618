// The lifecycle page's operations, each confirmed and followed live: reconcile, retry a failed
// operation, hibernate and wake up (and a refusal in words), delete with the typed name and the
// cleanup to the end, the typed-name confirmation of a production cluster's migration with its
// region change; and what an operator may not do.
//
// Shoots used here (other journeys should leave them alone):
//   garden-platform/ingress-dev         reconciled, hibernated and woken up
//   garden-analytics/dashboards-us      its failed reconcile retried
//   garden-platform/logging-dev         deleted
//   garden-analytics/warehouse-etl-eu   a production cluster: its migration dialog, cancelled
// and, read only, the first awake shoot whose HibernationPossible constraint is False (its
// hibernation is refused, so nothing changes).
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { screenshot } from "./support/screenshot";

type Ref = { namespace: string; name: string };
const RECONCILE_SHOOT = { namespace: "garden-platform", name: "ingress-dev" };
const RETRY_SHOOT = { namespace: "garden-analytics", name: "dashboards-us" };
const DELETE_SHOOT = { namespace: "garden-platform", name: "logging-dev" };
const PRODUCTION_SHOOT = { namespace: "garden-analytics", name: "warehouse-etl-eu" };

const api = (s: Ref) => `/api/v1/namespaces/${s.namespace}/shoots/${s.name}`;
const pageOf = (s: Ref) => `/shoots/${s.namespace}/${s.name}`;

test.use({ timezoneId: "Europe/Berlin", viewport: { width: 1440, height: 1000 } });

async function open(page: Page, shoot: Ref) {
  await page.goto(pageOf(shoot));
  await expect(page.getByRole("heading", { level: 1, name: shoot.name })).toBeVisible();
  return page.getByRole("group", { name: "Cluster operations" });
}

async function lastOperation(request: APIRequestContext, shoot: Ref) {
  const body = (await (await request.get(api(shoot))).json()) as {
    status?: { lastOperation?: { type: string; state: string }; hibernated?: boolean };
  };
  return body.status;
}

test("reconcile a cluster, then hibernate and wake it up, following each live", async ({ page }, testInfo) => {
  const operations = await open(page, RECONCILE_SHOOT);
  await screenshot(page, testInfo, "operations-buttons");

  // Keyboard: focus the button, Enter opens the dialog, Enter on its confirm button asks.
  await operations.getByRole("button", { name: "Reconcile" }).focus();
  await page.keyboard.press("Enter");
  const reconcile = page.getByRole("dialog", { name: `Reconcile ${RECONCILE_SHOOT.name}` });
  await expect(reconcile).toContainText("gardener.cloud/operation=reconcile");
  await reconcile.getByRole("button", { name: "Reconcile now" }).focus();
  await page.keyboard.press("Enter");
  await expect(reconcile.getByTestId("operation-progress")).toHaveText("The reconcile succeeded.", {
    timeout: 30_000,
  });
  await reconcile.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("operation-status")).toHaveText("Reconcile: done");

  await operations.getByRole("button", { name: "Hibernate" }).click();
  const hibernate = page.getByRole("dialog", { name: `Hibernate ${RECONCILE_SHOOT.name}` });
  await hibernate.getByRole("button", { name: "Hibernate" }).click();
  // Closed while it runs, it is followed beside the buttons.
  await hibernate.getByRole("button", { name: /Close; keep following it|Done/ }).click();
  await expect(page.getByTestId("operation-status")).toHaveText("Hibernate: done", { timeout: 30_000 });
  await expect(page.getByRole("heading", { level: 3, name: "Hibernation: Hibernated" })).toBeVisible();

  await operations.getByRole("button", { name: "Wake up" }).click();
  const wake = page.getByRole("dialog", { name: `Wake up ${RECONCILE_SHOOT.name}` });
  await wake.getByRole("button", { name: "Wake up" }).click();
  await expect(wake.getByTestId("operation-progress")).toContainText("awake again", { timeout: 30_000 });
  await wake.getByRole("button", { name: "Done" }).click();
  await expect(operations.getByRole("button", { name: "Hibernate" })).toBeEnabled();
});

test("retry a failed operation", async ({ page, request }) => {
  expect((await lastOperation(request, RETRY_SHOOT))?.lastOperation?.state).toBe("Failed");
  const operations = await open(page, RETRY_SHOOT);
  await expect(operations.getByRole("button", { name: "Reconcile" })).toHaveCount(0);
  await operations.getByRole("button", { name: "Retry operation" }).click();
  const dialog = page.getByRole("dialog", { name: `Retry the failed operation of ${RETRY_SHOOT.name}` });
  await expect(dialog).toContainText("The last operation (Reconcile) failed");
  await dialog.getByRole("button", { name: "Retry now" }).click();
  // Live: the retried reconcile runs and ends.
  await expect(dialog.getByTestId("operation-progress")).toHaveText(/succeeded|failed/, { timeout: 30_000 });
  await dialog.getByRole("button", { name: "Done" }).click();
});

test("a refused hibernation says why, in words", async ({ page, request }) => {
  const list = (await (await request.get("/api/v1/shoots?limit=200")).json()) as {
    items: { namespace: string; name: string; hibernated: boolean }[];
  };
  let blocked: { namespace: string; name: string; message: string } | undefined;
  for (const row of list.items.filter((r) => !r.hibernated)) {
    const detail = (await (await request.get(api(row))).json()) as {
      status?: { constraints?: { type: string; status: string; message?: string }[] };
    };
    const possible = detail.status?.constraints?.find((c) => c.type === "HibernationPossible");
    if (possible?.status === "False") {
      blocked = { namespace: row.namespace, name: row.name, message: possible.message ?? "" };
      break;
    }
  }
  if (!blocked) throw new Error("no demo shoot with problematic webhooks");
  const operations = await open(page, blocked);
  await operations.getByRole("button", { name: "Hibernate" }).click();
  const dialog = page.getByRole("dialog", { name: `Hibernate ${blocked.name}` });
  await expect(dialog).toContainText("Gardener will probably refuse: the HibernationPossible constraint is False");
  await dialog.getByRole("button", { name: "Hibernate" }).click();
  await expect(dialog.getByTestId("operation-error")).toContainText(
    `Shoot ${blocked.namespace}/${blocked.name} cannot be hibernated now: its HibernationPossible constraint is False (`,
  );
  await expect(dialog.getByTestId("operation-error")).toContainText(blocked.message.slice(0, 40));
  await dialog.getByRole("button", { name: "Cancel" }).click();
});

test("delete a cluster: type its name, then follow the cleanup until it is gone", async ({
  page,
  request,
}, testInfo) => {
  // The simulated cleanup waits its grace periods in real time (minutes for stuck finalizers): the
  // cluster's own annotations shorten them to nothing, as an administrator may (shoot-advanced.md).
  const graces = ["webhooks", "extended-apis", "kubernetes-resources"].map(
    (what) => `shoot.gardener.cloud/cleanup-${what}-finalize-grace-period-seconds`,
  );
  const shortened = await request.patch(api(DELETE_SHOOT), {
    headers: { "content-type": "application/merge-patch+json" },
    data: { metadata: { annotations: Object.fromEntries(graces.map((key) => [key, "0"])) } },
  });
  expect(shortened.status(), await shortened.text()).toBe(200);

  const operations = await open(page, DELETE_SHOOT);
  await operations.getByRole("button", { name: "Delete…" }).click();
  const dialog = page.getByRole("dialog", { name: `Delete ${DELETE_SHOOT.name}` });
  const confirm = dialog.getByRole("button", { name: `Delete ${DELETE_SHOOT.name}` });
  await expect(confirm).toBeDisabled();
  const input = dialog.getByLabel(`Type ${DELETE_SHOOT.name} to confirm`);
  await expect(input).toBeFocused();
  await input.fill(DELETE_SHOOT.name.slice(0, -1));
  await expect(confirm).toBeDisabled();
  await input.fill(DELETE_SHOOT.name);
  await expect(confirm).toBeEnabled();
  await screenshot(page, testInfo, "operations-delete-dialog");
  await page.keyboard.press("Enter");

  const deleting = page.getByRole("dialog", { name: `Deleting ${DELETE_SHOOT.name}` });
  await expect(deleting.getByRole("list", { name: "Cleanup steps" })).toBeVisible({ timeout: 15_000 });
  await screenshot(page, testInfo, "operations-deleting");
  await expect(deleting.getByTestId("deletion-summary")).toHaveText(/The cluster is gone/, { timeout: 90_000 });
  await screenshot(page, testInfo, "operations-deleted");
  expect((await request.get(api(DELETE_SHOOT))).status()).toBe(404);
  await expect(deleting.getByRole("link", { name: "Back to the fleet" })).toBeVisible();
});

test("migrating a production cluster asks for its name and spells out a region change", async ({ page }, testInfo) => {
  await page.goto(pageOf(PRODUCTION_SHOOT));
  await page.getByRole("button", { name: "Migrate control plane…" }).click();
  const dialog = page.getByRole("dialog", { name: `Migrate the control plane of ${PRODUCTION_SHOOT.name}` });
  const seeds = dialog.getByRole("radio");
  await expect(seeds.first()).toBeVisible();
  const enabled = seeds.and(page.locator(":not([disabled])"));
  expect(await enabled.count(), "a seed that can take the control plane").toBeGreaterThan(0);
  // Prefer a seed in another region, to see the change spelled out.
  let regionChanged = false;
  for (let i = 0; i < (await enabled.count()); i++) {
    await enabled.nth(i).check();
    if (await dialog.getByTestId("migration-region-change").isVisible()) {
      regionChanged = true;
      break;
    }
  }
  if (regionChanged)
    await expect(dialog.getByTestId("migration-region-change")).toContainText("The region changes from");
  const migrate = dialog.getByRole("button", { name: /^Migrate to / });
  await expect(migrate).toBeDisabled();
  const input = dialog.getByLabel(new RegExp(`Type ${PRODUCTION_SHOOT.name} to confirm the migration`));
  await input.fill("warehouse");
  await expect(migrate).toBeDisabled();
  await input.fill(PRODUCTION_SHOOT.name);
  await expect(migrate).toBeEnabled();
  await screenshot(page, testInfo, "operations-migrate-production");
  await dialog.getByRole("button", { name: "Cancel" }).click();
});

test("an operator may reconcile but not delete, and is told why", async ({ browser, request }) => {
  const created = await request.post("/api/v1/tokens", {
    data: { name: `e2e-operations-${Date.now()}`, role: "operator", scope: "*", expiresInDays: null },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { value } = (await created.json()) as { value: string };
  const context = await browser.newContext({
    extraHTTPHeaders: { authorization: `Bearer ${value}` },
    timezoneId: "Europe/Berlin",
  });
  const page = await context.newPage();
  const operations = await open(page, PRODUCTION_SHOOT);
  await expect(operations.getByRole("button", { name: "Reconcile" })).toBeEnabled();
  const del = operations.getByRole("button", { name: "Delete…" });
  await expect(del).toBeDisabled();
  await expect(del).toHaveAccessibleDescription(
    "Your role operator on the whole landscape does not allow this; it needs admin.",
  );
  // The API refuses it anyway, with a problem naming the role.
  const refused = await context.request.delete(api(PRODUCTION_SHOOT));
  expect(refused.status()).toBe(403);
  expect(refused.headers()["content-type"]).toContain("application/problem+json");
  await context.close();
});

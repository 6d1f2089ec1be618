// Journeys of the shoot page's "Seed tolerations" and "Endpoints and ports" panels: a toleration
// from the project's whitelist opens the payments seed and is saved; one the whitelists do not
// allow is refused beside its key and nothing is saved; the endpoints show the advertised
// addresses and each port's way on a click (and on a phone, in both themes).
//
// Shoots used here (other journeys should leave them alone):
//   garden-platform/vault-prod        tolerations edited and saved
//   garden-platform/logging-prod      read only (hibernated in the demo): what that means for reaching it
import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { screenshot } from "./support/screenshot";

const SHOOT = { namespace: "garden-platform", name: "vault-prod" };
const HIBERNATED = { namespace: "garden-platform", name: "logging-prod" };
const api = `/api/v1/namespaces/${SHOOT.namespace}/shoots/${SHOOT.name}`;
const pageUrl = `/shoots/${SHOOT.namespace}/${SHOOT.name}`;

const tolerationsPanel = (page: Page) =>
  page.locator("section", { has: page.getByRole("heading", { name: "Seed tolerations" }) });
const endpointsPanel = (page: Page) =>
  page.locator("section", { has: page.getByRole("heading", { name: "Endpoints and ports", exact: true }) });

test("a whitelisted toleration opens the payments seed and is saved; another is refused beside its key", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(pageUrl);
  const panel = tolerationsPanel(page);
  await expect(panel.getByTestId("no-tolerations")).toBeVisible();
  // The first request of the seeds after the server started may take a while.
  await expect(panel.getByTestId("tainted-seeds")).toContainText("aws-us1", { timeout: 30_000 });

  // The project's whitelist offers dedicated=payments: adding it opens aws-us1.
  await panel.getByRole("button", { name: "Add dedicated=payments" }).click();
  await expect(panel.getByRole("textbox", { name: "Key" })).toHaveValue("dedicated");
  await expect(panel.getByTestId("seed-reach")).toContainText("Opens aws-us1");
  await screenshot(panel, testInfo, "tolerations-panel-edit");
  await panel.getByRole("button", { name: "Save tolerations" }).click();
  // Saved once the shoot and its parts are read again (a busy machine may take a while).
  await expect(panel.getByRole("status").filter({ hasText: "Saved." })).toBeVisible({ timeout: 20_000 });
  const saved = await (await request.get(api)).json();
  expect(saved.spec.tolerations).toEqual([{ key: "dedicated", value: "payments" }]);

  // A key neither whitelist allows: flagged while typed (by keyboard), refused by the garden beside it.
  await panel.getByRole("button", { name: "Add toleration" }).click();
  await expect(panel.getByRole("textbox", { name: "Key" }).nth(1)).toBeFocused();
  await page.keyboard.type("gpu");
  await expect(panel.getByTestId("not-whitelisted")).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(
    panel.getByRole("alert").filter({ hasText: "is not in the project's whitelist nor the global whitelist" }),
  ).toBeVisible();
  await expect(panel.getByRole("textbox", { name: "Key" }).nth(1)).toHaveAttribute("aria-invalid", "true");
  expect((await (await request.get(api)).json()).spec.tolerations).toEqual([{ key: "dedicated", value: "payments" }]);
  await screenshot(panel, testInfo, "tolerations-panel-refused");

  // The history names the change in words.
  const history = page.locator("section", { has: page.getByRole("heading", { name: "History", exact: true }) });
  await expect(history.getByText("Seed tolerations").first()).toBeVisible();
  await expect(history.getByText("dedicated=payments").first()).toBeVisible();
});

test("the endpoints panel shows the advertised addresses and each port's way", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(pageUrl);
  const panel = endpointsPanel(page);
  await expect(panel.getByTestId("advertised-addresses")).toContainText(
    `https://api.${SHOOT.name}.platform.demo.gardener.example.com`,
  );
  await expect(panel).toContainText("ingress.gcp-eu1.demo.gardener.example.com");
  const vpn = panel.locator("summary", { hasText: "The reversed VPN" });
  await vpn.focus();
  await page.keyboard.press("Enter");
  await expect(panel.getByText(/dispatches it by an HTTP header/)).toBeVisible();
  await screenshot(panel, testInfo, "endpoints-panel");
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`both panels on a phone in the ${colorScheme} theme`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(pageUrl);
    const tolerations = tolerationsPanel(page);
    const endpoints = endpointsPanel(page);
    await expect(endpoints.getByTestId("endpoint-routes")).toBeVisible();
    await endpoints.locator("summary", { hasText: "apiserver-proxy" }).click();
    await expect(tolerations.getByTestId("tainted-seeds")).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoSeriousA11yViolations(page, `the tolerations and endpoints panels (${colorScheme})`, tolerations);
    await expectNoSeriousA11yViolations(page, `the endpoints panel (${colorScheme})`, endpoints);
    await screenshot(tolerations, testInfo, `tolerations-panel-phone-${colorScheme}`);
    await screenshot(endpoints, testInfo, `endpoints-panel-phone-${colorScheme}`);
  });
}

test("a hibernated cluster's endpoints say that nothing answers until it wakes up", async ({ page }) => {
  await page.goto(`/shoots/${HIBERNATED.namespace}/${HIBERNATED.name}`);
  await expect(endpointsPanel(page).getByTestId("endpoints-note")).toContainText("scaled to zero");
  await expect(endpointsPanel(page).getByTestId("advertised-addresses")).toContainText("api.logging-prod.platform");
});

// Every page and the main dialogs, in the light and the dark theme, without a serious or critical
// axe-core violation (contrast included); and the theme switch in the navigation, remembered
// across a reload. Only reads: dialogs are opened and closed, never confirmed.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext, type Page, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./support/axe";

type Ref = { namespace: string; name: string };

test.use({ viewport: { width: 1440, height: 1000 } });
// Its journeys only read and share nothing (each its own page and theme): the longest file of the
// run, spread over both workers.
test.describe.configure({ mode: "parallel" });

/** Loaded: the heading is there and no skeleton is left (charts and lists have their data). */
async function settled(page: Page, heading: string | RegExp) {
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  // The shoot page loads a dozen panels, each on its own request: on a busy machine that takes more
  // than the default 5 s.
  await expect(page.locator(".animate-pulse")).toHaveCount(0, { timeout: 20_000 });
}

async function aShoot(request: APIRequestContext): Promise<Ref> {
  const answer = await request.get("/api/v1/shoots?limit=1&sort=name");
  expect(answer.ok()).toBe(true);
  const [shoot] = (await answer.json()).items as Ref[];
  return { namespace: shoot.namespace, name: shoot.name };
}

async function aProfile(request: APIRequestContext): Promise<string> {
  return (await (await request.get("/api/v1/cloudprofiles")).json()).items[0].metadata.name as string;
}

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test("the console's pages have no serious or critical accessibility violation", async ({ page, request }) => {
      test.setTimeout(180_000); // eleven pages, each analysed in full
      const shoot = await aShoot(request);
      const profile = await aProfile(request);
      const pages: { path: string; heading: string | RegExp; ready?: () => Promise<void> }[] = [
        { path: "/shoots", heading: "Fleet", ready: () => expect(page.getByRole("row").nth(1)).toBeVisible() },
        {
          path: `/shoots/${shoot.namespace}/${shoot.name}`,
          heading: shoot.name,
          ready: () => expect(page.getByRole("form", { name: "Maintenance settings" })).toBeVisible(),
        },
        { path: "/forecast", heading: "Forecast" },
        { path: "/forecast?view=week&days=365", heading: "Forecast" },
        { path: "/cloudprofiles", heading: "Cloud profiles" },
        {
          path: `/cloudprofiles/${profile}`,
          heading: profile,
          ready: () => expect(page.getByRole("region", { name: "Kubernetes versions over time" })).toBeVisible(),
        },
        {
          path: "/namespacedcloudprofiles/garden-analytics/aws-extended",
          heading: "aws-extended",
          ready: () => expect(page.getByRole("row").nth(1)).toBeVisible(),
        },
        { path: "/audit", heading: "Audit log", ready: () => expect(page.getByRole("row").nth(1)).toBeVisible() },
        { path: "/migrations", heading: "Migrations" },
        { path: "/accounts", heading: "Accounts" },
        { path: "/freezes", heading: "Freezes", ready: () => expect(page.getByTestId("now-line")).toBeVisible() },
        { path: "/tokens", heading: /tokens/i },
        { path: "/password", heading: "Your password" },
        { path: "/jobs", heading: "Failed jobs" },
        {
          path: "/api-reference",
          heading: "API reference",
          // One operation open, so that its parameters, body and answers are checked too.
          ready: () => page.locator("#patchShoot > summary").click(),
        },
      ];
      for (const p of pages) {
        await page.goto(p.path);
        await settled(page, p.heading);
        await p.ready?.();
        await expectNoSeriousA11yViolations(page, `${p.path} (${colorScheme})`);
      }
      await page.goto("/no-such-page");
      await expect(page.getByText("There is no page at this address")).toBeVisible();
      await expectNoSeriousA11yViolations(page, `the not-found page (${colorScheme})`);
    });

    test("the shoot page's dialogs have no serious or critical accessibility violation", async ({ page, request }) => {
      test.setTimeout(120_000);
      const shoot = await aShoot(request);
      await page.goto(`/shoots/${shoot.namespace}/${shoot.name}`);
      await settled(page, shoot.name);
      const dialogs: { button: RegExp; dialog: RegExp }[] = [
        { button: /^Maintain now$/, dialog: new RegExp(`^Maintain ${shoot.name} now$`) },
        { button: /^Update version$/, dialog: /^Update the Kubernetes version$/ },
        { button: /^Update images$/, dialog: /^Update machine images$/ },
        { button: /^YAML$/, dialog: new RegExp(`^${shoot.name} as YAML$`) },
        { button: /^Migrate control plane/, dialog: new RegExp(`^Migrate the control plane of ${shoot.name}$`) },
      ];
      // And the operations the cluster's state offers (reconcile, retry, hibernate or wake up, delete).
      const operations = page.getByRole("group", { name: "Cluster operations" }).getByRole("button");
      await expect(operations.filter({ hasText: "Delete…" })).toBeEnabled();
      for (const label of await operations.allInnerTexts()) {
        const name = label.trim();
        dialogs.push({ button: new RegExp(`^${name}$`), dialog: /./ });
      }
      for (const d of dialogs) {
        const button = page.getByRole("button", { name: d.button });
        await expect(button, `${d.button}`).toBeEnabled();
        await button.click();
        const dialog = page.getByRole("dialog", { name: d.dialog });
        await expect(dialog).toBeVisible();
        await expect(dialog.locator(".animate-pulse")).toHaveCount(0);
        await expectNoSeriousA11yViolations(page, `the dialog of ${d.button} (${colorScheme})`, dialog);
        await page.keyboard.press("Escape");
        await expect(dialog).toBeHidden();
      }
    });

    test("the admin pages' dialogs have no serious or critical accessibility violation", async ({ page }) => {
      for (const { path: where, button, dialog: name } of [
        { path: "/accounts", button: "New account", dialog: "New account" },
        { path: "/tokens", button: "New token", dialog: "New API token" },
        { path: "/freezes", button: "New freeze", dialog: "New freeze" },
      ]) {
        await page.goto(where);
        await page.getByRole("button", { name: button }).first().click();
        const dialog = page.getByRole("dialog", { name });
        await expect(dialog).toBeVisible();
        await expectNoSeriousA11yViolations(page, `the dialog ${name} (${colorScheme})`, dialog);
        await page.keyboard.press("Escape");
        await expect(dialog).toBeHidden();
      }
    });

    test.describe("signed out", () => {
      test.use({ extraHTTPHeaders: {} });

      test("sign-in and setup have no serious or critical accessibility violation", async ({ page }) => {
        await page.goto("/sign-in");
        await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
        await expectNoSeriousA11yViolations(page, `/sign-in (${colorScheme})`);

        // The first-admin link start.mjs leaves in the data folder (used or not, the page answers).
        const file = path.join(process.env.E2E_DATA_DIR ?? "", "first-admin-link");
        const link = existsSync(file) ? new URL(readFileSync(file, "utf8").trim()) : new URL("http://x/setup");
        await page.goto(`${link.pathname}${link.search}`);
        await expect(page.getByRole("heading").first()).toBeVisible();
        await expectNoSeriousA11yViolations(page, `/setup (${colorScheme})`);
      });
    });
  });
}

test("the theme switch overrides the system's setting and is remembered across a reload", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/forecast");
  await settled(page, "Forecast");
  const html = page.locator("html");
  const theme = page.getByRole("group", { name: "Theme" });
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const lightBackground = await background();
  await expect(theme.getByRole("radio", { name: "System" })).toBeChecked();

  // Following the system: it turns dark with the system.
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(background).not.toBe(lightBackground);
  const darkBackground = await background();
  await expect(html).toHaveCSS("color-scheme", "dark");
  await page.emulateMedia({ colorScheme: "light" });
  await expect.poll(background).toBe(lightBackground);

  // Chosen with the keyboard: Dark wins over a light system, at once and after a reload.
  await theme.getByRole("radio", { name: "System" }).focus();
  await page.keyboard.press("ArrowRight"); // Light
  await page.keyboard.press("ArrowRight"); // Dark
  await expect(theme.getByRole("radio", { name: "Dark" })).toBeChecked();
  await expect(html).toHaveAttribute("data-theme", "dark");
  await expect.poll(background).toBe(darkBackground);
  await page.reload();
  await settled(page, "Forecast");
  await expect(page.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "Dark" })).toBeChecked();
  // Already in the first HTML (no flash of the light theme before the scripts run).
  const first = await (await page.request.get("/forecast")).text();
  expect(first).toMatch(/<html[^>]* data-theme="dark"/);
  expect(await background()).toBe(darkBackground);

  // Light wins over a dark system; System gives the choice back.
  await page.emulateMedia({ colorScheme: "dark" });
  await theme.getByRole("radio", { name: "Light" }).check();
  await expect.poll(background).toBe(lightBackground);
  await theme.getByRole("radio", { name: "System" }).check();
  await expect(html).not.toHaveAttribute("data-theme", /./);
  await expect.poll(background).toBe(darkBackground);
  await page.reload();
  await settled(page, "Forecast");
  await expect(page.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "System" })).toBeChecked();
  expect(await background()).toBe(darkBackground);
});

// Every page on a phone (390 × 844): nothing widens the page so that it scrolls sideways, the main
// dialogs of a shoot fit the screen, and the navigation is a menu that opens, leads somewhere and
// closes on Escape. On a 1440 px screen the fleet table shows all its columns.
//
// Shoots used: garden-analytics/ml-train-eu, read only (its dialogs are opened and closed
// without confirming anything). No other journey changes it: this file runs beside them, and a
// shoot being reconciled would offer its operations disabled.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { screenshot } from "./support/screenshot";

const SHOOT = { namespace: "garden-analytics", name: "ml-train-eu" };
const PHONE = { width: 390, height: 844 };

/** The page's width beyond the screen, with the widest element beyond it named, to find it. */
async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const beyond = root.scrollWidth - root.clientWidth;
    if (beyond <= 0) return { beyond, widest: "" };
    const widest = Array.from(document.querySelectorAll("body *"))
      .map((el) => ({ el, right: el.getBoundingClientRect().right }))
      .filter(
        ({ el, right }) =>
          right > root.clientWidth && el.parentElement!.getBoundingClientRect().right <= root.clientWidth,
      )
      .map(
        ({ el, right }) =>
          `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}"> ends at ${Math.round(right)} px`,
      );
    return { beyond, widest: widest.slice(0, 3).join("; ") };
  });
}

async function expectNoSidewaysScroll(page: Page, what: string) {
  const { beyond, widest } = await sidewaysOverflow(page);
  expect(beyond, `${what} scrolls ${beyond} px sideways: ${widest}`).toBeLessThanOrEqual(0);
}

/** A box lies within the screen's width. */
async function expectWithinScreen(locator: Locator, width: number) {
  const box = (await locator.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
}

// Each page with what shows that its content (the widest part) has loaded.
const PAGES: { name: string; path: string; ready: (page: Page) => Locator }[] = [
  { name: "fleet", path: "/shoots", ready: (page) => page.locator("[data-shoot]").first() },
  {
    name: "shoot",
    path: `/shoots/${SHOOT.namespace}/${SHOOT.name}`,
    ready: (page) => page.getByRole("region", { name: "Version timeline" }).locator(".recharts-wrapper"),
  },
  { name: "forecast", path: "/forecast", ready: (page) => page.getByRole("table").first() },
  {
    name: "forecast-by-week",
    path: "/forecast?days=90&by=week",
    ready: (page) => page.getByRole("region", { name: "Forced updates per week" }).locator(".recharts-wrapper"),
  },
  {
    name: "cloudprofiles",
    path: "/cloudprofiles",
    ready: (page) => page.getByRole("link", { name: "azure", exact: true }),
  },
  {
    name: "cloudprofile",
    path: "/cloudprofiles/azure",
    ready: (page) => page.getByRole("region", { name: "Kubernetes versions over time" }).locator(".recharts-wrapper"),
  },
  { name: "audit", path: "/audit", ready: (page) => page.getByRole("table", { name: /Audit events/ }) },
  {
    name: "migrations",
    path: "/migrations",
    ready: (page) => page.getByRole("heading", { level: 1, name: "Migrations" }),
  },
  {
    name: "accounts",
    path: "/accounts",
    ready: (page) => page.getByRole("table", { name: /Accounts/ }).or(page.getByText("No accounts yet")),
  },
  {
    name: "freezes",
    path: "/freezes",
    ready: (page) => page.getByTestId("now-line"),
  },
  {
    name: "tokens",
    path: "/tokens",
    ready: (page) => page.getByRole("table", { name: /API tokens/ }).or(page.getByText(/No API tokens/)),
  },
  {
    name: "password",
    path: "/password",
    ready: (page) => page.getByRole("button", { name: "Change password" }),
  },
  {
    name: "jobs",
    path: "/jobs",
    ready: (page) => page.getByText("No failed jobs"),
  },
  {
    name: "api-reference",
    path: "/api-reference",
    ready: (page) => page.getByRole("heading", { name: "Schemas", exact: true }),
  },
];

test.describe("on a phone", () => {
  test.use({ viewport: PHONE });

  for (const p of PAGES) {
    test(`${p.name} does not scroll sideways, and its phone layout passes axe`, async ({ page }, testInfo) => {
      await page.goto(p.path);
      await expect(p.ready(page)).toBeVisible();
      await expectNoSidewaysScroll(page, p.path);
      // The cards and menu of the phone layout are other markup than the wide one's.
      await expectNoSeriousA11yViolations(page, `${p.path} at 390 px`);
      await screenshot(page, testInfo, `phone-${p.name}`);
    });
  }

  test("a shoot's dialogs fit the screen", async ({ page }, testInfo) => {
    await page.goto(`/shoots/${SHOOT.namespace}/${SHOOT.name}`);
    await expect(page.getByRole("heading", { level: 1, name: SHOOT.name })).toBeVisible();
    for (const button of [
      "Maintain now",
      "Update images",
      "Update version",
      "Reconcile",
      "Hibernate",
      "Delete…",
      "YAML",
      "Migrate control plane…",
    ]) {
      await page.getByRole("button", { name: button, exact: true }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toBeVisible();
      await expectWithinScreen(dialog, PHONE.width);
      const box = (await dialog.boundingBox())!;
      expect(box.y + box.height, `the ${button} dialog ends within the screen`).toBeLessThanOrEqual(PHONE.height);
      await expectNoSidewaysScroll(page, `the ${button} dialog`);
      // Nor does anything inside it, but a box made to scroll (focusable, as the YAML).
      const scrolling = await dialog.evaluate((d) =>
        Array.from(d.querySelectorAll("*"))
          .filter(
            (el) =>
              el.scrollWidth > el.clientWidth + 1 &&
              ["auto", "scroll"].includes(getComputedStyle(el).overflowX) &&
              !el.hasAttribute("tabindex"),
          )
          .map((el) => `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}">`),
      );
      expect(scrolling, `inside the ${button} dialog`).toEqual([]);
      await screenshot(page, testInfo, `phone-dialog-${button.replace(/\W+/g, "-")}`);
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
    }
  });

  test("the navigation is a menu: it opens, leads to a page and closes on Escape", async ({ page }) => {
    await page.goto("/shoots");
    const nav = page.getByRole("navigation", { name: "Main" });
    const menu = nav.getByRole("button", { name: "Menu" });
    // The links wait in the closed menu.
    await expect(nav.getByRole("link", { name: "Forecast" })).toBeHidden();
    await expect(menu).toHaveAttribute("aria-expanded", "false");

    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(nav.getByRole("link", { name: "Fleet" })).toHaveAttribute("aria-current", "page");
    await nav.getByRole("link", { name: "Forecast" }).click();
    await expect(page).toHaveURL(/\/forecast/);
    await expect(page.getByRole("heading", { level: 1, name: "Forecast" })).toBeVisible();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link", { name: "Forecast" })).toBeHidden();

    // From the keyboard: the links follow the button; Escape closes and gives focus back to it.
    await menu.focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: "Fleet" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();
    await expect(nav.getByRole("link", { name: "Fleet" })).toBeHidden();

    // Tabbing on past its last link (the API reference) closes it too.
    await menu.click();
    await nav.getByRole("link", { name: "API reference" }).focus();
    await page.keyboard.press("Tab");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
  });

  test("the fleet's rows are cards with the name, status, version, expiry and next window", async ({ page }) => {
    await page.goto("/shoots");
    const card = page.locator("[data-shoot]").first();
    await expect(card).toBeVisible();
    await expectWithinScreen(card, PHONE.width);
    await expect(card.getByRole("link")).toBeVisible();
    await expect(card).toContainText("Kubernetes");
    await expect(card).toContainText("Earliest expiry");
    await expect(card).toContainText("Next maintenance");
    // Sorting without column headers.
    await page.getByLabel("Sort by").selectOption("name");
    await expect(page).toHaveURL(/sort=name/);
  });
});

test.describe("on the signed-out pages", () => {
  test.use({ viewport: PHONE, extraHTTPHeaders: {} });

  for (const path of ["/sign-in", "/setup?token=not-a-real-setup-token"]) {
    test(`${path} does not scroll sideways`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("button").first()).toBeVisible();
      await expectNoSidewaysScroll(page, path);
    });
  }
});

test("at 1440 px the fleet table shows every column, the seed last", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/shoots");
  const table = page.getByRole("table", { name: "Shoots" });
  await expect(table.locator("[data-shoot]").first()).toBeVisible();
  const visible = (await table.boundingBox())!;
  for (const last of [
    table.getByRole("columnheader", { name: "Seed" }),
    table.locator("[data-shoot]").first().getByRole("cell").last(),
  ]) {
    const box = (await last.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(visible.x + visible.width);
  }
  // Nothing to scroll sideways inside the table either.
  expect(await table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  // And the navigation shows its links, without a menu.
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Cloud profiles" })).toBeVisible();
  await expect(nav.getByRole("button", { name: "Menu" })).toBeHidden();
});

test("at 1280 px an admin's navigation keeps every link and the garden on one line", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/shoots");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Jobs" })).toBeVisible();
  await expect(nav.getByText("Simulated garden")).toBeVisible();
  for (const link of await nav.getByRole("listitem").getByRole("link").all()) {
    // One line of text: a wrapped label would be twice as high.
    expect((await link.boundingBox())!.height, await link.innerText()).toBeLessThan(40);
  }
  await expectNoSidewaysScroll(page, "/shoots at 1280 px");
});

import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";

/** The "source" handed to the builder for a page that has axe already: a statement that does nothing. */
const ALREADY_IN_THE_PAGE = "void 0;";

/** The impacts a page may not have (axe also reports "minor" and "moderate" ones). */
const BLOCKING = new Set(["serious", "critical"]);

/**
 * Runs axe-core on the page (or only inside `within`, e.g. an open dialog: the page behind a
 * modal dialog is inert) against the WCAG 2.x A and AA rules, and fails listing every serious or
 * critical violation: the rule, the elements it found, and what is wrong with each. The failure is
 * soft: the journey goes on, so that one run lists the violations of every page it visits.
 */
export async function expectNoSeriousA11yViolations(page: Page, label: string, within?: Locator) {
  // axe runs in the page itself (legacy mode: axe.run, as the pages have no frames), and is put
  // into a page once, not before every analysis: by default the builder injects axe's half a
  // megabyte of source each time and again into a blank page it opens to merge the results, a
  // fifth of the accessibility journeys' time in a traced run (the analyses themselves took two
  // fifths). The rules and what they find are the same.
  const injected = await page.evaluate(() => "axe" in window);
  let builder = new AxeBuilder({ page, ...(injected ? { axeSource: ALREADY_IN_THE_PAGE } : {}) })
    .setLegacyMode()
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]);
  // The scope is marked for the one analysis: a dialog closed earlier stays in the DOM.
  if (within) {
    await within.evaluate((element) => element.setAttribute("data-axe-scope", ""));
    builder = builder.include("[data-axe-scope]");
  }
  const results = await builder.analyze();
  if (within) await within.evaluate((element) => element.removeAttribute("data-axe-scope"));
  const found = results.violations
    .filter((v) => BLOCKING.has(v.impact ?? ""))
    .flatMap((v) =>
      v.nodes.map(
        (node) =>
          `${v.id} (${v.impact}) at ${node.target.join(" ")}: ${node.failureSummary?.replace(/\s+/g, " ") ?? v.help}`,
      ),
    );
  expect.soft(found, `serious or critical accessibility violations on ${label}`).toEqual([]);
}

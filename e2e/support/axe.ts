import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";

/** The impacts a page may not have (axe also reports "minor" and "moderate" ones). */
const BLOCKING = new Set(["serious", "critical"]);

/**
 * Runs axe-core on the page (or only inside `within`, e.g. an open dialog: the page behind a
 * modal dialog is inert) against the WCAG 2.x A and AA rules, and fails listing every serious or
 * critical violation: the rule, the elements it found, and what is wrong with each. The failure is
 * soft: the journey goes on, so that one run lists the violations of every page it visits.
 */
export async function expectNoSeriousA11yViolations(page: Page, label: string, within?: Locator) {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]);
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

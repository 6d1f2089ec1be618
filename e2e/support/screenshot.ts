import path from "node:path";
import type { Locator, Page, TestInfo } from "@playwright/test";

/**
 * Whether the journeys save their pictures: only when a person asks (`E2E_SCREENSHOTS=1 npm run
 * test:e2e`). Nothing compares them, so taking 46 full-page pictures on every run only cost time;
 * a failing journey still leaves its own screenshot and trace (playwright.config.ts).
 */
export const screenshotsAsked = process.env.E2E_SCREENSHOTS === "1";

/**
 * Saves a picture of the page (full length, from the top, so the sticky navigation sits where it
 * belongs) or of one element under test-results/screenshots/<name>.png, to look at: only when
 * asked (above).
 */
export async function screenshot(target: Page | Locator, testInfo: TestInfo, name: string): Promise<void> {
  if (!screenshotsAsked) return;
  const file = path.join(testInfo.project.outputDir, "screenshots", name.endsWith(".png") ? name : `${name}.png`);
  if ("goto" in target) {
    await target.evaluate(() => window.scrollTo(0, 0));
    await target.screenshot({ path: file, fullPage: true });
  } else {
    // The sticky navigation would be drawn over an element taller than the screen, which the
    // screenshot scrolls through; in its own place in the flow it takes the same room. (Set on the
    // element: the pages' Content-Security-Policy refuses a <style> the screenshot would add.)
    const unstick = (position: string) =>
      target
        .page()
        .evaluate(
          (p) => document.querySelector<HTMLElement>("header.sticky")?.style.setProperty("position", p),
          position,
        );
    await unstick("static");
    await target.screenshot({ path: file });
    await unstick("");
  }
}

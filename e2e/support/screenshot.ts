import path from "node:path";
import type { Page, TestInfo } from "@playwright/test";

/** Saves a full-page screenshot under test-results/screenshots/<name>.png, to look at. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: path.join(testInfo.project.outputDir, "screenshots", `${name}.png`), fullPage: true });
}

import path from "node:path";
import { expect, test } from "@playwright/test";

test("the start page introduces Almanac", async ({ page }, testInfo) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Almanac" })).toBeVisible();
  await page.screenshot({
    path: path.join(testInfo.project.outputDir, "screenshots", "start-page.png"),
    fullPage: true,
  });
});

// The failed-jobs page: admins reach it from the navigation; on the e2e landscape (no random
// faults) no job has failed, and the page says so rather than showing an empty table.
// tests/api/failed-jobs.test.ts covers a failed job's listing and retry through the API.
import { expect, test } from "@playwright/test";

test.use({ viewport: { width: 1440, height: 900 } });

test("the navigation leads an admin to the failed jobs, which says none failed", async ({ page }) => {
  await page.goto("/shoots");
  await page.getByRole("navigation").getByRole("link", { name: "Jobs", exact: true }).click();
  await expect(page).toHaveURL(/\/jobs$/);
  await expect(page.getByRole("heading", { name: "Failed jobs" })).toBeVisible();
  await expect(page.getByText("No failed jobs")).toBeVisible();
  await expect(page.getByText("Every background job has run or is still being retried.")).toBeVisible();
});

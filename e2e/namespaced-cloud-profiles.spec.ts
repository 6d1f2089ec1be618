// NamespacedCloudProfiles on the pages: the demo's project analytics extends aws's expiration
// dates. The profile list and the profile's page list it under its parent; its own page sets each
// version it names against the parent. Screenshots at 1440 px, 390 px and in the dark theme.
// Only reads.
import { expect, test } from "@playwright/test";
import { screenshot } from "./support/screenshot";

test("a project's namespaced cloud profile is listed under its parent and shows what it changes", async ({
  page,
  request,
}, testInfo) => {
  const items = (await (await request.get("/api/v1/namespacedcloudprofiles?parent=aws")).json()).items as {
    metadata: { name: string; namespace: string };
    spec: { kubernetes: { versions: { version: string }[] } };
  }[];
  expect(items.map((p) => `${p.metadata.namespace}/${p.metadata.name}`)).toEqual(["garden-analytics/aws-extended"]);
  const [profile] = items;

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/cloudprofiles");
  const table = page.getByRole("table", { name: "Cloud profiles" });
  const link = table.getByRole("link", { name: "garden-analytics/aws-extended" });
  await expect(link).toBeVisible();
  await screenshot(page, testInfo, "ncp-cloudprofiles.png");

  await page.goto("/cloudprofiles/aws");
  const panel = page.getByRole("region", { name: "Namespaced cloud profiles extending it" });
  await expect(panel.getByRole("link", { name: "aws-extended" })).toBeVisible();
  await panel.scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, "ncp-parent-page.png");

  await page.goto("/namespacedcloudprofiles/garden-analytics/aws-extended");
  await expect(page.getByRole("heading", { level: 1, name: "aws-extended" })).toBeVisible();
  const overrides = page.getByRole("table", { name: "Versions the namespaced profile names, against its parent" });
  await expect(overrides.getByRole("row")).toHaveCount(profile.spec.kubernetes.versions.length + 1);
  await expect(overrides.getByText("120 days later").first()).toBeVisible();
  await screenshot(page, testInfo, "ncp-page.png");

  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, testInfo, "ncp-page-390.png");
  // No sideways scrolling of the page on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, testInfo, "ncp-page-dark.png");
});

test("a shoot of the namespaced profile is listed under its parent and its page reads the namespaced profile", async ({
  page,
  request,
}, testInfo) => {
  const rows = (await (await request.get("/api/v1/shoots?namespace=garden-analytics&limit=500")).json()).items as {
    name: string;
    namespacedCloudProfile?: string;
  }[];
  const shoot = rows.find((r) => r.namespacedCloudProfile === "aws-extended");
  expect(shoot).toBeDefined();

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/shoots?namespace=garden-analytics&q=aws-extended`);
  await expect(page.getByText("aws › aws-extended").first()).toBeVisible();
  await screenshot(page, testInfo, "ncp-fleet.png");

  await page.goto(`/shoots/garden-analytics/${shoot!.name}`);
  const versions = page.getByTestId("shoot-versions");
  await expect(versions).toContainText("on cloud profile aws-extended (the project's namespaced profile)");
  await expect(versions.getByRole("link", { name: "aws-extended" })).toHaveAttribute(
    "href",
    "/namespacedcloudprofiles/garden-analytics/aws-extended",
  );
  await expect(page.getByRole("region", { name: "Version timeline" })).toBeVisible();
  await expect(page.getByText(/could not be loaded/)).toHaveCount(0);
  await screenshot(page, testInfo, "ncp-shoot.png");
});

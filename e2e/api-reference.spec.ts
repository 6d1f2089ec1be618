// The API reference: reached from the navigation, it lists every operation of the OpenAPI
// document by tag; one opens onto who may call it, its parameters, body and answers, and a named
// schema links to its fields. The document itself downloads from the page.
import { expect, test } from "@playwright/test";
import { screenshot } from "./support/screenshot";

test.use({ viewport: { width: 1440, height: 900 } });

const PATCH_SHOOT = "/api/v1/namespaces/{namespace}/shoots/{name}";

test("the navigation leads to the API reference, which shows each operation from the document", async ({
  page,
  request,
}, testInfo) => {
  await page.goto("/shoots");
  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/api-reference$/);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();

  // Every operation of the document is on the page, under its tag.
  const document = await (await request.get("/api/v1/openapi.json")).json();
  expect(document.openapi).toMatch(/^3\.1\./);
  const operations = Object.values(document.paths as Record<string, object>).flatMap((item) => Object.keys(item));
  await expect(page.locator("details[id]")).toHaveCount(operations.length);
  const sections = page.getByRole("navigation", { name: "API sections" });
  for (const tag of ["Shoots", "Forecast", "Audit", "Access", "Schemas"]) {
    await expect(sections.getByRole("link", { name: new RegExp(`^${tag} \\(\\d+\\)$`) })).toBeVisible();
  }

  // The shoot's PATCH opens onto its role, parameters, body fields and answers.
  const patch = page.locator("#patchShoot");
  await expect(patch.getByText("Change a shoot's maintenance, versions, hibernation or annotations")).toBeVisible();
  await patch.locator("summary").click();
  await expect(patch.getByText("operator on the project").first()).toBeVisible();
  const parameters = patch.getByRole("list", { name: `Parameters of PATCH ${PATCH_SHOOT}` });
  await expect(parameters.getByText("If-Match", { exact: true })).toBeVisible();
  const body = patch.getByRole("list", { name: `Body of PATCH ${PATCH_SHOOT}` });
  await expect(body.getByText("spec.maintenance.timeWindow.begin", { exact: true })).toBeVisible();
  const answers = patch.getByRole("list", { name: `Answers of PATCH ${PATCH_SHOOT}` });
  await expect(answers.getByText("409", { exact: true })).toBeVisible();
  await expect(answers.getByText("application/problem+json").first()).toBeVisible();
  await screenshot(page, testInfo, "api-reference-open-operation");

  // The answer's schema is a link to its fields.
  await answers.getByRole("link", { name: "Shoot", exact: true }).first().click();
  await expect(page).toHaveURL(/#schema-Shoot$/);
  const shoot = page.getByRole("region", { name: "Shoot", exact: true });
  await expect(
    shoot.getByRole("list", { name: "Fields of Shoot" }).getByText("spec.kubernetes.version", { exact: true }),
  ).toBeVisible();

  // The document downloads from the page.
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "openapi.json" }).click();
  expect((await download).suggestedFilename()).toBe("almanac-openapi.json");
});

// An admin (the journeys' admin token) manages people and automation: makes an operator account,
// changes its roles, deletes it, creates an API token and sees its value once, uses it, revokes it, and the
// token is refused at once afterwards. A viewer who opens the pages is told they need the admin role.
import { expect, test } from "@playwright/test";
import { screenshot } from "./support/screenshot";

const PERSON = { name: "Otto Operator", email: "otto@example.com", password: "operator password 42" };

test("an admin creates an operator account and changes its roles", async ({ page }, testInfo) => {
  await page.goto("/accounts");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Accounts" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Tokens" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Accounts", level: 1 })).toBeVisible();

  // The page header's button; while no account exists, the empty list offers a second one.
  await page.getByRole("button", { name: "New account" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New account" });
  await dialog.getByLabel("Name").fill(PERSON.name);
  await dialog.getByLabel("Email").fill(PERSON.email);
  await dialog.getByLabel("Password", { exact: true }).fill("short");
  await dialog.getByLabel("Password again").fill("short");
  await dialog.getByLabel("Role").selectOption("operator");
  await dialog.getByRole("button", { name: "Create account" }).click();
  // The server's problem, beside its field.
  await expect(dialog.getByLabel("Password", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByRole("alert").filter({ hasText: "at least 12 characters" })).toBeVisible();
  await screenshot(page, testInfo, "accounts-create-problem");
  await dialog.getByLabel("Password", { exact: true }).fill(PERSON.password);
  await dialog.getByLabel("Password again").fill(PERSON.password);
  await dialog.getByRole("button", { name: "Create account" }).click();
  await expect(dialog).toBeHidden();

  const row = page.locator(`tr[data-account="${PERSON.email}"]`);
  await expect(row).toContainText(PERSON.name);
  await expect(row).toContainText("operator· whole landscape");
  await screenshot(page, testInfo, "accounts");

  // Roles: add a viewer... on the project, keyboard only.
  await row.getByRole("button", { name: `Change roles of ${PERSON.name}` }).click();
  const roles = page.getByRole("dialog", { name: `Roles of ${PERSON.name}` });
  await roles.getByRole("button", { name: "Add a role" }).click();
  await expect(roles.getByLabel("On", { exact: true }).nth(1)).not.toHaveValue("*");
  await roles.getByLabel("Role", { exact: true }).nth(1).selectOption("admin");
  await screenshot(page, testInfo, "accounts-roles");
  await roles.getByRole("button", { name: "Save roles" }).click();
  await expect(roles).toBeHidden();
  await expect(row.getByRole("listitem")).toHaveCount(2);
  await expect(row).toContainText("admin· project");

  // Deleted again, after confirming (also so that no account is left: the sign-in journey's setup
  // link works only while there is none).
  await row.getByRole("button", { name: `Delete the account of ${PERSON.name}` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete this account?" });
  await expect(confirm).toContainText("signed out at once");
  await screenshot(page, testInfo, "accounts-delete");
  await confirm.getByRole("button", { name: "Delete account" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(page.getByText("No accounts yet")).toBeVisible();

  // The audit log has every change.
  await page.goto("/audit?kind=Account");
  const audit = page.getByRole("table");
  for (const word of ["Account created", "Roles changed", "Account deleted"])
    await expect(audit.getByText(word).first()).toBeVisible();
  await expect(page.getByText(PERSON.password)).toHaveCount(0);
});

test("an admin creates an API token, sees it once, uses it and revokes it", async ({ page, request }, testInfo) => {
  await page.goto("/tokens");
  await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();
  await screenshot(page, testInfo, "tokens-empty");

  await page.getByRole("button", { name: "New token" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New API token" });
  await dialog.getByLabel("Name").fill("Nightly Report");
  await dialog.getByRole("button", { name: "Create token" }).click();
  await expect(dialog.getByText("1 to 63 characters")).toBeVisible();
  await dialog.getByLabel("Name").fill("nightly-report");
  await dialog.getByLabel("Role").selectOption("viewer");
  await dialog.getByLabel("Expires after").selectOption("30");
  await dialog.getByRole("button", { name: "Create token" }).click();

  const shown = page.getByRole("dialog", { name: "Token nightly-report created" });
  await expect(shown.getByText("Copy the token now: it will not be shown again.")).toBeVisible();
  const value = await shown.getByLabel("Token value").inputValue();
  expect(value).toMatch(/^almanac_/);
  await screenshot(page, testInfo, "tokens-created");
  await shown.getByRole("button", { name: "I have copied it" }).click();
  await expect(shown).toBeHidden();
  // Gone from the page for good.
  await expect(page.getByText(value)).toHaveCount(0);

  const own = { authorization: `Bearer ${value}` };
  expect((await request.get("/api/v1/shoots?limit=1", { headers: own })).status()).toBe(200);
  expect((await request.get("/api/v1/tokens", { headers: own })).status()).toBe(403);

  const row = page.locator('tr[data-token="nightly-report"]');
  await expect(row).toHaveAttribute("data-state", "active");
  await screenshot(page, testInfo, "tokens");
  await row.getByRole("button", { name: "Revoke the token nightly-report" }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke this token?" });
  await screenshot(page, testInfo, "tokens-revoke");
  await confirm.getByRole("button", { name: "Revoke token" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveAttribute("data-state", "revoked");

  expect((await request.get("/api/v1/shoots?limit=1", { headers: own })).status()).toBe(401);

  await page.goto("/audit?kind=ApiToken");
  await expect(page.getByRole("table").getByText("API token revoked")).toBeVisible();
  await expect(page.getByRole("table").getByText("API token created")).toBeVisible();
  await expect(page.getByText(value)).toHaveCount(0);
});

test("a viewer who opens the pages is told they need the admin role", async ({ page, request }, testInfo) => {
  const made = await request.post("/api/v1/tokens", {
    data: { name: "e2e-viewer", role: "viewer", scope: "*", expiresInDays: 1 },
  });
  expect(made.status()).toBe(201);
  const { value } = await made.json();
  await page.setExtraHTTPHeaders({ authorization: `Bearer ${value}` });

  await page.goto("/accounts");
  await expect(page.getByText("You need the admin role on the whole landscape to manage accounts.")).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Accounts" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "New account" })).toHaveCount(0);
  await screenshot(page, testInfo, "accounts-needs-admin");
  await page.goto("/tokens");
  await expect(page.getByText("You need the admin role on the whole landscape to manage API tokens.")).toBeVisible();
});

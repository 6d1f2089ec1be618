// Signing in, as a new landscape's first person would: the first admin from the link `npm start`
// printed (and left in the data folder), signing out, being sent to sign-in and back, a wrong
// password, and a used link refused; then a person the company's trusted proxy signs in (its user
// header, believed from this machine's address). These journeys send no admin token. They run in
// this order: the proxy's person gets an account, and the setup link works only while none exists.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { screenshot } from "./support/screenshot";

test.use({ extraHTTPHeaders: {} });

// The password changes in the second journey; later ones sign in with the new one.
const ADMIN = { name: "Ada Operator", email: "ada@example.com", password: "correct horse battery staple" };

/** The setup link's path and query, from the file start.mjs writes beside the database. */
async function setupPath(): Promise<string> {
  const file = path.join(process.env.E2E_DATA_DIR ?? "", "first-admin-link");
  await expect.poll(() => existsSync(file), { message: `waiting for ${file}` }).toBe(true);
  const link = new URL(readFileSync(file, "utf8").trim());
  return `${link.pathname}${link.search}`;
}

test("the first admin comes from the printed link, signs out, and signs in again", async ({ page }, testInfo) => {
  const link = await setupPath();

  // Anonymous: every page leads to sign-in, which brings you back afterwards.
  await page.goto("/forecast?days=90");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fforecast%3Fdays%3D90$/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();

  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Create the first admin" })).toBeVisible();
  await page.getByLabel("Your name").fill(ADMIN.name);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel(/^Password \(at least/).fill(ADMIN.password);
  await page.getByLabel("Password again").fill("not the same password");
  await page.getByRole("button", { name: "Create the first admin" }).click();
  await expect(page.getByText("The two passwords differ.")).toBeVisible();
  await page.getByLabel("Password again").fill(ADMIN.password);
  await screenshot(page, testInfo, "setup");
  await page.getByRole("button", { name: "Create the first admin" }).click();

  // Signed in as the admin, on the fleet; the navigation says who and what role.
  await expect(page).toHaveURL(/\/shoots$/);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toContainText(ADMIN.name);
  await expect(nav).toContainText("admin");
  await expect(page.getByRole("row").nth(1)).toBeVisible();
  await screenshot(page, testInfo, "signed-in-fleet");

  await nav.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/audit");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Faudit$/);

  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill("not the password at all");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText(
    "The email address or the password is not right.",
  );
  await screenshot(page, testInfo, "sign-in-refused");
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/audit$/);
  // The audit log names the person, and records the sign-ins (the failed one too).
  await expect(page.getByRole("table").getByText("Sign-in failed").first()).toBeVisible();

  // The link worked once.
  await page.context().clearCookies();
  await page.goto(link);
  await page.getByLabel("Your name").fill("Mallory");
  await page.getByLabel("Email").fill("mallory@example.com");
  await page.getByLabel(/^Password \(at least/).fill(ADMIN.password);
  await page.getByLabel("Password again").fill(ADMIN.password);
  await page.getByRole("button", { name: "Create the first admin" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("This setup link is not valid");
});

test("the admin changes their own password, which signs their other session out", async ({ browser }, testInfo) => {
  const signIn = async (password: string) => {
    const page = await (await browser.newContext({ extraHTTPHeaders: {} })).newPage();
    await page.goto("/sign-in?next=/password");
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Your password" })).toBeVisible();
    return page;
  };
  const here = await signIn(ADMIN.password);
  const elsewhere = await signIn(ADMIN.password);
  const newPassword = "tea kettle on the moon";

  await here.getByLabel("Current password").fill(ADMIN.password);
  await here.getByLabel("New password", { exact: true }).fill("password1234");
  await here.getByLabel("New password again").fill("password1234");
  await here.getByRole("button", { name: "Change password" }).click();
  await expect(here.getByText(/most common passwords/)).toBeVisible();
  await here.getByLabel("New password", { exact: true }).fill(newPassword);
  await here.getByLabel("New password again").fill(newPassword);
  await here.getByRole("button", { name: "Change password" }).click();
  await expect(here.getByText("Your password is changed")).toBeVisible();
  await screenshot(here, testInfo, "password-changed");

  // This session goes on; the other one is signed out.
  await here.goto("/audit");
  await expect(here.getByRole("heading", { name: "Audit log" })).toBeVisible();
  await elsewhere.goto("/audit");
  await expect(elsewhere).toHaveURL(/\/sign-in\?next=%2Faudit$/);
  ADMIN.password = newPassword;
});

test("a person the trusted proxy signs in sees who they are, and that the proxy signs them out", async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({
    extraHTTPHeaders: { "x-remote-user": "pat@example.com", "x-remote-group": "e2e-viewers" },
  });
  const page = await context.newPage();
  await page.goto("/audit");
  await expect(page).toHaveURL(/\/audit$/);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toContainText("pat@example.com");
  await expect(nav).toContainText("viewer");
  await expect(nav.getByText("Signed in by proxy")).toHaveAttribute("title", /sign out there/);
  await expect(nav.getByRole("button", { name: "Sign out" })).toHaveCount(0);
  // The pages' API calls carry the header too: the audit log lists the account made on first sight.
  await expect(page.getByRole("table").getByText("pat@example.com").first()).toBeVisible();
  await screenshot(page, testInfo, "signed-in-by-proxy");
  await context.close();
});

// Notifications: from the navigation to /notifications, a webhook made with the keyboard to a real
// HTTP receiver on loopback (the e2e server allows private targets: ALMANAC_WEBHOOK_ALLOW_PRIVATE,
// playwright.config.ts), its form first naming the fields the server refused, its generated secret
// shown once and never again (not on its page, not in the API's answer), a test sent and seen
// delivered (the receiver got a body signed with that secret, and the page shows the receiver's
// answer), the pages on a phone and in the dark theme without serious accessibility violations,
// and the subscription deleted after confirming. Then an e-mail subscription: its addresses checked
// beside the field, a daily digest, the warning that no SMTP server is set, deleted. Changes no shoot.
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import type { NotificationSubscriptionJson, WebhookBody } from "../lib/api/notifications";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { screenshot } from "./support/screenshot";

const NAME = "E2E receiver";
const ANSWER = "received by the e2e receiver";

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly raw: Buffer;
}

let receiver: Server;
let url: string;
const received: Received[] = [];

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(200, { "content-type": "text/plain" }).end(ANSWER);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/almanac-hook`;
});

test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

test.use({ viewport: { width: 1440, height: 900 } });
// Three pages, a form, a delivery through the worker, two themes and a phone, on a shared machine.
test.setTimeout(180_000);

test("a webhook is made, its secret shown once, a test delivered signed to a real receiver, and it is deleted", async ({
  page,
  request,
}, testInfo) => {
  await page.goto("/shoots");
  await page.getByRole("navigation").getByRole("link", { name: "Notifications", exact: true }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
  await expectNoSeriousA11yViolations(page, "the notifications page");

  await page.getByRole("link", { name: "New subscription" }).first().click();
  await expect(page).toHaveURL(/\/notifications\/new$/);
  const form = page.getByRole("form", { name: "New subscription" });
  await expect(form.getByLabel("URL")).toBeFocused();

  // The server's refusals show beside their fields: no URL, no secret, no kind.
  for (const kind of ["Forced update ahead", "Cluster will be stuck", "Maintenance failed"]) {
    await form.getByRole("checkbox", { name: new RegExp(kind) }).uncheck();
  }
  await form.getByRole("button", { name: "Create subscription" }).click();
  await expect(form.getByText("Some fields need another look.")).toBeVisible();
  await expect(form.getByLabel("URL")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByRole("textbox", { name: "Secret" })).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByTestId("kinds").getByRole("alert")).toBeVisible();
  await expect(form.getByLabel("Days before")).toBeDisabled();
  await screenshot(page, testInfo, "notifications-form-errors");

  // Filled with the keyboard: the URL, a generated secret, a name, two kinds (one with days).
  await form.getByLabel("URL").fill(url);
  await form.getByRole("button", { name: "Generate" }).focus();
  await page.keyboard.press("Enter");
  const secret = await form.getByRole("textbox", { name: "Secret" }).inputValue();
  expect(secret).toMatch(/^[0-9a-f]{64}$/);
  await form.getByLabel("Name (optional)").fill(NAME);
  await form.getByRole("checkbox", { name: /Migration failed/ }).focus();
  await page.keyboard.press("Space");
  await form.getByRole("checkbox", { name: /Version expiring/ }).check();
  await expect(form.getByLabel("Days before")).toBeEnabled();
  await expect(form.getByLabel("Days before")).toHaveValue("7, 1");
  await form.getByLabel("Days before").fill("14, 3");
  await expectNoSeriousA11yViolations(page, "the new subscription form");
  await screenshot(page, testInfo, "notifications-new-1440");
  await form.getByLabel("Days before").press("Enter");

  // Made: the secret this once, to copy.
  const created = page.getByTestId("subscription-created");
  await expect(created).toBeVisible();
  await expect(created).toContainText("it will not be shown again");
  await expect(created.getByLabel("Secret")).toHaveValue(secret);
  await screenshot(page, testInfo, "notifications-created");
  await created.getByRole("link", { name: /open the subscription/ }).click();
  await expect(page).toHaveURL(/\/notifications\/webhooks\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1)!;

  // Never again: not on its page, not in the API's answers.
  await expect(page.getByRole("heading", { level: 1, name: NAME })).toBeVisible();
  await expect(page.getByTestId("secret-state")).toContainText("never shown again");
  expect(await page.content()).not.toContain(secret);
  const one = await request.get(`/api/v1/webhooks/${id}`);
  expect(one.status()).toBe(200);
  const text = await one.text();
  expect(text).not.toContain(secret);
  const sub = JSON.parse(text) as NotificationSubscriptionJson;
  expect(sub).toMatchObject({
    channel: "webhook",
    // Masked: a webhook URL may carry a token (Slack, Teams, Discord); its last four characters show.
    url: `${new URL(url).origin}/…/hook`,
    hasSecret: true,
    name: NAME,
    project: null,
    shoot: null,
    enabled: true,
  });
  expect([...sub.events].sort()).toEqual(["migration-failed", "version-expiring"]);
  expect([...sub.days].sort((a, b) => b - a)).toEqual([14, 3]);
  expect(sub).not.toHaveProperty("secret");
  expect(await (await request.get("/api/v1/webhooks")).text()).not.toContain(secret);

  // A test, delivered: the page shows the receiver's answer; the receiver got it signed.
  await page.getByRole("button", { name: "Send a test" }).click();
  const outcome = page.getByTestId("test-outcome");
  await expect(outcome).toHaveAttribute("data-state", "Delivered", { timeout: 60_000 });
  await expect(outcome).toContainText("HTTP 200");
  const delivery = page.locator("[data-delivery][data-type='test']").first();
  await expect(delivery).toHaveAttribute("data-state", "Delivered");
  await expect(delivery.locator("[data-attempt='1']")).toContainText("HTTP 200");
  await expect(delivery.locator("[data-attempt='1']")).toContainText(ANSWER);
  const deliveryId = await delivery.getAttribute("data-delivery");
  const hit = received.find((r) => r.headers["x-almanac-delivery"] === deliveryId);
  expect(hit, "the receiver got the test").toBeDefined();
  const signature = `sha256=${createHmac("sha256", secret).update(hit!.raw).digest("hex")}`;
  expect(hit!.headers["x-almanac-signature"]).toBe(signature);
  expect(hit!.headers["content-type"]).toContain("application/json");
  const body = JSON.parse(hit!.raw.toString("utf8")) as WebhookBody;
  expect(body).toMatchObject({ id: deliveryId, type: "test" });
  expect(Number(hit!.headers["x-almanac-timestamp"])).toBeGreaterThan(Date.now() / 1000 - 600);
  await expectNoSeriousA11yViolations(page, "the subscription page");
  await screenshot(page, testInfo, "notifications-subscription-1440");

  // The list shows it with its last delivery.
  await page.getByRole("link", { name: "Notifications" }).first().click();
  const row = page.locator(`[data-subscription="${id}"]`);
  await expect(row).toContainText(NAME);
  await expect(row).toContainText(new URL(url).host);
  await expect(row).toContainText("Whole landscape");
  await expect(row.locator("[data-last-delivery]")).toHaveAttribute("data-last-delivery", "Delivered");
  await screenshot(page, testInfo, "notifications-1440");

  // On a phone and in the dark theme, as the other pages.
  for (const where of ["/notifications", `/notifications/webhooks/${id}`, "/notifications/new"]) {
    await page.goto(where);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.locator(".animate-pulse")).toHaveCount(0);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      `${where} fits a phone`,
    ).toBe(0);
    const name = where === "/notifications" ? "list" : where.endsWith("new") ? "new" : "subscription";
    await screenshot(page, testInfo, `notifications-${name}-390`);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: "dark" });
    await expectNoSeriousA11yViolations(page, `${where} in the dark theme`);
    await screenshot(page, testInfo, `notifications-${name}-dark`);
    await page.emulateMedia({ colorScheme: "light" });
  }

  // Deleted after confirming: back on the list, gone there and from the API.
  await page.goto(`/notifications/webhooks/${id}`);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Delete this subscription?" });
  await expect(confirm).toContainText(NAME);
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await confirm.getByRole("button", { name: "Delete subscription" }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.locator(`[data-subscription="${id}"]`)).toHaveCount(0);
  expect((await request.get(`/api/v1/webhooks/${id}`)).status()).toBe(404);
});

test("an e-mail subscription is made with its addresses and a daily digest, says no mail can go out yet, and is deleted", async ({
  page,
  request,
}, testInfo) => {
  await page.goto("/notifications/new");
  const form = page.getByRole("form", { name: "New subscription" });
  await form.getByRole("radio", { name: /E-mail/ }).check();
  const addresses = form.getByLabel("E-mail addresses");
  await expect(addresses).toBeVisible();

  // A bad address is refused beside its field, naming it.
  await addresses.fill("oncall@example.com, not-an-address");
  await form.getByRole("button", { name: "Create subscription" }).click();
  await expect(form.getByText("Some fields need another look.")).toBeVisible();
  await expect(addresses).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("not an e-mail address: not-an-address")).toBeVisible();

  await addresses.fill("oncall@example.com, platform@example.com");
  await form.getByRole("radio", { name: /Daily digest/ }).check();
  await form.getByLabel("Name (optional)").fill("E2E mail");
  await expectNoSeriousA11yViolations(page, "the new e-mail subscription form");
  await screenshot(page, testInfo, "notifications-new-email");
  await form.getByRole("button", { name: "Create subscription" }).click();

  const created = page.getByTestId("subscription-created");
  await expect(created).toContainText("E-mail to oncall@example.com, platform@example.com");
  await created.getByRole("link", { name: "Open the subscription" }).click();
  await expect(page).toHaveURL(/\/notifications\/email-subscriptions\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1)!;
  await expect(page.getByRole("heading", { level: 1, name: "E2E mail" })).toBeVisible();
  // The journeys' server has no SMTP server: the page says its mails cannot go out.
  await expect(page.locator("[data-subscription-warning]").first()).toBeVisible();
  await expect(page.getByLabel("E-mail addresses")).toHaveValue("oncall@example.com, platform@example.com");
  await expect(page.getByRole("radio", { name: /Daily digest/ })).toBeChecked();
  const sub = (await (await request.get(`/api/v1/email-subscriptions/${id}`)).json()) as NotificationSubscriptionJson;
  expect(sub).toMatchObject({ channel: "email", to: "oncall@example.com, platform@example.com", digest: "daily" });
  await screenshot(page, testInfo, "notifications-email-subscription");

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await page
    .getByRole("dialog", { name: "Delete this subscription?" })
    .getByRole("button", { name: "Delete subscription" })
    .click();
  await expect(page).toHaveURL(/\/notifications$/);
  expect((await request.get(`/api/v1/email-subscriptions/${id}`)).status()).toBe(404);
});

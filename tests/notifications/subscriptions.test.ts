// The subscription use cases on a real PostgreSQL: the 422s naming the field (a private target
// refused without ALMANAC_WEBHOOK_ALLOW_PRIVATE), roles (a project viewer sees and changes only
// their projects' subscriptions; landscape ones need landscape read; one they may not read is
// 404), secrets never answered nor audited, every change audited, conditions still ahead fanned
// out to a new subscription, the test delivery, and the deliveries list paged newest first.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/auth/principal.ts";
import type { Db } from "../../lib/db/client.ts";
import type { CreateEmailSubscriptionRequest } from "../../lib/api/notifications.ts";
import { Refusal } from "../../lib/api/refusal.ts";
import { loadConfig, useConfig } from "../../lib/config/load-config.ts";
import { recordNotificationEvents } from "../../lib/server/notification-events.ts";
import {
  createEmailSubscription,
  createWebhook,
  deleteSubscription,
  getSubscription,
  listSubscriptionDeliveries,
  listSubscriptions,
  type NotificationCaller,
  sendTestNotification,
  updateSubscription,
} from "../../lib/server/notification-subscriptions.ts";
import { refusedTarget } from "../../lib/server/notification-target.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { listAuditEvents } from "../../lib/store/audit.ts";
import { shoot } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const NOW = new Date();
const SECRET = "s3cret-s3cret-s3cret";
const ALLOW = { allowPrivate: true };
const GUARD = { allowPrivate: false };
let t: TestDatabase;

const person = (email: string, bindings: Principal["bindings"]): Principal => ({
  kind: "user",
  id: email,
  name: email,
  email,
  groups: [],
  bindings,
});
const admin = person("ada@example.com", [{ role: "admin", scope: "*" }]);
const landscapeViewer = person("lee@example.com", [{ role: "viewer", scope: "*" }]);
const devViewer = person("vic@example.com", [{ role: "viewer", scope: "dev" }]);
const prodViewer = person("pat@example.com", [{ role: "viewer", scope: "prod" }]);
const caller = (principal: Principal): NotificationCaller => ({
  principal,
  actor: principal.kind === "user" ? principal.email : principal.name,
  requestId: randomUUID(),
});

beforeAll(async () => {
  t = await createTestDatabase();
  const landscape = smallLandscape(NOW.getTime(), 2);
  const prodShoot = shoot("1.31.2");
  prodShoot.metadata = { ...prodShoot.metadata, name: "web", namespace: "garden-prod", uid: randomUUID() };
  await seedLandscape(
    t.db,
    {
      ...landscape,
      projects: [...landscape.projects, { metadata: { name: "prod" }, spec: { namespace: "garden-prod" } }],
      shoots: [...landscape.shoots, prodShoot],
    },
    { actor: "test", now: NOW.getTime() },
  );
});
afterAll(() => t?.drop());

async function refusal(p: Promise<unknown>): Promise<Refusal> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Refusal);
  return error as Refusal;
}
const fields = (r: Refusal) => (r.errors ?? []).map((e) => e.field);

const hook = { url: "https://hooks.example.com/almanac", secret: SECRET, events: ["maintenance-failed"] };

describe("making a webhook", () => {
  it("answers the subscription without its secret, audits it without the secret", async () => {
    const made = await createWebhook(t.db, { ...hook, project: "dev", name: "ops" }, caller(devViewer), NOW, ALLOW);
    expect(made).toMatchObject({
      channel: "webhook",
      url: "https://hooks.example.com/…",
      hasSecret: true,
      events: ["maintenance-failed"],
      days: [7, 1],
      project: "dev",
      shoot: null,
      enabled: true,
      name: "ops",
      createdBy: "vic@example.com",
      digest: "each",
    });
    expect(JSON.stringify(made)).not.toContain(SECRET);
    expect(JSON.stringify(await getSubscription(t.db, "webhook", made.id, devViewer))).not.toContain(SECRET);
    expect(JSON.stringify(await listSubscriptions(t.db, "webhook", devViewer))).not.toContain(SECRET);
    const events = await listAuditEvents(t.db, { limit: 50 });
    const audit = events.find((e) => e.target.name === made.id)!;
    expect(audit).toMatchObject({ action: "webhook.create", target: { kind: "Webhook", namespace: "garden-dev" } });
    expect(JSON.stringify(events)).not.toContain(SECRET);
    // Changing the secret is audited as a change, never its value.
    await updateSubscription(
      t.db,
      "webhook",
      made.id,
      { secret: "another-long-secret" },
      caller(devViewer),
      NOW,
      ALLOW,
    );
    const after = await listAuditEvents(t.db, { limit: 50 });
    expect(after.find((e) => e.action === "webhook.update")!.changes).toEqual([
      { field: "secret", before: "(set)", after: "(set, changed)" },
    ]);
    expect(JSON.stringify(after)).not.toContain("another-long-secret");
  });

  it("never answers nor audits a webhook's full URL (it may carry a token); a change sends a new one", async () => {
    const token = "T0000000/B0000000/XXXXXXXXXXXXXXXXXXXXabcd";
    const slack = `https://hooks.slack.com/services/${token}`;
    const made = await createWebhook(t.db, { ...hook, url: slack }, caller(admin), NOW, ALLOW);
    expect(made.url).toBe("https://hooks.slack.com/services/…/abcd");
    const seen = JSON.stringify([
      made,
      await getSubscription(t.db, "webhook", made.id, landscapeViewer),
      await listSubscriptions(t.db, "webhook", landscapeViewer),
    ]);
    expect(seen).not.toContain("T0000000");
    expect(seen).not.toContain("XXXXXXXX");
    // Sending the masked URL back (a form that round-trips the answer) keeps the real one.
    await updateSubscription(t.db, "webhook", made.id, { url: made.url, name: "kept" }, caller(admin), NOW, ALLOW);
    const row = await t.db.notificationSubscription.findUniqueOrThrow({ where: { id: made.id } });
    expect(row.url).toBe(slack);
    // A new URL replaces it; the audit names the change, never either token.
    const other = `https://hooks.slack.com/services/${token.replace("abcd", "wxyz")}`;
    const changed = await updateSubscription(t.db, "webhook", made.id, { url: other }, caller(admin), NOW, ALLOW);
    expect(changed.url).toBe("https://hooks.slack.com/services/…/wxyz");
    const sameTail = `https://hooks.slack.com/services/T1111111/B1111111/YYYYYYYYYYYYYYYYYYYYwxyz`;
    await updateSubscription(t.db, "webhook", made.id, { url: sameTail }, caller(admin), NOW, ALLOW);
    const audits = (await listAuditEvents(t.db, { limit: 100 })).filter((e) => e.target.name === made.id);
    expect(JSON.stringify(audits)).not.toMatch(/T0000000|T1111111|XXXXXXXX|YYYYYYYY/);
    expect(audits.find((e) => e.action === "webhook.create")!.changes).toContainEqual({
      field: "url",
      before: null,
      after: "https://hooks.slack.com/services/…/abcd",
    });
    const urlChanges = audits.flatMap((e) => e.changes.filter((c) => c.field === "url"));
    expect(urlChanges).toContainEqual({
      field: "url",
      before: "https://hooks.slack.com/services/…/abcd",
      after: "https://hooks.slack.com/services/…/wxyz",
    });
    // Same mask, another URL: still audited as a change.
    expect(urlChanges).toContainEqual({ field: "url", before: "(set)", after: "(set, changed)" });
  });

  it("answers 422 naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...hook, url: "ftp://example.com/x" }, "url"],
      [{ ...hook, url: "not a url" }, "url"],
      [{ ...hook, url: undefined }, "url"],
      [{ ...hook, secret: "short" }, "secret"],
      [{ ...hook, secret: undefined }, "secret"],
      [{ ...hook, events: [] }, "events"],
      [{ ...hook, events: ["maintenance-failed", "lunch"] }, "events[1]"],
      [{ ...hook, events: ["test"] }, "events[0]"],
      [{ ...hook, days: [0] }, "days[0]"],
      [{ ...hook, days: [7, 91] }, "days[1]"],
      [{ ...hook, days: [1.5] }, "days[0]"],
      [{ ...hook, project: "nowhere" }, "project"],
      [{ ...hook, shoot: { namespace: "garden-dev", name: "nope" } }, "shoot"],
      [{ ...hook, project: "prod", shoot: { namespace: "garden-dev", name: "cluster-0" } }, "shoot"],
    ];
    for (const [body, field] of cases) {
      const r = await refusal(createWebhook(t.db, body, caller(admin), NOW, ALLOW));
      expect([r.code, fields(r)], JSON.stringify(body)).toEqual(["unprocessable", [field]]);
    }
  });

  it("refuses a private target without ALMANAC_WEBHOOK_ALLOW_PRIVATE (422 naming url), allows it with", async () => {
    for (const url of [
      "http://127.0.0.1:8080/x",
      "http://localhost/x",
      "http://10.1.2.3/x",
      "http://192.168.0.1/x",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/x",
      "http://[fd00::1]/x",
      "http://0.0.0.0/x",
      "http://[::ffff:10.0.0.1]/x",
      // IPv4-compatible IPv6 (::/96): ipaddr.js calls ::7f00:1 "unicast"; only 2000::/3 is let through.
      "http://[::127.0.0.1]/x",
      "http://[::a00:1]/x",
      "http://[100::1]/x",
    ]) {
      const r = await refusal(createWebhook(t.db, { ...hook, url }, caller(admin), NOW, GUARD));
      expect([r.code, fields(r)], url).toEqual(["unprocessable", ["url"]]);
      expect(r.errors![0].detail).toMatch(/ALMANAC_WEBHOOK_ALLOW_PRIVATE/);
    }
    // An address written in the URL is named with its range.
    const detail = async (url: string) =>
      (await refusal(createWebhook(t.db, { ...hook, url }, caller(admin), NOW, GUARD))).errors![0].detail;
    expect(await detail("http://127.0.0.1:8080/x")).toMatch(/^127\.0\.0\.1 is a loopback address: /);
    expect(await detail("http://10.1.2.3/x")).toMatch(/^10\.1\.2\.3 is a private address: /);
    expect(await detail("http://169.254.169.254/x")).toMatch(/^169\.254\.169\.254 is a link-local address: /);
    expect(await detail("http://[::1]/x")).toMatch(/^::1 is a loopback address: /);
    expect(await detail("http://[fd00::1]/x")).toMatch(/^fd00::1 is a unique local address: /);
    expect(await detail("http://0.0.0.0/x")).toMatch(/^0\.0\.0\.0 is an unspecified address: /);
    // A name's refusal does not tell what it resolves to (every project reader sees the 422).
    const byName = await refusal(
      createWebhook(t.db, { ...hook, url: "http://localhost/x" }, caller(admin), NOW, GUARD),
    );
    expect(byName.errors![0].detail).toMatch(/^localhost resolves to a loopback, private/);
    expect(byName.errors![0].detail).not.toMatch(/127\.0\.0\.1|::1|\(loopback\)/);
    const resolved = await refusedTarget("https://intranet.example.com/hook", async () => [
      "93.184.216.34",
      "10.1.2.3",
    ]);
    expect(resolved?.message).toMatch(/^intranet\.example\.com resolves to a loopback, private/);
    expect(resolved?.message).not.toContain("10.1.2.3");
    expect(resolved?.detail).toContain("10.1.2.3 (private)");
    expect(await refusedTarget("https://public.example.com/hook", async () => ["2a00:1450:4001:80b::200e"])).toBe(
      undefined,
    );
    const allowed = await createWebhook(t.db, { ...hook, url: "http://127.0.0.1:8080/x" }, caller(admin), NOW, ALLOW);
    expect(allowed.url).toBe("http://127.0.0.1:8080/…");
    // A change of url is checked alike.
    const r = await refusal(
      updateSubscription(t.db, "webhook", allowed.id, { url: "http://10.0.0.1/x" }, caller(admin), NOW, GUARD),
    );
    expect(fields(r)).toEqual(["url"]);
  });

  it("scopes a webhook to one shoot, its project the shoot's", async () => {
    const made = await createWebhook(
      t.db,
      { ...hook, shoot: { namespace: "garden-dev", name: "cluster-1" } },
      caller(devViewer),
      NOW,
      ALLOW,
    );
    expect(made).toMatchObject({ project: "dev", shoot: { namespace: "garden-dev", name: "cluster-1" } });
  });
});

describe("roles", () => {
  it("a project viewer makes, sees and changes only their projects' subscriptions; landscape ones need landscape read", async () => {
    const dev = await createWebhook(t.db, { ...hook, project: "dev" }, caller(devViewer), NOW, ALLOW);
    const prod = await createWebhook(t.db, { ...hook, project: "prod" }, caller(prodViewer), NOW, ALLOW);
    const wide = await createWebhook(t.db, hook, caller(landscapeViewer), NOW, ALLOW);
    expect((await refusal(createWebhook(t.db, hook, caller(devViewer), NOW, ALLOW))).code).toBe("forbidden");
    expect((await refusal(createWebhook(t.db, { ...hook, project: "prod" }, caller(devViewer), NOW, ALLOW))).code).toBe(
      "forbidden",
    );
    const devShoot = { namespace: "garden-prod", name: "web" };
    expect((await refusal(createWebhook(t.db, { ...hook, shoot: devShoot }, caller(devViewer), NOW, ALLOW))).code).toBe(
      "forbidden",
    );

    const seen = (await listSubscriptions(t.db, "webhook", devViewer)).items.map((s) => s.id);
    expect(seen).toContain(dev.id);
    expect(seen).not.toContain(prod.id);
    expect(seen).not.toContain(wide.id);
    const all = (await listSubscriptions(t.db, "webhook", landscapeViewer)).items.map((s) => s.id);
    expect(all).toEqual(expect.arrayContaining([dev.id, prod.id, wide.id]));

    for (const id of [prod.id, wide.id]) {
      expect((await refusal(getSubscription(t.db, "webhook", id, devViewer))).code).toBe("not-found");
      expect(
        (await refusal(updateSubscription(t.db, "webhook", id, { enabled: false }, caller(devViewer), NOW, ALLOW)))
          .code,
      ).toBe("not-found");
      expect((await refusal(deleteSubscription(t.db, "webhook", id, caller(devViewer)))).code).toBe("not-found");
      expect((await refusal(sendTestNotification(t.db, "webhook", id, caller(devViewer), NOW))).code).toBe("not-found");
      expect((await refusal(listSubscriptionDeliveries(t.db, "webhook", id, devViewer, { limit: 10 }))).code).toBe(
        "not-found",
      );
    }
    const changed = await updateSubscription(
      t.db,
      "webhook",
      dev.id,
      { events: ["stuck", "forced-update"], days: [3], name: "mine" },
      caller(devViewer),
      NOW,
      ALLOW,
    );
    expect(changed).toMatchObject({ events: ["stuck", "forced-update"], days: [3], name: "mine" });
    await deleteSubscription(t.db, "webhook", dev.id, caller(devViewer));
    expect((await refusal(getSubscription(t.db, "webhook", dev.id, devViewer))).code).toBe("not-found");
    // A webhook is not an e-mail subscription.
    expect((await refusal(getSubscription(t.db, "email", prod.id, prodViewer))).code).toBe("not-found");
  });
});

describe("e-mail subscriptions", () => {
  it("are made with addresses and a digest, and 422 names the field", async () => {
    const made = await createEmailSubscription(
      t.db,
      { to: " ops@example.com,  oncall@example.com ", events: ["forced-update"], digest: "daily", project: "dev" },
      caller(devViewer),
      NOW,
    );
    expect(made).toMatchObject({ channel: "email", to: "ops@example.com, oncall@example.com", digest: "daily" });
    expect(made).not.toHaveProperty("hasSecret");
    expect(made).not.toHaveProperty("url");
    const cases: [CreateEmailSubscriptionRequest, string][] = [
      [{ to: "not-an-address", events: ["stuck"] }, "to"],
      [{ to: "a@example.com, b@", events: ["stuck"] }, "to"],
      [{ events: ["stuck"] }, "to"],
      [{ to: "a@example.com", events: ["stuck"], digest: "weekly" }, "digest"],
      [{ to: "a@example.com", events: ["nope"] }, "events[0]"],
    ];
    for (const [body, field] of cases) {
      const r = await refusal(createEmailSubscription(t.db, body, caller(admin), NOW));
      expect([r.code, fields(r)], JSON.stringify(body)).toEqual(["unprocessable", [field]]);
    }
  });
});

describe("e-mail not configured", () => {
  afterEach(() => useConfig(undefined));

  it("warns on every e-mail subscription answer while no SMTP server is configured, never on a webhook's", async () => {
    useConfig(loadConfig({}));
    const made = await createEmailSubscription(
      t.db,
      { to: "ops@example.com", events: ["stuck"], project: "dev" },
      caller(admin),
      NOW,
    );
    const warning = "e-mail is not configured (ALMANAC_SMTP_URL)";
    expect(made.warning).toBe(warning);
    expect((await getSubscription(t.db, "email", made.id, admin)).warning).toBe(warning);
    expect((await updateSubscription(t.db, "email", made.id, { name: "ops" }, caller(admin), NOW)).warning).toBe(
      warning,
    );
    const listed = (await listSubscriptions(t.db, "email", admin)).items.find((s) => s.id === made.id);
    expect(listed?.warning).toBe(warning);
    const webhook = await createWebhook(t.db, hook, caller(admin), NOW, ALLOW);
    expect(webhook).not.toHaveProperty("warning");

    useConfig(loadConfig({ ALMANAC_SMTP_URL: "smtp://mail.example.com:25", ALMANAC_SMTP_FROM: "almanac@example.com" }));
    expect(await getSubscription(t.db, "email", made.id, admin)).not.toHaveProperty("warning");
    expect((await listSubscriptions(t.db, "email", admin)).items.find((s) => s.id === made.id)).not.toHaveProperty(
      "warning",
    );
  });
});

describe("fan-out, test and deliveries", () => {
  it("gives a new subscription the conditions still ahead, sends a test, and lists deliveries newest first", async () => {
    const until = new Date(NOW.getTime() + 5 * 86_400_000);
    await recordNotificationEvents(
      t.db,
      [
        {
          kind: "forced-update",
          key: `forced-update:garden-dev/cluster-0:kubernetes:-:1.30.5:${until.toISOString()}:7`,
          occurredAt: new Date(NOW.getTime() - 86_400_000),
          until,
          projects: ["dev"],
          shoot: { namespace: "garden-dev", name: "cluster-0" },
          days: 7,
          summary: "garden-dev/cluster-0: Gardener will force-update Kubernetes 1.30.5 → 1.31.4 (in 5 days)",
          data: {},
        },
      ],
      NOW,
    );
    const made = await createWebhook(
      t.db,
      { ...hook, events: ["forced-update"], project: "dev" },
      caller(devViewer),
      NOW,
      ALLOW,
    );
    const { deliveryId } = await sendTestNotification(
      t.db,
      "webhook",
      made.id,
      caller(devViewer),
      new Date(NOW.getTime() + 1),
    );
    const page = await listSubscriptionDeliveries(t.db, "webhook", made.id, devViewer, { limit: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ id: deliveryId, type: "test", state: "Pending", attempts: 0, history: [] });
    expect(page.items[0].summary).toMatch(/test notification/);
    expect(page.nextCursor).not.toBeNull();
    const next = await listSubscriptionDeliveries(t.db, "webhook", made.id, devViewer, {
      limit: 10,
      cursor: page.nextCursor!,
    });
    expect(next.items.map((d) => d.type)).toEqual(["forced-update"]);
    expect(next.nextCursor).toBeNull();
    // The list says how the newest delivery fared, in its one answer.
    const listed = (await listSubscriptions(t.db, "webhook", devViewer)).items.find((s) => s.id === made.id);
    expect(listed?.lastDelivery).toEqual({
      state: "Pending",
      at: new Date(NOW.getTime() + 1).toISOString(),
      type: "test",
    });
    await t.db.notificationDelivery.update({
      where: { id: deliveryId },
      data: { state: "Failed", attempts: 1, lastStatus: 500, lastError: "HTTP 500" },
    });
    expect(
      (await listSubscriptions(t.db, "webhook", devViewer)).items.find((s) => s.id === made.id)?.lastDelivery,
    ).toMatchObject({ state: "Failed", lastStatus: 500, lastError: "HTTP 500" });
    const quiet = await createWebhook(t.db, { ...hook, project: "dev" }, caller(devViewer), NOW, ALLOW);
    expect(
      (await listSubscriptions(t.db, "webhook", devViewer)).items.find((s) => s.id === quiet.id),
    ).not.toHaveProperty("lastDelivery");
    expect(
      (await refusal(listSubscriptionDeliveries(t.db, "webhook", made.id, devViewer, { limit: 10, cursor: "x" }))).code,
    ).toBe("invalid");
    // A disabled subscription sends no test.
    await updateSubscription(t.db, "webhook", made.id, { enabled: false }, caller(devViewer), NOW, ALLOW);
    expect((await refusal(sendTestNotification(t.db, "webhook", made.id, caller(devViewer), NOW))).code).toBe(
      "conflict",
    );
  });
});

/** `db` whose transactions, once their work is done, stay open until `release` (a slow commit). */
function heldOpen(db: Db, done: () => void, release: Promise<void>): Db {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "$transaction")
        return (fn: (tx: unknown) => Promise<unknown>, options?: unknown) =>
          (target.$transaction as (f: typeof fn, o?: unknown) => Promise<unknown>)(async (tx) => {
            const result = await fn(tx);
            done();
            await release;
            return result;
          }, options);
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe("a condition event recorded while a subscription is being made", () => {
  it("reaches it (the recording waits for the subscription's commit, or the other way round)", async () => {
    let done!: () => void;
    const made = new Promise<void>((resolve) => (done = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const creating = createWebhook(
      heldOpen(t.db, done, released),
      { ...hook, events: ["forced-update"], days: [7] },
      caller(admin),
      NOW,
      ALLOW,
    );
    await made; // inserted and fanned out, not committed
    const until = new Date(NOW.getTime() + 7 * 86_400_000);
    const recording = recordNotificationEvents(
      t.db,
      [
        {
          kind: "forced-update",
          key: `forced-update:garden-dev/cluster-1:race:${until.toISOString()}:7`,
          occurredAt: NOW,
          until,
          projects: ["dev"],
          shoot: { namespace: "garden-dev", name: "cluster-1" },
          days: 7,
          summary: "garden-dev/cluster-1: forced update in 7 days",
          data: {},
        },
      ],
      NOW,
    );
    // Commit the subscription once the recording has finished or waits for it (never by a clock).
    let watching = true;
    const waiting = (async () => {
      while (watching) {
        const [row] = await t.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`;
        if (row.n > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await Promise.race([recording, waiting]);
    watching = false;
    release();
    const sub = await creating;
    await recording;
    const got = await t.db.notificationDelivery.findMany({
      where: { subscriptionId: sub.id },
      include: { event: true },
    });
    expect(got.map((d) => d.event.key).filter((key) => key.includes(":race:"))).toEqual([
      `forced-update:garden-dev/cluster-1:race:${until.toISOString()}:7`,
    ]);
  });
});

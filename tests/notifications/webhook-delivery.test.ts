// Webhook deliveries on a real PostgreSQL to real HTTP receivers on loopback (private targets
// allowed, as ALMANAC_WEBHOOK_ALLOW_PRIVATE=true does, except where the guard is the point): the
// signature a receiver recomputes from the raw body, retries after a failing receiver with every
// attempt kept, a receiver that hangs (time-limited; another subscription's delivery is not held
// up), a redirect recorded and not followed, the guard refusing a private target at delivery,
// giving up after the last attempt, and a claim whose process died claimed again.
import { createHmac } from "node:crypto";
import type { ServerResponse } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { recordNotificationEvents, type NewNotificationEvent } from "../../lib/server/notification-events.ts";
import { webhookChannel, type WebhookChannel } from "../../lib/server/notification-webhook.ts";
import { deliverDueNotifications, RETRY_DELAYS_MS } from "../../lib/server/notification-worker.ts";
import { claimDueDeliveries, storeDeliveryResults } from "../../lib/store/notifications.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { type Receiver, startReceiver } from "../support/webhook-receiver.ts";

const SECRET = "a-secret-of-enough-length";
let t: TestDatabase;
let channel: WebhookChannel;
const receivers: Receiver[] = [];
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  channel = webhookChannel({ allowPrivate: true, timeoutMs: 1_500, publicUrl: "https://almanac.example.com/" });
});
afterAll(async () => {
  await channel?.close();
  await t?.drop();
});
beforeEach(async () => {
  await t.db.$executeRawUnsafe("TRUNCATE notification_subscriptions, notification_events CASCADE");
});
afterEach(async () => {
  for (const response of hanging.splice(0)) response.destroy();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

async function subscribe(url: string, kinds = ["maintenance-failed"]): Promise<string> {
  const row = await t.db.notificationSubscription.create({
    data: {
      channel: "webhook",
      url,
      secret: SECRET,
      kinds,
      createdBy: "test",
      createdAt: new Date(Date.now() - 3_600_000),
    },
  });
  return row.id;
}

const failedRun = (run: string): NewNotificationEvent => ({
  kind: "maintenance-failed",
  key: `maintenance-failed:${run}`,
  occurredAt: new Date(),
  projects: ["dev"],
  shoot: { namespace: "garden-dev", name: "api-eu" },
  summary: `garden-dev/api-eu: maintenance run ${run} failed <Error & more>`,
  data: { runId: run },
});

const deliveryOf = async (subscriptionId: string) =>
  t.db.notificationDelivery.findFirstOrThrow({
    where: { subscriptionId },
    include: { attemptRows: { orderBy: { at: "asc" } } },
  });

describe("the webhook channel", () => {
  it("signs the exact raw body with HMAC-SHA256 and sends the contract's body and headers", async () => {
    const r = await receiver();
    const sub = await subscribe(r.url);
    await recordNotificationEvents(t.db, [failedRun("r1")], new Date());
    const pass = await deliverDueNotifications(t.db, [channel], new Date());
    expect(pass).toMatchObject({ claimed: 1, delivered: 1 });
    expect(r.received).toHaveLength(1);
    const [got] = r.received;
    const expected = `sha256=${createHmac("sha256", SECRET).update(got.raw).digest("hex")}`;
    expect(got.headers["x-almanac-signature"]).toBe(expected);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["user-agent"]).toBe("Almanac-Webhook");
    const delivery = await deliveryOf(sub);
    expect(got.headers["x-almanac-delivery"]).toBe(delivery.id);
    expect(Number(got.headers["x-almanac-timestamp"])).toBe(
      Math.floor(Date.parse(got.json.timestamp as string) / 1000),
    );
    expect(got.json).toMatchObject({
      id: delivery.id,
      eventId: delivery.eventId,
      type: "maintenance-failed",
      summary: "garden-dev/api-eu: maintenance run r1 failed <Error & more>",
      projects: ["dev"],
      shoot: { namespace: "garden-dev", name: "api-eu" },
      data: { runId: "r1" },
    });
    // Slack's text: markup escaped, the shoot linked.
    expect(got.json.text).toBe(
      "garden-dev/api-eu: maintenance run r1 failed &lt;Error &amp; more&gt; <https://almanac.example.com/shoots/garden-dev/api-eu|garden-dev/api-eu>",
    );
    expect(got.json).not.toHaveProperty("days");
    // A wrong secret does not match.
    expect(`sha256=${createHmac("sha256", "another-secret-xx").update(got.raw).digest("hex")}`).not.toBe(expected);
    expect(delivery).toMatchObject({ state: "Delivered", attempts: 1, lastStatus: 200, lastError: null });
    expect(delivery.attemptRows).toHaveLength(1);
    expect(delivery.attemptRows[0]).toMatchObject({ status: 200, response: "ok", error: null });
    // Nothing is sent twice.
    expect((await deliverDueNotifications(t.db, [channel], new Date(Date.now() + 86_400_000))).claimed).toBe(0);
    expect(r.received).toHaveLength(1);
  });

  it("retries after a failing receiver with backoff, keeping every attempt, then delivers", async () => {
    const r = await receiver();
    r.answer = (_, response) => response.writeHead(503).end("busy, come back later");
    const sub = await subscribe(r.url);
    const now = new Date();
    await recordNotificationEvents(t.db, [failedRun("r2")], now);
    expect(await deliverDueNotifications(t.db, [channel], now)).toMatchObject({ claimed: 1, retrying: 1 });
    let delivery = await deliveryOf(sub);
    expect(delivery).toMatchObject({ state: "Pending", attempts: 1, lastStatus: 503 });
    expect(delivery.lastError).toMatch(/503/);
    expect(delivery.nextAttemptAt.getTime()).toBe(now.getTime() + RETRY_DELAYS_MS[0]);
    // Not before its time.
    expect(
      (await deliverDueNotifications(t.db, [channel], new Date(now.getTime() + RETRY_DELAYS_MS[0] - 1))).claimed,
    ).toBe(0);
    r.answer = (_, response) => response.writeHead(204).end();
    const later = new Date(now.getTime() + RETRY_DELAYS_MS[0]);
    expect(await deliverDueNotifications(t.db, [channel], later)).toMatchObject({ claimed: 1, delivered: 1 });
    delivery = await deliveryOf(sub);
    expect(delivery).toMatchObject({ state: "Delivered", attempts: 2, lastStatus: 204, lastError: null });
    expect(delivery.attemptRows.map((a) => [a.status, a.response])).toEqual([
      [503, "busy, come back later"],
      [204, null],
    ]);
    // The same delivery id both times: receivers dedupe by it.
    expect(r.received.map((x) => x.json.id)).toEqual([delivery.id, delivery.id]);
  });

  it("gives up after the last attempt (Failed), each attempt kept", async () => {
    const r = await receiver();
    r.answer = (_, response) => response.writeHead(500).end();
    const sub = await subscribe(r.url);
    let now = new Date();
    await recordNotificationEvents(t.db, [failedRun("r3")], now);
    for (let i = 0; i < 3; i++) {
      await deliverDueNotifications(t.db, [channel], now, { maxAttempts: 3 });
      now = new Date(now.getTime() + 3 * 3_600_000);
    }
    const delivery = await deliveryOf(sub);
    expect(delivery).toMatchObject({ state: "Failed", attempts: 3, lastStatus: 500 });
    expect(delivery.attemptRows).toHaveLength(3);
    expect((await deliverDueNotifications(t.db, [channel], new Date(now.getTime() + 86_400_000))).claimed).toBe(0);
    expect(r.received).toHaveLength(3);
  });

  it("limits a receiver that hangs, and another subscription's delivery is not held up", async () => {
    const slow = await receiver();
    const fast = await receiver();
    slow.answer = (_, response) => hanging.push(response); // never answers
    const slowSub = await subscribe(slow.url);
    const fastSub = await subscribe(fast.url);
    await recordNotificationEvents(t.db, [failedRun("r4")], new Date());
    const slowHit = slow.next();
    const fastHit = fast.next();
    const pass = deliverDueNotifications(t.db, [channel], new Date());
    await slowHit;
    await fastHit;
    // The fast receiver got its delivery while the slow one still holds its request open.
    expect(hanging).toHaveLength(1);
    expect(hanging[0].writableEnded).toBe(false);
    expect(await pass).toMatchObject({ claimed: 2, delivered: 1, retrying: 1 });
    expect(await deliveryOf(fastSub)).toMatchObject({ state: "Delivered" });
    const stuck = await deliveryOf(slowSub);
    expect(stuck).toMatchObject({ state: "Pending", attempts: 1, lastStatus: null });
    expect(stuck.lastError).toBe("no answer within 1.5 s");
  });

  it("records a redirect and does not follow it", async () => {
    const r = await receiver();
    r.answer = (got, response) =>
      got.path === "/hook"
        ? response.writeHead(302, { location: r.url.replace("/hook", "/elsewhere") }).end()
        : response.writeHead(200).end("followed");
    const sub = await subscribe(r.url);
    await recordNotificationEvents(t.db, [failedRun("r5")], new Date());
    await deliverDueNotifications(t.db, [channel], new Date());
    const delivery = await deliveryOf(sub);
    expect(delivery).toMatchObject({ state: "Pending", attempts: 1, lastStatus: 302 });
    expect(delivery.lastError).toBe(
      `redirected to ${r.url.replace("/hook", "/elsewhere")}; redirects are not followed`,
    );
    expect(r.received.map((x) => x.path)).toEqual(["/hook"]);
  });

  it("refuses a private target at delivery without ALMANAC_WEBHOOK_ALLOW_PRIVATE, by address and by name", async () => {
    const guarded = webhookChannel({ allowPrivate: false, timeoutMs: 1_500 });
    try {
      const r = await receiver();
      const byAddress = await subscribe(r.url);
      const byName = await subscribe(r.url.replace("127.0.0.1", "localhost"));
      await recordNotificationEvents(t.db, [failedRun("r6")], new Date());
      expect(await deliverDueNotifications(t.db, [guarded], new Date())).toMatchObject({ claimed: 2, failed: 2 });
      for (const [sub, words] of [
        [byAddress, /^127\.0\.0\.1 is a loopback address: .*ALMANAC_WEBHOOK_ALLOW_PRIVATE/],
        [byName, /^localhost resolves to a loopback, private, .*ALMANAC_WEBHOOK_ALLOW_PRIVATE/],
      ] as const) {
        const delivery = await deliveryOf(sub);
        expect(delivery).toMatchObject({ state: "Failed", attempts: 1, lastStatus: null });
        expect(delivery.lastError).toMatch(words);
      }
      // The address written in the URL is named; what a name resolves to is not (readers of the
      // delivery history must not learn the internal network from it).
      expect((await deliveryOf(byAddress)).lastError).toMatch(/127\.0\.0\.1.*loopback/);
      const byNameError = (await deliveryOf(byName)).lastError!;
      expect(byNameError).toMatch(/^localhost resolves to a loopback, private/);
      expect(byNameError).not.toMatch(/127\.0\.0\.1|::1|\(loopback\)/);
      expect(r.received).toHaveLength(0);
    } finally {
      await guarded.close();
    }
  });

  it("claims again a delivery whose claimer died, and drops the dead claim's late outcome", async () => {
    const r = await receiver();
    const sub = await subscribe(r.url);
    const now = new Date();
    await recordNotificationEvents(t.db, [failedRun("r7")], now);
    const deadUntil = new Date(now.getTime() + 60_000);
    const [dead] = await claimDueDeliveries(t.db, {
      now,
      claimedUntil: deadUntil,
      channels: ["webhook"],
      subscriptions: 8,
      perSubscription: 20,
    });
    expect(dead.subscription.id).toBe(sub);
    // While the claim holds, nobody else takes it.
    expect((await deliverDueNotifications(t.db, [channel], new Date(now.getTime() + 59_000))).claimed).toBe(0);
    // After it, another process does.
    expect(await deliverDueNotifications(t.db, [channel], new Date(now.getTime() + 61_000))).toMatchObject({
      claimed: 1,
      delivered: 1,
    });
    const late = await storeDeliveryResults(t.db, deadUntil, [
      {
        kind: "attempt",
        id: dead.id,
        at: now,
        durationMs: 1,
        status: 500,
        error: "late",
        response: null,
        state: "Failed",
        nextAttemptAt: now,
      },
    ]);
    expect(late.size).toBe(0);
    expect(await deliveryOf(sub)).toMatchObject({ state: "Delivered", attempts: 1 });
    expect(r.received).toHaveLength(1);
  });

  it("sends a subscription's deliveries in order, and after a failure puts the rest off without an attempt", async () => {
    const r = await receiver();
    const sub = await subscribe(r.url);
    const now = new Date();
    await recordNotificationEvents(t.db, [failedRun("a")], now);
    await recordNotificationEvents(t.db, [failedRun("b")], new Date(now.getTime() + 1));
    await recordNotificationEvents(t.db, [failedRun("c")], new Date(now.getTime() + 2));
    r.answer = (_, response) => response.writeHead(500).end();
    const pass = await deliverDueNotifications(t.db, [channel], new Date(now.getTime() + 10));
    expect(pass).toMatchObject({ claimed: 3, retrying: 1, deferred: 2 });
    expect(r.received).toHaveLength(1);
    const rows = await t.db.notificationDelivery.findMany({ where: { subscriptionId: sub }, include: { event: true } });
    expect(rows.map((d) => [d.event.key, d.attempts]).sort()).toEqual([
      ["maintenance-failed:a", 1],
      ["maintenance-failed:b", 0],
      ["maintenance-failed:c", 0],
    ]);
  });

  it("backs off a dead receiver as a whole: its one failing delivery is retried at 30 s, then 2 min, nothing between", async () => {
    const r = await receiver();
    r.answer = (_, response) => response.writeHead(503).end();
    const sub = await subscribe(r.url);
    const now = new Date();
    // More than one claim's worth (20 a subscription).
    for (let i = 0; i < 25; i++)
      await recordNotificationEvents(t.db, [failedRun(`dead-${i}`)], new Date(now.getTime() + i));
    const at = (ms: number) => new Date(now.getTime() + 100 + ms);
    expect(await deliverDueNotifications(t.db, [channel], at(0))).toMatchObject({
      claimed: 20,
      retrying: 1,
      deferred: 19,
    });
    // The five not claimed wait too: nothing is tried before the failed delivery's retry.
    expect((await deliverDueNotifications(t.db, [channel], at(1_000))).claimed).toBe(0);
    expect((await deliverDueNotifications(t.db, [channel], at(RETRY_DELAYS_MS[0] - 1))).claimed).toBe(0);
    expect(await deliverDueNotifications(t.db, [channel], at(RETRY_DELAYS_MS[0]))).toMatchObject({ retrying: 1 });
    const second = at(RETRY_DELAYS_MS[0]).getTime();
    for (const ms of [1_000, RETRY_DELAYS_MS[0], RETRY_DELAYS_MS[1] - 1])
      expect((await deliverDueNotifications(t.db, [channel], new Date(second + ms))).claimed).toBe(0);
    expect(await deliverDueNotifications(t.db, [channel], new Date(second + RETRY_DELAYS_MS[1]))).toMatchObject({
      retrying: 1,
    });
    // Three attempts in all, each the same (oldest) delivery at its own backoff.
    expect(r.received).toHaveLength(3);
    const first = await t.db.notificationDelivery.findFirstOrThrow({
      where: { subscriptionId: sub, event: { key: "maintenance-failed:dead-0" } },
    });
    expect(new Set(r.received.map((x) => x.json.id))).toEqual(new Set([first.id]));
    expect(first).toMatchObject({ state: "Pending", attempts: 3 });
    expect(await t.db.notificationAttempt.count({ where: { delivery: { subscriptionId: sub } } })).toBe(3);
  });

  it("holds the subscription after a delivery gives up, so that the ones put off in its batch still go first", async () => {
    const r = await receiver();
    r.answer = (_, response) => response.writeHead(503).end();
    await subscribe(r.url);
    const now = new Date();
    for (let i = 0; i < 25; i++)
      await recordNotificationEvents(t.db, [failedRun(`last-${i}`)], new Date(now.getTime() + i));
    const at = (ms: number) => new Date(now.getTime() + 100 + ms);
    // One attempt allowed: the first delivery gives up, the other 19 of the claim are put off.
    expect(await deliverDueNotifications(t.db, [channel], at(0), { maxAttempts: 1 })).toMatchObject({
      claimed: 20,
      failed: 1,
      deferred: 19,
    });
    // The five not claimed wait with them, rather than going out ahead of them.
    expect((await deliverDueNotifications(t.db, [channel], at(1_000), { maxAttempts: 1 })).claimed).toBe(0);
    r.answer = (_, response) => response.writeHead(204).end();
    for (let pass = 0; pass < 3; pass++)
      await deliverDueNotifications(t.db, [channel], at(RETRY_DELAYS_MS[0] + pass), { maxAttempts: 1 });
    expect(r.received.map((x) => (x.json.data as { runId: string }).runId)).toEqual(
      Array.from({ length: 25 }, (_, i) => `last-${i}`),
    );
  });

  it("tries each delivery to a refused target, keeping only attempts that happened", async () => {
    const guarded = webhookChannel({ allowPrivate: false, timeoutMs: 1_500 });
    // A bare listener on loopback: the guard connects to an address literal, then refuses it.
    let connections = 0;
    const listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    try {
      const sub = await subscribe(`http://127.0.0.1:${(listener.address() as AddressInfo).port}/hook`);
      const now = new Date();
      for (let i = 0; i < 3; i++)
        await recordNotificationEvents(t.db, [failedRun(`refused-${i}`)], new Date(now.getTime() + i));
      expect(await deliverDueNotifications(t.db, [guarded], new Date(now.getTime() + 10))).toMatchObject({
        claimed: 3,
        failed: 3,
      });
      // Each was judged on its own connection.
      await vi.waitFor(() => expect(connections).toBe(3));
      const rows = await t.db.notificationDelivery.findMany({
        where: { subscriptionId: sub },
        include: { attemptRows: true },
      });
      for (const d of rows) {
        expect(d).toMatchObject({ state: "Failed", attempts: 1 });
        expect(d.attemptRows).toHaveLength(1);
      }
    } finally {
      await guarded.close();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
});

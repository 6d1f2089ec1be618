// E-mail notifications end to end on a real PostgreSQL and a real SMTP server on loopback: events
// recorded for e-mail subscriptions, then the worker's pass (deliverDueNotifications) with the
// e-mail channel. A mail per event; the daily digest as one mail at its moment and not before; a
// 451 retried after the backoff, then delivered; a 550 given up with the answer kept; no SMTP
// server configured, given up with a clear error. Every attempt is a row with its answer.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type NewNotificationEvent, recordNotificationEvents } from "../../lib/server/notification-events.ts";
import { EMAIL_NOT_CONFIGURED, emailChannel, type EmailChannel } from "../../lib/server/notification-mail.ts";
import type { MailSettings } from "../../lib/server/notification-mail-settings.ts";
import { fanOutConditionEvents } from "../../lib/store/notifications.ts";
import { deliverDueNotifications, EMAIL_CLAIM_MS } from "../../lib/server/notification-worker.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { type SmtpReceiver, startSmtpReceiver } from "../support/smtp-receiver.ts";

const HOUR = 3_600_000;
// 05:00 UTC: the day's digest (07:00 UTC) is two hours away.
const NOW = new Date("2026-11-28T05:00:00Z");
const DIGEST = new Date("2026-11-28T07:00:00Z");
const PASS = { maxAttempts: 5, subscriptions: 8, perSubscription: 50, claimMs: 300_000 };

let t: TestDatabase;
let receiver: SmtpReceiver;
let channel: EmailChannel | undefined;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.drop());
beforeEach(async () => {
  await t.db.$executeRawUnsafe("TRUNCATE notification_subscriptions, notification_events CASCADE");
  receiver = await startSmtpReceiver();
});
afterEach(async () => {
  await channel?.close();
  channel = undefined;
  await receiver.close();
});

function settings(overrides: Partial<MailSettings> = {}): MailSettings {
  return {
    smtp: { url: receiver.url },
    from: "Almanac <almanac@example.com>",
    digestTime: "07:00",
    digestZone: "UTC",
    publicUrl: "https://almanac.example.com",
    timeouts: { connection: 3_000, greeting: 3_000, socket: 5_000 },
    ...overrides,
  };
}

async function subscribe(digest: "each" | "daily", kinds = ["maintenance-failed", "shoot-unhealthy"]): Promise<string> {
  const row = await t.db.notificationSubscription.create({
    data: {
      channel: "email",
      emailTo: "ops@example.com",
      digest,
      kinds,
      createdBy: "test",
      createdAt: new Date(NOW.getTime() - 24 * HOUR),
    },
  });
  return row.id;
}

const failed = (run: string, at = NOW): NewNotificationEvent => ({
  kind: "maintenance-failed",
  key: `maintenance-failed:${run}`,
  occurredAt: at,
  projects: ["dev"],
  shoot: { namespace: "garden-dev", name: run },
  summary: `garden-dev/${run}: maintenance failed: <webhook> denied the update`,
  data: { runId: run },
});

async function deliveries() {
  return t.db.notificationDelivery.findMany({ include: { attemptRows: true }, orderBy: { createdAt: "asc" } });
}

describe("one mail per event", () => {
  it("sends each event as its own mail and marks it delivered with the server's answer", async () => {
    await subscribe("each");
    await recordNotificationEvents(t.db, [failed("api-eu"), failed("web-us")], NOW);
    channel = emailChannel(settings());

    const pass = await deliverDueNotifications(t.db, [channel], NOW, PASS);
    expect(pass).toMatchObject({ claimed: 2, delivered: 2 });
    const mails = await receiver.received(2);
    const rows = await deliveries();
    expect(rows.map((r) => r.state)).toEqual(["Delivered", "Delivered"]);
    expect(mails.map((m) => m.headers.get("message-id")).sort()).toEqual(
      rows.map((r) => `<${r.id}@example.com>`).sort(),
    );
    expect(mails.map((m) => m.subject).sort()).toEqual([
      "[Almanac] garden-dev/api-eu: maintenance failed: <webhook> denied the update",
      "[Almanac] garden-dev/web-us: maintenance failed: <webhook> denied the update",
    ]);
    for (const mail of mails) expect(mail.html).toContain("&lt;webhook&gt;");
    for (const row of rows) {
      expect(row.attempts).toBe(1);
      expect(row.lastStatus).toBe(250);
      expect(row.attemptRows).toHaveLength(1);
      expect(row.attemptRows[0].response).toContain("Ok: queued");
    }
    // Delivered once: another pass finds nothing.
    expect(await deliverDueNotifications(t.db, [channel], new Date(NOW.getTime() + HOUR), PASS)).toMatchObject({
      claimed: 0,
    });
    expect(receiver.mails).toHaveLength(2);
  });

  it("retries a 451 after the backoff, then delivers; every attempt kept", async () => {
    await subscribe("each");
    await recordNotificationEvents(t.db, [failed("api-eu")], NOW);
    receiver.answers = [{ code: 451, message: "4.3.0 Mailbox busy, try again" }];
    channel = emailChannel(settings());

    expect(await deliverDueNotifications(t.db, [channel], NOW, PASS)).toMatchObject({ claimed: 1, retrying: 1 });
    let [row] = await deliveries();
    expect(row).toMatchObject({ state: "Pending", attempts: 1, lastStatus: 451 });
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(NOW.getTime());
    // Not before the backoff.
    expect(await deliverDueNotifications(t.db, [channel], NOW, PASS)).toMatchObject({ claimed: 0 });

    expect(await deliverDueNotifications(t.db, [channel], row.nextAttemptAt, PASS)).toMatchObject({ delivered: 1 });
    [row] = await deliveries();
    expect(row).toMatchObject({ state: "Delivered", attempts: 2, lastStatus: 250 });
    expect(row.attemptRows.map((a) => a.status).sort()).toEqual([250, 451]);
    expect(row.attemptRows.find((a) => a.status === 451)?.response).toContain("Mailbox busy");
    expect(await receiver.received(1)).toHaveLength(1);
  });

  it("gives up on a 550, keeping the server's answer", async () => {
    await subscribe("each");
    await recordNotificationEvents(t.db, [failed("api-eu")], NOW);
    receiver.answers = [{ code: 550, message: "5.1.1 No such mailbox" }];
    channel = emailChannel(settings());

    expect(await deliverDueNotifications(t.db, [channel], NOW, PASS)).toMatchObject({ failed: 1 });
    const [row] = await deliveries();
    expect(row).toMatchObject({ state: "Failed", attempts: 1, lastStatus: 550 });
    expect(row.attemptRows[0].response).toContain("5.1.1 No such mailbox");
    expect(await deliverDueNotifications(t.db, [channel], new Date(NOW.getTime() + 24 * HOUR), PASS)).toMatchObject({
      claimed: 0,
    });
  });

  it("gives up at once with a clear error when no SMTP server is configured", async () => {
    await subscribe("each");
    await recordNotificationEvents(t.db, [failed("api-eu")], NOW);
    channel = emailChannel({ digestTime: "07:00", digestZone: "UTC" });

    expect(await deliverDueNotifications(t.db, [channel], NOW, PASS)).toMatchObject({ failed: 1 });
    const [row] = await deliveries();
    expect(row).toMatchObject({ state: "Failed", attempts: 1, lastError: EMAIL_NOT_CONFIGURED });
    expect(row.lastError).toBe("e-mail is not configured (ALMANAC_SMTP_URL)");
  });
});

describe("the daily digest", () => {
  it("holds the events until the digest moment, then sends ONE mail with all of them, all delivered together", async () => {
    await subscribe("daily");
    const events = [failed("a"), failed("b"), failed("c"), { ...failed("d"), kind: "shoot-unhealthy" as const }];
    await recordNotificationEvents(t.db, events, NOW);
    channel = emailChannel(settings());

    expect(await deliverDueNotifications(t.db, [channel], NOW, PASS)).toMatchObject({ claimed: 4, deferred: 4 });
    let rows = await deliveries();
    for (const row of rows) {
      expect(row).toMatchObject({ state: "Pending", attempts: 0 });
      expect(row.nextAttemptAt).toEqual(DIGEST);
    }
    // A second before the moment: nothing is due, nothing is sent.
    expect(await deliverDueNotifications(t.db, [channel], new Date(DIGEST.getTime() - 1000), PASS)).toMatchObject({
      claimed: 0,
    });
    expect(receiver.mails).toHaveLength(0);

    expect(await deliverDueNotifications(t.db, [channel], DIGEST, PASS)).toMatchObject({ claimed: 4, delivered: 4 });
    const [mail] = await receiver.received(1);
    expect(receiver.mails).toHaveLength(1);
    expect(mail.subject).toBe("[Almanac] Daily digest for 2026-11-28: 4 notifications");
    expect(mail.text).toContain("Maintenance runs failed (3)");
    expect(mail.text).toContain("Shoot unhealthy (1)");
    for (const run of ["a", "b", "c", "d"]) expect(mail.text).toContain(`garden-dev/${run}: maintenance failed`);
    rows = await deliveries();
    for (const row of rows) expect(row).toMatchObject({ state: "Delivered", attempts: 1, lastStatus: 250 });
    expect(new Set(rows.map((r) => r.deliveredAt?.getTime()))).toEqual(new Set([DIGEST.getTime()]));
    // One attempt of one mail: each delivery's attempt took the whole mail's time.
    expect(new Set(rows.map((r) => r.attemptRows[0].durationMs)).size).toBe(1);
  });

  it("retries a failed digest as a whole", async () => {
    await subscribe("daily");
    await recordNotificationEvents(t.db, [failed("a"), failed("b")], NOW);
    receiver.answers = [{ code: 421, message: "4.4.2 Service shutting down" }];
    channel = emailChannel(settings());

    await deliverDueNotifications(t.db, [channel], NOW, PASS);
    expect(await deliverDueNotifications(t.db, [channel], DIGEST, PASS)).toMatchObject({ retrying: 2 });
    const rows = await deliveries();
    for (const row of rows) expect(row).toMatchObject({ state: "Pending", attempts: 1, lastStatus: 421 });
    expect(new Set(rows.map((r) => r.nextAttemptAt.getTime())).size).toBe(1);

    expect(await deliverDueNotifications(t.db, [channel], rows[0].nextAttemptAt, PASS)).toMatchObject({
      delivered: 2,
    });
    const [mail] = await receiver.received(1);
    expect(receiver.mails).toHaveLength(1);
    expect(mail.text).toContain("2 maintenance runs failed");
  });

  it("retries a failed digest whose deliveries were tried different numbers of times as ONE mail", async () => {
    await subscribe("daily");
    await recordNotificationEvents(t.db, [failed("a"), failed("b")], NOW);
    // As if "a" had been in three earlier digests that failed (with a raised attempt limit): its
    // backoff is now an hour, "b"'s first is 30 s.
    const [a] = await deliveries();
    await t.db.notificationDelivery.update({ where: { id: a.id }, data: { attempts: 3 } });
    receiver.answers = [{ code: 421, message: "4.4.2 Service shutting down" }];
    channel = emailChannel(settings());

    await deliverDueNotifications(t.db, [channel], NOW, PASS);
    expect(await deliverDueNotifications(t.db, [channel], DIGEST, PASS)).toMatchObject({ retrying: 2 });
    const rows = await deliveries();
    expect(rows.map((r) => r.nextAttemptAt)).toEqual([
      new Date(DIGEST.getTime() + HOUR),
      new Date(DIGEST.getTime() + HOUR),
    ]);
    // "b"'s own backoff has passed, but it waits for "a": nothing is due, no mail of "b" alone.
    expect(await deliverDueNotifications(t.db, [channel], new Date(DIGEST.getTime() + 60_000), PASS)).toMatchObject({
      claimed: 0,
    });

    expect(await deliverDueNotifications(t.db, [channel], new Date(DIGEST.getTime() + HOUR), PASS)).toMatchObject({
      claimed: 2,
      delivered: 2,
    });
    const [mail] = await receiver.received(1);
    expect(receiver.mails).toHaveLength(1);
    expect(mail.text).toContain("2 maintenance runs failed");
  });
  it("retries a failed digest after its own backoff, though the same pass put an event off to tomorrow's digest", async () => {
    await subscribe("daily");
    await recordNotificationEvents(t.db, [failed("a")], NOW);
    receiver.answers = [{ code: 421, message: "4.4.2 Service shutting down" }];
    channel = emailChannel(settings());
    await deliverDueNotifications(t.db, [channel], NOW, PASS);
    // "b" comes after today's digest moment: it waits for tomorrow's.
    const late = new Date(DIGEST.getTime() + 10_000);
    await recordNotificationEvents(t.db, [failed("b", late)], late);

    const pass = new Date(DIGEST.getTime() + 20_000);
    expect(await deliverDueNotifications(t.db, [channel], pass, PASS)).toMatchObject({ retrying: 1, deferred: 1 });
    const [a, b] = await deliveries();
    expect(a.nextAttemptAt).toEqual(new Date(pass.getTime() + 30_000));
    expect(b.nextAttemptAt).toEqual(new Date(DIGEST.getTime() + 24 * HOUR));
  });
});

describe("a digest of many events, as the worker claims it", () => {
  // The worker's own pass options (20 per subscription for webhooks and single mails).
  const DEFAULTS = { maxAttempts: 5 };

  it("sends 25 waiting events as ONE mail, all delivered together", async () => {
    await subscribe("daily");
    const events = Array.from({ length: 25 }, (_, i) => failed(`run-${String(i).padStart(2, "0")}`));
    await recordNotificationEvents(t.db, events, NOW);
    channel = emailChannel(settings());

    expect(await deliverDueNotifications(t.db, [channel], NOW, DEFAULTS)).toMatchObject({ claimed: 25, deferred: 25 });
    expect(await deliverDueNotifications(t.db, [channel], DIGEST, DEFAULTS)).toMatchObject({
      claimed: 25,
      delivered: 25,
    });
    const [mail] = await receiver.received(1);
    expect(mail.subject).toBe("[Almanac] Daily digest for 2026-11-28: 25 notifications");
    // Nothing is left for a second mail.
    expect(await deliverDueNotifications(t.db, [channel], new Date(DIGEST.getTime() + HOUR), DEFAULTS)).toMatchObject({
      claimed: 0,
    });
    expect(receiver.mails).toHaveLength(1);
    const rows = await deliveries();
    expect(rows).toHaveLength(25);
    for (const row of rows) expect(row).toMatchObject({ state: "Delivered", attempts: 1, lastStatus: 250 });
  });

  it("claims e-mail for longer than the mail channel's batch may take (120 s, and one send of up to 90 s)", async () => {
    expect(EMAIL_CLAIM_MS).toBeGreaterThanOrEqual(120_000 + 90_000);
    await subscribe("each");
    await recordNotificationEvents(t.db, [failed("api-eu")], NOW);
    // A slow SMTP server: while the first process is still at its batch 280 s on, a second
    // process looks for due deliveries. It must find none (the claim holds), or it would send the
    // same mail again.
    const sent: string[] = [];
    const other = {
      channel: "email" as const,
      async deliver(batch: readonly { id: string }[]) {
        sent.push(...batch.map((d) => `other:${d.id}`));
        return new Map(batch.map((d) => [d.id, { ok: true as const, status: 250 }]));
      },
    };
    const slow = {
      channel: "email" as const,
      async deliver(batch: readonly { id: string }[]) {
        const later = await deliverDueNotifications(t.db, [other], new Date(NOW.getTime() + 280_000), DEFAULTS);
        expect(later.claimed).toBe(0);
        sent.push(...batch.map((d) => `first:${d.id}`));
        return new Map(batch.map((d) => [d.id, { ok: true as const, status: 250 }]));
      },
    };
    expect(await deliverDueNotifications(t.db, [slow], NOW, DEFAULTS)).toMatchObject({ delivered: 1 });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^first:/);
  });

  it("lets a digest delivery made after a change of the subscription wait for the next digest", async () => {
    // Subscribed a day ago to other kinds; an event that still holds was recorded 23 hours ago
    // (before yesterday's digest); now the subscription takes its kind and gets a delivery of it.
    const id = await subscribe("daily", ["shoot-unhealthy"]);
    const expiring: NewNotificationEvent = {
      ...failed("api-eu", new Date(NOW.getTime() - 23 * HOUR)),
      key: "maintenance-failed:held",
      until: new Date(NOW.getTime() + 48 * HOUR),
    };
    await recordNotificationEvents(t.db, [expiring], new Date(NOW.getTime() - 23 * HOUR));
    await t.db.notificationSubscription.update({
      where: { id },
      data: { kinds: ["shoot-unhealthy", "maintenance-failed"] },
    });
    expect(await fanOutConditionEvents(t.db, id, NOW)).toBe(1);
    channel = emailChannel(settings());

    // Made now, it waits for today's digest at 07:00, not yesterday's that has passed.
    expect(await deliverDueNotifications(t.db, [channel], NOW, DEFAULTS)).toMatchObject({ claimed: 1, deferred: 1 });
    const [row] = await deliveries();
    expect(row.nextAttemptAt).toEqual(DIGEST);
    expect(receiver.mails).toHaveLength(0);
  });
});

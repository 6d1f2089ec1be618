// The e-mail channel against a real SMTP server on loopback (smtp-server): a mail per event with
// its subject, bodies and Message-ID, with and without sign-in; the daily digest as one mail at
// its moment and not before; a 451 retried, a 550 given up with the server's answer; no server
// configured, a clear error. Here the channel is called as the worker calls it, with a claimed batch.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { ClaimedDelivery, NotificationEventRow, SubscriptionRow } from "../../lib/server/notification-channel.ts";
import { EMAIL_NOT_CONFIGURED, emailChannel, type EmailChannel } from "../../lib/server/notification-mail.ts";
import type { MailSettings } from "../../lib/server/notification-mail-settings.ts";
import { type SmtpReceiver, startSmtpReceiver } from "../support/smtp-receiver.ts";

const FROM = "Almanac <almanac@example.com>";
const SUMMARY =
  "garden-dev/api-eu: Gardener will force-update Kubernetes 1.31.4 → 1.32.9 on 2026-12-01 03:00 UTC (in 7 days): 1.31.4 expires";

let receiver: SmtpReceiver | undefined;
let channel: EmailChannel | undefined;
afterEach(async () => {
  await channel?.close();
  channel = undefined;
  await receiver?.close();
  receiver = undefined;
});

function subscription(overrides: Partial<SubscriptionRow> = {}): SubscriptionRow {
  return {
    id: randomUUID(),
    channel: "email",
    name: null,
    url: null,
    secret: null,
    emailTo: "ops@example.com, sre@example.com",
    digest: "each",
    kinds: ["forced-update", "shoot-unhealthy"],
    days: [7, 1],
    project: null,
    shootNamespace: null,
    shootName: null,
    enabled: true,
    createdBy: "admin",
    createdAt: new Date("2026-11-01T00:00:00Z"),
    updatedAt: new Date("2026-11-01T00:00:00Z"),
    ...overrides,
  };
}

function event(overrides: Partial<NotificationEventRow> = {}): NotificationEventRow {
  return {
    id: randomUUID(),
    kind: "forced-update",
    key: `forced-update:${randomUUID()}`,
    occurredAt: new Date("2026-11-24T03:00:00Z"),
    until: new Date("2026-12-01T03:00:00Z"),
    projects: ["dev"],
    shootNamespace: "garden-dev",
    shootName: "api-eu",
    days: 7,
    summary: SUMMARY,
    data: { from: "1.31.4", to: "1.32.9", reason: "<expired>" },
    createdAt: new Date("2026-11-24T03:00:00Z"),
    ...overrides,
  };
}

function claimed(sub: SubscriptionRow, ev: NotificationEventRow, attempt = 1): ClaimedDelivery {
  // Made when the later of its event and its subscription was (as the fan-out makes it).
  const createdAt = ev.createdAt > sub.createdAt ? ev.createdAt : sub.createdAt;
  return { id: randomUUID(), attempt, createdAt, subscription: sub, event: ev };
}

function settings(overrides: Partial<MailSettings> = {}): MailSettings {
  return {
    smtp: { url: receiver?.url ?? "smtp://127.0.0.1:1" },
    from: FROM,
    digestTime: "07:00",
    digestZone: "UTC",
    publicUrl: "https://almanac.example.com",
    timeouts: { connection: 3_000, greeting: 3_000, socket: 5_000 },
    ...overrides,
  };
}

describe("one mail per event", () => {
  it("arrives with the summary as subject, both bodies, the link and a Message-ID from the delivery", async () => {
    receiver = await startSmtpReceiver();
    channel = emailChannel(settings());
    const sub = subscription();
    const delivery = claimed(sub, event());
    const outcomes = await channel.deliver([delivery], new Date("2026-11-24T03:01:00Z"));

    expect(outcomes.get(delivery.id)).toMatchObject({ ok: true, status: 250 });
    expect((outcomes.get(delivery.id) as { response: string }).response).toContain("Ok: queued");
    const [mail] = await receiver.received(1);
    expect(mail.from).toBe("almanac@example.com");
    expect(mail.to).toEqual(["ops@example.com", "sre@example.com"]);
    expect(mail.subject).toBe(`[Almanac] ${SUMMARY}`);
    expect(mail.headers.get("message-id")).toBe(`<${delivery.id}@example.com>`);
    expect(mail.headers.get("x-almanac-delivery")).toBe(delivery.id);
    expect(mail.headers.get("x-almanac-event")).toBe(delivery.event.id);
    expect(mail.headers.get("x-almanac-event-type")).toBe("forced-update");
    expect(mail.headers.get("auto-submitted")).toBe("auto-generated");
    expect(mail.text).toContain(SUMMARY);
    expect(mail.text).toContain("Shoot: garden-dev/api-eu");
    expect(mail.text).toContain("Open in Almanac: https://almanac.example.com/shoots/garden-dev/api-eu");
    expect(mail.html).toContain('<a href="https://almanac.example.com/shoots/garden-dev/api-eu">Open in Almanac</a>');
    expect(mail.html).toContain("&lt;expired&gt;");
    expect(mail.html).not.toContain("<expired>");
  });

  it("signs in when the server asks, with a host and its parts", async () => {
    receiver = await startSmtpReceiver({ auth: { user: "almanac", pass: "s3cret pass" } });
    channel = emailChannel(
      settings({
        smtp: { host: "127.0.0.1", port: receiver.port, secure: false, auth: { user: "almanac", pass: "s3cret pass" } },
      }),
    );
    const delivery = claimed(subscription({ emailTo: "ops@example.com" }), event());
    const outcomes = await channel.deliver([delivery], new Date());
    expect(outcomes.get(delivery.id)).toMatchObject({ ok: true });
    const [mail] = await receiver.received(1);
    expect(mail.user).toBe("almanac");
    expect(mail.to).toEqual(["ops@example.com"]);
  });

  it("gives up when the server refuses the sign-in, keeping its answer, never the password", async () => {
    receiver = await startSmtpReceiver({ auth: { user: "almanac", pass: "right" } });
    channel = emailChannel(settings({ smtp: { url: `smtp://almanac:wrong-pw@127.0.0.1:${receiver.port}` } }));
    const delivery = claimed(subscription(), event());
    const outcome = (await channel.deliver([delivery], new Date())).get(delivery.id);
    expect(outcome).toMatchObject({ ok: false, status: 535, retry: false });
    expect(JSON.stringify(outcome)).not.toContain("wrong-pw");
    expect(receiver.mails).toHaveLength(0);
  });

  it("sends each delivery of a batch as its own mail", async () => {
    receiver = await startSmtpReceiver();
    channel = emailChannel(settings());
    const sub = subscription();
    const batch = [
      claimed(sub, event()),
      claimed(sub, event({ kind: "shoot-unhealthy", summary: "garden-dev/web: unhealthy", days: null })),
    ];
    const outcomes = await channel.deliver(batch, new Date());
    expect([...outcomes.values()].every((o) => "ok" in o && o.ok)).toBe(true);
    const mails = await receiver.received(2);
    expect(mails.map((m) => m.headers.get("message-id")).sort()).toEqual(
      batch.map((d) => `<${d.id}@example.com>`).sort(),
    );
  });
});

describe("SMTP failures", () => {
  it("retries a 451, and the next attempt is delivered", async () => {
    receiver = await startSmtpReceiver();
    receiver.answers = [{ code: 451, message: "4.3.0 Try again later" }];
    channel = emailChannel(settings());
    const delivery = claimed(subscription(), event());

    const first = (await channel.deliver([delivery], new Date())).get(delivery.id);
    expect(first).toMatchObject({ ok: false, status: 451, retry: true });
    expect((first as { response: string }).response).toContain("4.3.0 Try again later");
    expect(receiver.mails).toHaveLength(0);

    const second = (await channel.deliver([{ ...delivery, attempt: 2 }], new Date())).get(delivery.id);
    expect(second).toMatchObject({ ok: true, status: 250 });
    const [mail] = await receiver.received(1);
    expect(mail.headers.get("message-id")).toBe(`<${delivery.id}@example.com>`);
  });

  it("gives up on a 550 and keeps the server's answer", async () => {
    receiver = await startSmtpReceiver();
    receiver.answers = [{ code: 550, message: "5.7.1 Message rejected by policy" }];
    channel = emailChannel(settings());
    const delivery = claimed(subscription(), event());
    const outcome = (await channel.deliver([delivery], new Date())).get(delivery.id);
    expect(outcome).toMatchObject({ ok: false, status: 550, retry: false });
    expect((outcome as { response: string }).response).toContain("5.7.1 Message rejected by policy");
    expect((outcome as { error: string }).error).toContain("550");
  });

  it("retries when the server cannot be reached", async () => {
    receiver = await startSmtpReceiver();
    const port = receiver.port;
    await receiver.close();
    receiver = undefined;
    channel = emailChannel(settings({ smtp: { url: `smtp://127.0.0.1:${port}` } }));
    const sub = subscription();
    const [first, ...rest] = [claimed(sub, event()), claimed(sub, event()), claimed(sub, event())];
    const outcomes = await channel.deliver([first, ...rest], new Date());
    const outcome = outcomes.get(first.id);
    expect(outcome).toMatchObject({ ok: false, retry: true });
    expect((outcome as { error: string }).error).toMatch(/ECONNREFUSED|connect/i);
    // The rest of the batch is not tried against a server that is away: retried later.
    for (const delivery of rest) {
      expect(outcomes.get(delivery.id)).toMatchObject({ ok: false, retry: true });
      expect((outcomes.get(delivery.id) as { error: string }).error).toMatch(/^not tried: an earlier mail/);
    }
  });
});

describe("no SMTP server configured", () => {
  it("gives up every delivery with a clear error, digest or not", async () => {
    channel = emailChannel({ digestTime: "07:00", digestZone: "UTC" });
    const each = claimed(subscription(), event());
    const daily = claimed(subscription({ digest: "daily" }), event());
    const outcomes = await channel.deliver([each, daily], new Date());
    for (const delivery of [each, daily])
      expect(outcomes.get(delivery.id)).toEqual({ ok: false, error: EMAIL_NOT_CONFIGURED, retry: false });
    expect(EMAIL_NOT_CONFIGURED).toBe("e-mail is not configured (ALMANAC_SMTP_URL)");
  });
});

describe("the daily digest", () => {
  const zone = "Europe/Berlin";
  // 2026-11-28 07:00 in Berlin (CET, +1) is 06:00 UTC.
  const moment = new Date("2026-11-28T06:00:00Z");

  it("waits until the digest moment, then sends ONE mail with every event, all delivered together", async () => {
    receiver = await startSmtpReceiver();
    channel = emailChannel(settings({ digestZone: zone, digestPerKind: 2 }));
    const sub = subscription({ digest: "daily", emailTo: "ops@example.com" });
    const madeAt = (iso: string) => ({ createdAt: new Date(iso), occurredAt: new Date(iso) });
    const batch = [
      claimed(sub, event({ summary: "forced one", ...madeAt("2026-11-27T08:00:00Z") })),
      claimed(sub, event({ summary: "forced two", ...madeAt("2026-11-27T09:00:00Z") })),
      claimed(sub, event({ summary: "forced three", ...madeAt("2026-11-27T10:00:00Z") })),
      claimed(
        sub,
        event({ kind: "shoot-unhealthy", summary: "garden-dev/web: <unhealthy>", ...madeAt("2026-11-27T11:00:00Z") }),
      ),
    ];

    // Before the moment: every delivery waits for it, and nothing is sent.
    const early = await channel.deliver(batch, new Date("2026-11-28T05:59:59Z"));
    for (const delivery of batch) expect(early.get(delivery.id)).toEqual({ deferUntil: moment });
    expect(receiver.mails).toHaveLength(0);

    // At the moment: one mail.
    const outcomes = await channel.deliver(batch, moment);
    const results = batch.map((d) => outcomes.get(d.id));
    expect(results[0]).toMatchObject({ ok: true, status: 250 });
    for (const result of results) expect(result).toEqual(results[0]);
    const [mail] = await receiver.received(1);
    expect(receiver.mails).toHaveLength(1);
    expect(mail.subject).toBe("[Almanac] Daily digest for 2026-11-28: 4 notifications");
    expect(mail.headers.get("x-almanac-digest")).toBe("4");
    expect(mail.text).toContain("3 forced updates, 1 shoot unhealthy");
    expect(mail.text).toContain("Forced updates (3)");
    expect(mail.text).toContain("- forced one");
    expect(mail.text).toContain("- forced two");
    expect(mail.text).not.toContain("forced three");
    expect(mail.text).toContain("and 1 more");
    expect(mail.text).toContain("Shoot unhealthy (1)");
    expect(mail.html).toContain("garden-dev/web: &lt;unhealthy&gt;");
  });

  it("keeps an event made after the moment for the next digest", async () => {
    receiver = await startSmtpReceiver();
    channel = emailChannel(settings({ digestZone: zone }));
    const sub = subscription({ digest: "daily" });
    const before = claimed(sub, event({ createdAt: new Date("2026-11-27T20:00:00Z") }));
    const after = claimed(sub, event({ createdAt: new Date("2026-11-28T06:30:00Z") }));
    const outcomes = await channel.deliver([before, after], new Date("2026-11-28T06:45:00Z"));
    expect(outcomes.get(before.id)).toMatchObject({ ok: true });
    expect(outcomes.get(after.id)).toEqual({ deferUntil: new Date("2026-11-29T06:00:00Z") });
    const [mail] = await receiver.received(1);
    expect(mail.subject).toBe("[Almanac] Daily digest for 2026-11-28: 1 notification");
  });

  it("counts a delivery's wait from its own creation when the worker hands it", async () => {
    receiver = await startSmtpReceiver();
    channel = emailChannel(settings({ digestZone: zone }));
    // An old event given to a subscription changed after the moment: it waits for the next digest.
    const picked = {
      ...claimed(subscription({ digest: "daily" }), event({ createdAt: new Date("2026-11-20T00:00:00Z") })),
      createdAt: new Date("2026-11-28T06:30:00Z"),
    };
    const outcomes = await channel.deliver([picked], new Date("2026-11-28T06:45:00Z"));
    expect(outcomes.get(picked.id)).toEqual({ deferUntil: new Date("2026-11-29T06:00:00Z") });
    expect(receiver.mails).toHaveLength(0);
  });

  it("retries the whole digest together after a 451, as the same message", async () => {
    receiver = await startSmtpReceiver();
    receiver.answers = [{ code: 451, message: "4.7.1 Greylisted" }];
    channel = emailChannel(settings({ digestZone: zone }));
    const sub = subscription({ digest: "daily" });
    const batch = [1, 2, 3].map((n) =>
      claimed(sub, event({ summary: `event ${n}`, createdAt: new Date("2026-11-27T12:00:00Z") })),
    );
    const failed = await channel.deliver(batch, moment);
    for (const delivery of batch)
      expect(failed.get(delivery.id)).toMatchObject({ ok: false, status: 451, retry: true });
    const later = new Date(moment.getTime() + 30_000);
    const retried = await channel.deliver(
      batch.map((d) => ({ ...d, attempt: 2 })),
      later,
    );
    for (const delivery of batch) expect(retried.get(delivery.id)).toMatchObject({ ok: true });
    const [mail] = await receiver.received(1);
    expect(mail.text).toContain("- event 1");
    expect(mail.text).toContain("- event 3");
    expect(mail.headers.get("message-id")).toMatch(/^<digest-[0-9a-f]{32}@example\.com>$/);
  });

  it("sends a test event at once, without waiting for the digest", async () => {
    receiver = await startSmtpReceiver();
    channel = emailChannel(settings({ digestZone: zone }));
    const test = claimed(
      subscription({ digest: "daily" }),
      event({ kind: "test", summary: "A test from Almanac", days: null, shootName: null, shootNamespace: null }),
    );
    const outcomes = await channel.deliver([test], new Date("2026-11-28T12:00:00Z"));
    expect(outcomes.get(test.id)).toMatchObject({ ok: true });
    const [mail] = await receiver.received(1);
    expect(mail.subject).toBe("[Almanac] A test from Almanac");
  });
});

// The e-mail channel (issue 30): deliveries of an e-mail subscription go out over SMTP through
// nodemailer, one mail per event ("each") or once a day as one digest of every event that waited
// ("daily"). The worker (notification-worker.ts) claims a subscription's due deliveries together,
// calls deliver, and keeps the outcome of each as an attempt.
//
// - "each": a mail per delivery, its Message-ID made from the delivery's id, so a mail re-sent
//   after a crash (the server took it, the commit did not happen) is the same message to the
//   receiver, who can drop the second copy.
// - "daily": a delivery waits (deferUntil, not an attempt) for the first digest moment after it
//   was made; at that moment its subscription's waiting deliveries are claimed together and go as
//   ONE mail, and each gets the same outcome, so they are marked delivered, or retried, together.
//   The send-a-test event never waits: a test is meant to arrive now.
// - An SMTP answer 4xx (and 503, a session in the wrong state) or a connection that failed is
//   retried; a 5xx is the server refusing that mail for good, so the delivery gives up, keeping the
//   server's answer. No SMTP server configured: every delivery gives up at once, saying so.
import { createHash } from "node:crypto";
import nodemailer, { type NodemailerError, type Transporter } from "nodemailer";
import { config } from "../config/load-config.ts";
import { redactSecrets } from "../engine/redact-secrets.ts";
import { digestMail, eventMail, type MailEvent, type RenderedMail } from "../engine/notification-text.ts";
import type { ClaimedDelivery, DeliveryOutcome, NotificationChannel } from "./notification-channel.ts";
import { dayInZone, nextDigestMoment } from "./notification-mail-digest.ts";
import {
  DEFAULT_MAIL_TIMEOUTS,
  EMAIL_NOT_CONFIGURED,
  type MailSettings,
  mailSettings,
} from "./notification-mail-settings.ts";

export { EMAIL_NOT_CONFIGURED } from "./notification-mail-settings.ts";

// notification_attempts keeps the first 1 KB of an answer.
const RESPONSE_MAX = 1024;

// How long one batch of "each" mails may take before the rest wait for a later attempt: the
// worker's claim on the batch must outlast it (a claim that runs out lets another process send
// the same mails again).
const BATCH_BUDGET_MS = 120_000;

// Codes of failures before any SMTP answer that a later attempt may get past: the server or the
// network was away, slow or dropped the line. Anything else without an answer (a bad envelope,
// missing credentials) would fail again the same way.
const TRANSIENT_CODES = new Set([
  "ECONNECTION",
  "ETIMEDOUT",
  "ESOCKET",
  "EDNS",
  "ETLS",
  "EPROXY",
  "ECONNREFUSED",
  "ECONNRESET",
]);

export interface EmailChannel extends NotificationChannel {
  /** Closes the SMTP transport's connections (a worker that stops). */
  close(): Promise<void>;
}

/** The event as the mail text takes it. */
function mailEvent(delivery: ClaimedDelivery): MailEvent {
  const { event } = delivery;
  return {
    kind: event.kind,
    summary: event.summary,
    occurredAt: event.occurredAt,
    projects: event.projects,
    shoot: event.shootNamespace && event.shootName ? { namespace: event.shootNamespace, name: event.shootName } : null,
    days: event.days,
    data: event.data,
  };
}

/** The domain Message-IDs are made in: the sender's, which is ours to name messages in. */
function messageDomain(from: string | undefined): string {
  const address = from?.match(/<([^<>]+)>\s*$/)?.[1] ?? from ?? "";
  const domain = address.slice(address.lastIndexOf("@") + 1).trim();
  return /^[A-Za-z0-9.-]+$/.test(domain) ? domain : "almanac.invalid";
}

/**
 * When a delivery began to wait: its own creation time when the worker hands it over; else the
 * later of its event's and its subscription's creation (a delivery is made when its event is
 * recorded, or when a subscription made later picks up an event that still holds).
 */
function waitingSince(delivery: ClaimedDelivery & { readonly createdAt?: Date }): Date {
  if (delivery.createdAt) return delivery.createdAt;
  const { event, subscription } = delivery;
  return event.createdAt > subscription.createdAt ? event.createdAt : subscription.createdAt;
}

/** Whether a daily digest's delivery waits: the test event never does. */
const waitsForDigest = (delivery: ClaimedDelivery) =>
  delivery.subscription.digest === "daily" && delivery.event.kind !== "test";

function failure(error: unknown): DeliveryOutcome & { ok: false } {
  const e = error as NodemailerError;
  const message = redactSecrets(e instanceof Error ? e.message : String(error));
  const response = e.response ? redactSecrets(e.response).slice(0, RESPONSE_MAX) : undefined;
  if (typeof e.responseCode === "number") {
    // nodemailer's reading of the reply class: 5xx but 503 is permanent.
    const permanent = e.permanent ?? (e.responseCode >= 500 && e.responseCode !== 503);
    return { ok: false, status: e.responseCode, error: message, response, retry: !permanent };
  }
  const code = e.code ?? "";
  return { ok: false, error: message, response, retry: TRANSIENT_CODES.has(code) || code === "" };
}

/** The e-mail channel, on the process's configuration unless given settings of its own (tests). */
export function emailChannel(settings: MailSettings = mailSettings(config())): EmailChannel {
  let transporter: Transporter | undefined;
  const timeouts = settings.timeouts ?? DEFAULT_MAIL_TIMEOUTS;
  const domain = messageDomain(settings.from);

  function transport(): Transporter {
    if (!settings.smtp) throw new Error(EMAIL_NOT_CONFIGURED);
    transporter ??= nodemailer.createTransport({
      ...settings.smtp,
      connectionTimeout: timeouts.connection,
      greetingTimeout: timeouts.greeting,
      socketTimeout: timeouts.socket,
    });
    return transporter;
  }

  async function send(
    to: string,
    mail: RenderedMail,
    id: string,
    headers: Record<string, string>,
  ): Promise<DeliveryOutcome> {
    // The attempt's own time (a digest's deliveries each took the whole mail's).
    const started = performance.now();
    const durationMs = () => Math.round(performance.now() - started);
    try {
      const info = await transport().sendMail({
        from: settings.from,
        to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${id}@${domain}>`,
        headers: { "Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All", ...headers },
      });
      const answer = String(info.response ?? "");
      const rejected = (info.rejected ?? []).map(String);
      const response = (rejected.length > 0 ? `${answer} (refused: ${rejected.join(", ")})` : answer).slice(
        0,
        RESPONSE_MAX,
      );
      const status = Number(/^\d{3}/.exec(answer)?.[0]) || undefined;
      return { ok: true, status, response, durationMs: durationMs() };
    } catch (error) {
      return { ...failure(error), durationMs: durationMs() };
    }
  }

  async function sendEach(delivery: ClaimedDelivery): Promise<DeliveryOutcome> {
    const mail = eventMail(mailEvent(delivery), { publicUrl: settings.publicUrl });
    return send(delivery.subscription.emailTo ?? "", mail, delivery.id, {
      "X-Almanac-Delivery": delivery.id,
      "X-Almanac-Event": delivery.event.id,
      "X-Almanac-Event-Type": delivery.event.kind,
    });
  }

  async function sendDigest(due: readonly ClaimedDelivery[], now: Date): Promise<DeliveryOutcome> {
    const mail = digestMail(due.map(mailEvent), {
      publicUrl: settings.publicUrl,
      perKind: settings.digestPerKind,
      day: dayInZone(now, settings.digestZone),
    });
    // The same deliveries make the same Message-ID: a digest re-sent after a failure is one
    // message to the receiver.
    const ids = due.map((d) => d.id).sort();
    const digestId = `digest-${createHash("sha256").update(ids.join(",")).digest("hex").slice(0, 32)}`;
    return send(due[0].subscription.emailTo ?? "", mail, digestId, {
      "X-Almanac-Digest": String(due.length),
    });
  }

  return {
    channel: "email",
    async deliver(batch, now) {
      const outcomes = new Map<string, DeliveryOutcome>();
      if (!settings.smtp) {
        for (const delivery of batch)
          outcomes.set(delivery.id, { ok: false, error: EMAIL_NOT_CONFIGURED, retry: false });
        return outcomes;
      }
      const each: ClaimedDelivery[] = [];
      const due: ClaimedDelivery[] = [];
      for (const delivery of batch) {
        if (!waitsForDigest(delivery)) {
          each.push(delivery);
          continue;
        }
        const moment = nextDigestMoment(waitingSince(delivery), settings.digestTime, settings.digestZone);
        if (moment > now) outcomes.set(delivery.id, { deferUntil: moment });
        else due.push(delivery);
      }
      // One after the other, within the claim's time: once the server cannot be reached, or the
      // batch has taken its time, the rest are failed attempts retried later, not tried now.
      const started = performance.now();
      let notTried: string | undefined;
      for (const delivery of each) {
        if (!notTried && performance.now() - started > BATCH_BUDGET_MS)
          notTried = "not tried: the batch's mails took too long";
        if (notTried) {
          outcomes.set(delivery.id, { ok: false, error: notTried, retry: true });
          continue;
        }
        const outcome = await sendEach(delivery);
        outcomes.set(delivery.id, outcome);
        if ("ok" in outcome && !outcome.ok && outcome.retry && outcome.status === undefined)
          notTried = `not tried: an earlier mail of the batch failed (${outcome.error})`;
      }
      if (due.length > 0) {
        const outcome = await sendDigest(due, now);
        for (const delivery of due) outcomes.set(delivery.id, outcome);
      }
      return outcomes;
    },
    async close() {
      transporter?.close();
      transporter = undefined;
    },
  };
}

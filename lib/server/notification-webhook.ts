// The webhook channel (issue 30): one signed JSON POST per delivery. The signature is the
// HMAC-SHA256 of the exact bytes sent; the connection goes only to allowed addresses (the lookup
// and the connected socket are both checked: notification-target.ts); redirects are recorded,
// never followed; every attempt has a time limit, so a receiver that hangs costs its own
// subscription a timeout and nothing else.
import { createHmac } from "node:crypto";
import { config } from "../config/load-config.ts";
import { Agent, buildConnector, request } from "undici";
import type { WebhookBody } from "../api/notifications.ts";
import { WEBHOOK_HEADERS } from "../api/notifications.ts";
import type { ClaimedDelivery, DeliveryOutcome, NotificationChannel } from "./notification-channel.ts";
import { guardedLookup, RefusedTargetError, refusedRange } from "./notification-target.ts";
import { retryDelayMs } from "./notification-worker.ts";

export interface WebhookChannelOptions {
  /** ALMANAC_WEBHOOK_ALLOW_PRIVATE. */
  readonly allowPrivate: boolean;
  /** ALMANAC_WEBHOOK_TIMEOUT_SECONDS, in ms: connection, answer and its first 1 KB together. */
  readonly timeoutMs: number;
  /** ALMANAC_PUBLIC_URL: links in `text`. */
  readonly publicUrl?: string;
}

/** How much of an answer is kept. */
export const RESPONSE_KEEP_BYTES = 1024;

// Slack's mrkdwn: these three are markup; the rest of the summary is text.
const slackEscape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The summary, with a link to what it is about when Almanac's address is known. */
export function slackText(delivery: ClaimedDelivery, publicUrl: string | undefined): string {
  const { event } = delivery;
  const text = slackEscape(event.summary);
  if (!publicUrl) return text;
  const base = publicUrl.replace(/\/+$/, "");
  const runId = typeof event.data.runId === "string" ? event.data.runId : undefined;
  if (event.shootNamespace && event.shootName) {
    const label = `${event.shootNamespace}/${event.shootName}`;
    return `${text} <${base}/shoots/${encodeURIComponent(event.shootNamespace)}/${encodeURIComponent(event.shootName)}|${slackEscape(label)}>`;
  }
  if (runId) return `${text} <${base}/update-runs/${encodeURIComponent(runId)}|update run>`;
  return text;
}

export function webhookBody(delivery: ClaimedDelivery, now: Date, publicUrl: string | undefined): WebhookBody {
  const { event } = delivery;
  return {
    id: delivery.id,
    eventId: event.id,
    type: event.kind as WebhookBody["type"],
    timestamp: now.toISOString(),
    occurredAt: event.occurredAt.toISOString(),
    text: slackText(delivery, publicUrl),
    summary: event.summary,
    projects: event.projects,
    shoot: event.shootNamespace && event.shootName ? { namespace: event.shootNamespace, name: event.shootName } : null,
    ...(event.days !== null ? { days: event.days } : {}),
    data: event.data,
  };
}

/** `sha256=<hex>`: the HMAC-SHA256 of `raw` with `secret`. */
export const webhookSignature = (secret: string, raw: Buffer | string): string =>
  `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;

/** A connector whose connections reach only allowed addresses (when private ones are refused). */
function guardedConnector(options: WebhookChannelOptions): buildConnector.connector {
  const base = buildConnector({
    timeout: options.timeoutMs,
    ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
  });
  if (options.allowPrivate) return base;
  return (connectOptions, callback) =>
    base(connectOptions, (error, socket) => {
      if (error) {
        callback(error, null);
        return;
      }
      // An address literal in the URL skips the lookup: judge where the socket went.
      const remote = socket!.remoteAddress ?? "";
      const range = refusedRange(remote);
      if (range) {
        socket!.destroy();
        callback(new RefusedTargetError(connectOptions.hostname, remote, range), null);
        return;
      }
      callback(null, socket!);
    });
}

function refusalIn(error: unknown): RefusedTargetError | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof RefusedTargetError) return e;
  return undefined;
}

const errorText = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code;
  const base = error.message || error.name;
  return code && !base.includes(code) ? `${base} (${code})` : base;
};

async function firstBytes(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_KEEP_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_KEEP_BYTES).toString("utf8");
}

export interface WebhookChannel extends NotificationChannel {
  /** Closes its connections (the worker stops). */
  close(): Promise<void>;
}

export function webhookChannel(options: WebhookChannelOptions): WebhookChannel {
  const agent = new Agent({ connect: guardedConnector(options), keepAliveTimeout: 4_000 });
  const seconds = options.timeoutMs / 1000;

  async function send(delivery: ClaimedDelivery, now: Date): Promise<DeliveryOutcome> {
    const { subscription } = delivery;
    if (!subscription.url || !subscription.secret)
      return { ok: false, error: "the subscription has no url or secret", retry: false };
    const raw = Buffer.from(JSON.stringify(webhookBody(delivery, now, options.publicUrl)), "utf8");
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      const answer = await request(subscription.url, {
        method: "POST",
        body: raw,
        headers: {
          "content-type": "application/json",
          "user-agent": "Almanac-Webhook",
          [WEBHOOK_HEADERS.signature]: webhookSignature(subscription.secret, raw),
          [WEBHOOK_HEADERS.delivery]: delivery.id,
          [WEBHOOK_HEADERS.timestamp]: String(Math.floor(now.getTime() / 1000)),
        },
        dispatcher: agent,
        signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      const status = answer.statusCode;
      const response = await firstBytes(answer.body);
      if (status >= 200 && status < 300) return { ok: true, status, ...(response ? { response } : {}) };
      const location = answer.headers.location;
      const error =
        status >= 300 && status < 400
          ? `redirected to ${Array.isArray(location) ? location[0] : (location ?? "(no Location)")}; redirects are not followed`
          : `the receiver answered ${status}`;
      return { ok: false, status, error, ...(response ? { response } : {}), retry: true };
    } catch (error) {
      const refused = refusalIn(error);
      if (refused) return { ok: false, error: refused.message, retry: false };
      if (signal.aborted) return { ok: false, error: `no answer within ${seconds} s`, retry: true };
      return { ok: false, error: errorText(error), retry: true };
    }
  }

  return {
    channel: "webhook",
    async deliver(batch, now) {
      const outcomes = new Map<string, DeliveryOutcome>();
      // In order. Once the receiver fails, the rest wait without an attempt until the failed
      // delivery's own retry (the worker's backoff, from `now` as the worker counts it), so a dead
      // receiver is tried once per backoff step, not once per delivery. A refused target is not
      // a receiver failing: each delivery is judged on its own (a refusal costs a lookup, or a
      // connection that is closed at once), so every failure stored is an attempt that happened.
      let waitUntil: Date | undefined;
      for (const delivery of batch) {
        if (waitUntil) {
          outcomes.set(delivery.id, { deferUntil: waitUntil });
          continue;
        }
        const at = new Date(Math.max(now.getTime(), Date.now()));
        const started = performance.now();
        const outcome = { ...(await send(delivery, at)), durationMs: Math.round(performance.now() - started) };
        outcomes.set(delivery.id, outcome);
        if ("ok" in outcome && !outcome.ok && outcome.retry)
          waitUntil = new Date(now.getTime() + retryDelayMs(delivery.attempt));
      }
      return outcomes;
    },
    close: () => agent.close(),
  };
}

/** The webhook channel as the settings say (ALMANAC_WEBHOOK_*, ALMANAC_PUBLIC_URL). */
export function configuredWebhookChannel(): WebhookChannel {
  const settings = config();
  return webhookChannel({
    allowPrivate: settings.notifications.webhookAllowPrivate,
    timeoutMs: settings.notifications.webhookTimeoutMs,
    ...(settings.server.publicUrl ? { publicUrl: settings.server.publicUrl } : {}),
  });
}

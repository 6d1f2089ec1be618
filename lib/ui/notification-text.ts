// What the notifications pages say, pure: each event kind in words (and whether it takes days),
// where a subscription sends (a webhook's host, an e-mail's addresses), what it covers, a
// delivery's state and an attempt's outcome in words, and a fresh secret for a webhook.
import {
  DEFAULT_NOTIFICATION_DAYS,
  NOTIFICATION_DAYS_MAX,
  NOTIFICATION_KINDS,
  WEBHOOK_SECRET_MIN_LENGTH,
  type NotificationKind,
} from "../api/notifications.ts";
import type { Tone } from "./status.ts";

/** The kinds a person may subscribe to, in the order the form lists them (the API's order). */
export const KIND_ORDER: readonly NotificationKind[] = NOTIFICATION_KINDS;
export type SubscribableKind = NotificationKind;

export interface KindMeta {
  /** A short label for checkboxes and badges. */
  readonly label: string;
  /** One line of what it means, and when it is sent. */
  readonly meaning: string;
  /** Whether its events come per threshold of days (forced-update, version-expiring). */
  readonly days: boolean;
}

export const KIND_META: Record<SubscribableKind | "test", KindMeta> = {
  "forced-update": {
    label: "Forced update ahead",
    meaning:
      "Gardener will force a cluster's Kubernetes or machine image version to a newer one in a maintenance window within the days below (its version expires).",
    days: true,
  },
  "version-expiring": {
    label: "Version expiring",
    meaning: "A Kubernetes or machine image version a cluster runs expires within the days below.",
    days: true,
  },
  stuck: {
    label: "Cluster will be stuck",
    meaning:
      "A cluster's version expires and there is no version to move it to: Gardener cannot update it, it stays on an expired version.",
    days: false,
  },
  "maintenance-failed": {
    label: "Maintenance failed",
    meaning: "A cluster's maintenance (its window, or maintain now) failed.",
    days: false,
  },
  "migration-failed": {
    label: "Migration failed",
    meaning: "A control plane migration to another seed failed.",
    days: false,
  },
  "migration-finished": {
    label: "Migration finished",
    meaning: "A control plane migration to another seed finished.",
    days: false,
  },
  "shoot-unhealthy": {
    label: "Cluster unhealthy",
    meaning: "A cluster turned unhealthy: a condition went False or its last operation failed.",
    days: false,
  },
  "update-run-waiting": {
    label: "Update run waits for approval",
    meaning: "An update run's stage waits for a person to approve it.",
    days: false,
  },
  "update-run-paused": {
    label: "Update run paused",
    meaning: "An update run paused: its health gate held it, or a person paused it.",
    days: false,
  },
  test: { label: "Test", meaning: 'Sent with "Send a test" to check the receiver.', days: false },
};

/** The words of a kind, also of one these pages do not know yet (a newer server). */
export const kindMeta = (kind: string): KindMeta =>
  (KIND_META as Record<string, KindMeta | undefined>)[kind] ?? { label: kind, meaning: "", days: false };

/** Whether any of these kinds takes days (then the form asks for them). */
export const kindsTakeDays = (kinds: readonly string[]) => kinds.some((k) => kindMeta(k).days);

/** The days a new subscription starts with (the issue: a week ahead, and the day before). */
export const DEFAULT_DAYS: readonly number[] = DEFAULT_NOTIFICATION_DAYS;
export const MAX_DAYS = NOTIFICATION_DAYS_MAX;

/**
 * "7, 1" (or "7 1", "7;1") as the days, largest first and each once; `error` when a value is not
 * a whole number of days from 1 to 90, or none is given.
 */
export function parseDays(text: string): { days: number[]; error?: string } {
  const parts = text
    .split(/[\s,;]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return { days: [], error: "Give at least one number of days, e.g. 7, 1." };
  const days: number[] = [];
  for (const part of parts) {
    const n = Number(part);
    if (!/^\d+$/.test(part) || n < 1 || n > MAX_DAYS) {
      return { days: [], error: `"${part}" is not a number of days from 1 to ${MAX_DAYS}.` };
    }
    if (!days.includes(n)) days.push(n);
  }
  return { days: days.sort((a, b) => b - a) };
}

/** "7 and 1 days before", "30 days before". */
export function daysText(days: readonly number[]): string {
  const sorted = [...days].sort((a, b) => b - a);
  if (sorted.length === 0) return "";
  const last = sorted.at(-1)!;
  const list = sorted.length === 1 ? `${last}` : `${sorted.slice(0, -1).join(", ")} and ${last}`;
  return `${list} ${sorted.length === 1 && last === 1 ? "day" : "days"} before`;
}

export type Channel = "webhook" | "email";

export const CHANNEL_WORDS: Record<Channel, string> = { webhook: "Webhook", email: "E-mail" };

/** The API's collection, and the pages' path segment, of each channel. */
export const CHANNEL_PATH = { webhook: "webhooks", email: "email-subscriptions" } as const satisfies Record<
  Channel,
  string
>;

export const channelOfPath = (segment: string): Channel | undefined =>
  segment === CHANNEL_PATH.webhook ? "webhook" : segment === CHANNEL_PATH.email ? "email" : undefined;

/** The page of one subscription. */
export const subscriptionPage = (sub: { channel: Channel; id: string }) =>
  `/notifications/${CHANNEL_PATH[sub.channel]}/${encodeURIComponent(sub.id)}`;

/** A webhook's host (and port), which is what tells receivers apart; the URL as given when it is not one. */
export function urlHost(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** Where a subscription sends: the webhook's host, or the e-mail's addresses. */
export function targetText(sub: { channel: string; url?: string | null; to?: string | null }): string {
  return sub.channel === "webhook" ? urlHost(sub.url ?? "") : (sub.to ?? "");
}

/** What a subscription covers: "Whole landscape", "Project dev", "Cluster garden-dev/api". */
export function scopeText(sub: {
  project?: string | null;
  shoot?: { namespace: string; name: string } | null;
}): string {
  if (sub.shoot) return `Cluster ${sub.shoot.namespace}/${sub.shoot.name}`;
  return sub.project ? `Project ${sub.project}` : "Whole landscape";
}

export type DeliveryState = "Pending" | "Sending" | "Delivered" | "Failed";

export const DELIVERY_STATE_META: Record<DeliveryState, { word: string; tone: Tone; hint: string }> = {
  Pending: { word: "Pending", tone: "grey", hint: "Waiting for its (next) attempt." },
  Sending: { word: "Sending", tone: "blue", hint: "An attempt is under way." },
  Delivered: { word: "Delivered", tone: "green", hint: "The receiver accepted it." },
  Failed: { word: "Failed", tone: "red", hint: "Almanac gave up after its last attempt." },
};

export const deliveryStateMeta = (state: string) =>
  DELIVERY_STATE_META[state as DeliveryState] ?? { word: state, tone: "grey" as Tone, hint: "" };

/** Whether a delivery will still change (its page keeps reading it). */
export const isOpenDelivery = (state: string) => state === "Pending" || state === "Sending";

/** An attempt's outcome in words: "HTTP 200", "HTTP 503: Service Unavailable", "timed out after 10 s". */
export function attemptOutcome(attempt: { status?: number | null; error?: string | null }): string {
  const status =
    attempt.status == null ? "" : `${attempt.status >= 100 && attempt.status < 600 ? "HTTP " : ""}${attempt.status}`;
  if (status && attempt.error) return `${status}: ${attempt.error}`;
  return status || attempt.error || "no answer";
}

/** Whether an attempt succeeded: a 2xx answer (or an SMTP 2xx) and no error. */
export const attemptSucceeded = (attempt: { status?: number | null; error?: string | null }) =>
  !attempt.error && attempt.status != null && attempt.status >= 200 && attempt.status < 300;

/** The fewest characters the API takes for a secret. */
export const MIN_SECRET_LENGTH = WEBHOOK_SECRET_MIN_LENGTH;

/**
 * A new webhook secret: 32 random bytes as hex (64 characters), from the browser's (or Node's)
 * cryptographic random source.
 */
export function generateSecret(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

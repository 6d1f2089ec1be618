// /api/v1/webhooks and /api/v1/email-subscriptions (issue 30): who is told what, and how each
// message fared. Requests are loose to the schema (any strings, any numbers) so that a wrong value
// is answered 422 naming its field (checkSubscriptionFields), like every other rule it breaks.
import { z } from "zod";
import { component } from "./components.ts";
import type { FieldProblem } from "./problem.ts";
import { describes } from "./schema-agreement.ts";

/** The event kinds a subscription may ask for. */
export const NOTIFICATION_KINDS = [
  "forced-update",
  "version-expiring",
  "stuck",
  "maintenance-failed",
  "migration-failed",
  "migration-finished",
  "shoot-unhealthy",
  "update-run-waiting",
  "update-run-paused",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The send-a-test event's kind: delivered to one subscription, never subscribable. */
export const TEST_NOTIFICATION_KIND = "test";
export type NotificationEventKind = NotificationKind | typeof TEST_NOTIFICATION_KIND;

/** The kinds whose events carry a threshold in days (one event per threshold someone asks for). */
export const NOTIFICATION_KINDS_WITH_DAYS: readonly NotificationKind[] = ["forced-update", "version-expiring"];

export const NOTIFICATION_CHANNELS = ["webhook", "email"] as const;
export type NotificationChannelName = (typeof NOTIFICATION_CHANNELS)[number];

export const NOTIFICATION_DIGESTS = ["each", "daily"] as const;
export type NotificationDigest = (typeof NOTIFICATION_DIGESTS)[number];

export const DELIVERY_STATES = ["Pending", "Sending", "Delivered", "Failed"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export const DEFAULT_NOTIFICATION_DAYS: readonly number[] = [7, 1];
export const NOTIFICATION_DAYS_MIN = 1;
export const NOTIFICATION_DAYS_MAX = 90;
export const WEBHOOK_SECRET_MIN_LENGTH = 16;

export const isNotificationKind = (kind: string): kind is NotificationKind =>
  (NOTIFICATION_KINDS as readonly string[]).includes(kind);

export interface ShootRef {
  readonly namespace: string;
  readonly name: string;
}

/** A subscription as answered: never its secret (`hasSecret` says one is kept). */
export interface NotificationSubscriptionJson {
  readonly id: string;
  readonly channel: NotificationChannelName;
  readonly name: string | null;
  /** Webhook: the address it posts to, masked (scheme, host, the last four characters): it may carry a token. */
  readonly url?: string;
  /** Webhook: true (a secret is kept to sign with; it is never answered). */
  readonly hasSecret?: boolean;
  /** E-mail: one address or a comma list. */
  readonly to?: string;
  /** "each": one message per event; "daily": one e-mail digest a day (webhooks: always "each"). */
  readonly digest: NotificationDigest;
  readonly events: readonly NotificationKind[];
  /** The thresholds in days for forced-update and version-expiring. */
  readonly days: readonly number[];
  /** The project it covers; null: the whole landscape (or see shoot). */
  readonly project: string | null;
  /** One shoot only (its project is `project`). */
  readonly shoot: ShootRef | null;
  readonly enabled: boolean;
  readonly createdBy: string;
  readonly created: string;
  readonly updated: string;
  /** E-mail: why its mails cannot go out now (no SMTP server configured), when that is so. */
  readonly warning?: string;
  /** In the list: how its newest delivery fared (absent: none yet). */
  readonly lastDelivery?: NotificationLastDelivery;
}

/** A subscription's newest delivery, as the list shows it. */
export interface NotificationLastDelivery {
  readonly state: DeliveryState;
  /** When it was delivered, or else made. */
  readonly at: string;
  /** Its event's kind. */
  readonly type?: NotificationEventKind;
  /** The last attempt's HTTP status or SMTP reply code. */
  readonly lastStatus?: number;
  readonly lastError?: string;
}

export interface NotificationSubscriptionListAnswer {
  readonly items: readonly NotificationSubscriptionJson[];
}

/** One attempt of a delivery, with the receiver's answer. */
export interface DeliveryAttemptJson {
  readonly at: string;
  readonly durationMs: number;
  /** The HTTP status (webhook) or SMTP reply code (e-mail), when there was one. */
  readonly status?: number;
  readonly error?: string;
  /** The first 1 KB of the answer. */
  readonly response?: string;
}

export interface DeliveryJson {
  readonly id: string;
  readonly eventId: string;
  readonly type: NotificationEventKind;
  readonly summary: string;
  readonly state: DeliveryState;
  readonly attempts: number;
  readonly lastStatus?: number;
  readonly lastError?: string;
  readonly deliveredAt?: string;
  /** Pending: when it is tried (again). */
  readonly nextAttemptAt?: string;
  readonly createdAt: string;
  /** Every attempt, oldest first. */
  readonly history: readonly DeliveryAttemptJson[];
}

export interface DeliveryListAnswer {
  /** Newest first. */
  readonly items: readonly DeliveryJson[];
  /** Pass as `cursor` for the next page; null: no more. */
  readonly nextCursor: string | null;
}

export interface TestDeliveryAnswer {
  readonly deliveryId: string;
}

const shootRefRequest = z.strictObject({ namespace: z.string(), name: z.string() });
const kindsRequest = z
  .array(z.string())
  .meta({ description: `Event kinds, any of: ${NOTIFICATION_KINDS.join(", ")}.` });
const daysRequest = z.array(z.number()).meta({
  description: `Thresholds in days (${NOTIFICATION_DAYS_MIN}..${NOTIFICATION_DAYS_MAX}) for forced-update and version-expiring; default [7, 1].`,
});
const nameRequest = z.string().meta({ description: "A label people read." });
const projectRequest = z.string().meta({ description: "The project it covers; leave it out for the whole landscape." });
const shootRequest = shootRefRequest.meta({ description: "One shoot only." });

/** POST /api/v1/webhooks. */
export const createWebhookSchema = z.strictObject({
  url: z.string().optional().meta({ description: "An http(s) address that receives a JSON POST per event." }),
  secret: z
    .string()
    .optional()
    .meta({
      description: `At least ${WEBHOOK_SECRET_MIN_LENGTH} characters: the key of X-Almanac-Signature (HMAC-SHA256 of the raw body). Never answered again.`,
    }),
  events: kindsRequest.optional(),
  project: projectRequest.optional(),
  shoot: shootRequest.optional(),
  days: daysRequest.optional(),
  name: nameRequest.optional(),
});
export type CreateWebhookRequest = z.infer<typeof createWebhookSchema>;

/** PATCH /api/v1/webhooks/{id}: what is given changes. */
export const updateWebhookSchema = z.strictObject({
  url: z.string().optional(),
  secret: z.string().optional(),
  events: kindsRequest.optional(),
  days: daysRequest.optional(),
  name: nameRequest.nullable().optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookRequest = z.infer<typeof updateWebhookSchema>;

/** POST /api/v1/email-subscriptions. */
export const createEmailSubscriptionSchema = z.strictObject({
  to: z.string().optional().meta({ description: "One e-mail address or a comma-separated list." }),
  events: kindsRequest.optional(),
  digest: z
    .string()
    .optional()
    .meta({ description: '"each" (one mail per event, the default) or "daily" (one digest a day).' }),
  project: projectRequest.optional(),
  shoot: shootRequest.optional(),
  days: daysRequest.optional(),
  name: nameRequest.optional(),
});
export type CreateEmailSubscriptionRequest = z.infer<typeof createEmailSubscriptionSchema>;

/** PATCH /api/v1/email-subscriptions/{id}. */
export const updateEmailSubscriptionSchema = z.strictObject({
  to: z.string().optional(),
  events: kindsRequest.optional(),
  digest: z.string().optional(),
  days: daysRequest.optional(),
  name: nameRequest.nullable().optional(),
  enabled: z.boolean().optional(),
});
export type UpdateEmailSubscriptionRequest = z.infer<typeof updateEmailSubscriptionSchema>;

const problem = (field: string, detail: string, type: FieldProblem["type"] = "Invalid"): FieldProblem => ({
  field,
  type,
  detail,
});

/** The address checks that need no network: http(s), parseable. (Private targets: the server's check.) */
export function checkWebhookUrl(url: string | undefined, required: boolean): FieldProblem[] {
  if (url === undefined) return required ? [problem("url", "a webhook needs a url", "Required")] : [];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [problem("url", `"${url}" is not an address`)];
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return [problem("url", `the url must be http or https, not ${parsed.protocol.replace(/:$/, "")}`)];
  if (parsed.username || parsed.password) return [problem("url", "the url must not carry a user or password")];
  return [];
}

export function checkWebhookSecret(secret: string | undefined, required: boolean): FieldProblem[] {
  if (secret === undefined) return required ? [problem("secret", "a webhook needs a secret", "Required")] : [];
  return secret.length < WEBHOOK_SECRET_MIN_LENGTH
    ? [problem("secret", `the secret must be at least ${WEBHOOK_SECRET_MIN_LENGTH} characters`)]
    : [];
}

export function checkEvents(events: readonly string[] | undefined, required: boolean): FieldProblem[] {
  if (events === undefined) return required ? [problem("events", "name at least one event kind", "Required")] : [];
  if (events.length === 0) return [problem("events", "name at least one event kind")];
  return events.flatMap((kind, i) =>
    isNotificationKind(kind)
      ? []
      : [problem(`events[${i}]`, `"${kind}" is not an event kind (${NOTIFICATION_KINDS.join(", ")})`)],
  );
}

export function checkDays(days: readonly number[] | undefined): FieldProblem[] {
  if (days === undefined) return [];
  if (days.length === 0) return [problem("days", "name at least one threshold, or leave days out")];
  return days.flatMap((d, i) =>
    Number.isInteger(d) && d >= NOTIFICATION_DAYS_MIN && d <= NOTIFICATION_DAYS_MAX
      ? []
      : [
          problem(
            `days[${i}]`,
            `a threshold is a whole number of days from ${NOTIFICATION_DAYS_MIN} to ${NOTIFICATION_DAYS_MAX}`,
          ),
        ],
  );
}

export function checkDigest(digest: string | undefined): FieldProblem[] {
  if (digest === undefined || (NOTIFICATION_DIGESTS as readonly string[]).includes(digest)) return [];
  return [problem("digest", `digest is "each" or "daily", not "${digest}"`)];
}

// One address, as mail systems accept it in practice: something@domain.tld, no spaces or brackets.
const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

/** The addresses of a `to` (comma-separated), trimmed. */
export const emailAddresses = (to: string): string[] =>
  to
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "");

export function checkEmailTo(to: string | undefined, required: boolean): FieldProblem[] {
  if (to === undefined) return required ? [problem("to", "an e-mail subscription needs an address", "Required")] : [];
  const addresses = emailAddresses(to);
  if (addresses.length === 0) return [problem("to", "name at least one e-mail address")];
  const bad = addresses.filter((a) => !EMAIL.test(a));
  return bad.length ? [problem("to", `not an e-mail address: ${bad.join(", ")}`)] : [];
}

const kindSchema = z.enum(NOTIFICATION_KINDS);

export const notificationLastDeliverySchema = describes<NotificationLastDelivery>()(
  component(
    "NotificationLastDelivery",
    z.object({
      state: z.enum(DELIVERY_STATES),
      at: z.string().meta({ description: "When it was delivered, or else made." }),
      type: z.enum([...NOTIFICATION_KINDS, TEST_NOTIFICATION_KIND]).optional(),
      lastStatus: z.int().optional().meta({ description: "The last attempt's HTTP status or SMTP reply code." }),
      lastError: z.string().optional(),
    }),
  ),
);

export const notificationSubscriptionJsonSchema = describes<NotificationSubscriptionJson>()(
  component(
    "NotificationSubscription",
    z.object({
      id: z.string(),
      channel: z.enum(NOTIFICATION_CHANNELS),
      name: z.string().nullable(),
      url: z.string().optional().meta({
        description:
          "Webhook: the address it posts to, masked (scheme, host, and the path's last four characters: https://hooks.slack.com/services/…/XXXX), for it may carry a token. Sent back unchanged in a PATCH it keeps the URL.",
      }),
      hasSecret: z.boolean().optional().meta({ description: "Webhook: a secret is kept; it is never answered." }),
      to: z.string().optional().meta({ description: "E-mail: one address or a comma list." }),
      digest: z.enum(NOTIFICATION_DIGESTS),
      events: z.array(kindSchema),
      days: z.array(z.int()),
      project: z.string().nullable().meta({ description: "null: the whole landscape." }),
      shoot: z.object({ namespace: z.string(), name: z.string() }).nullable(),
      enabled: z.boolean(),
      createdBy: z.string(),
      created: z.string(),
      updated: z.string(),
      warning: z
        .string()
        .optional()
        .meta({ description: "E-mail: why its mails cannot go out now (no SMTP server configured)." }),
      lastDelivery: notificationLastDeliverySchema
        .optional()
        .meta({ description: "In the list: how its newest delivery fared (absent: none yet)." }),
    }),
  ),
);

export const notificationSubscriptionListAnswerSchema = describes<NotificationSubscriptionListAnswer>()(
  component("NotificationSubscriptionList", z.object({ items: z.array(notificationSubscriptionJsonSchema) })),
);

export const deliveryAttemptJsonSchema = describes<DeliveryAttemptJson>()(
  component(
    "NotificationDeliveryAttempt",
    z.object({
      at: z.string(),
      durationMs: z.int(),
      status: z.int().optional().meta({ description: "The HTTP status or SMTP reply code." }),
      error: z.string().optional(),
      response: z.string().optional().meta({ description: "The first 1 KB of the answer." }),
    }),
  ),
);

export const deliveryJsonSchema = describes<DeliveryJson>()(
  component(
    "NotificationDelivery",
    z.object({
      id: z.string(),
      eventId: z.string(),
      type: z.enum([...NOTIFICATION_KINDS, TEST_NOTIFICATION_KIND]),
      summary: z.string(),
      state: z.enum(DELIVERY_STATES),
      attempts: z.int(),
      lastStatus: z.int().optional(),
      lastError: z.string().optional(),
      deliveredAt: z.string().optional(),
      nextAttemptAt: z.string().optional(),
      createdAt: z.string(),
      history: z.array(deliveryAttemptJsonSchema),
    }),
  ),
);

export const deliveryListAnswerSchema = describes<DeliveryListAnswer>()(
  component(
    "NotificationDeliveryList",
    z.object({ items: z.array(deliveryJsonSchema), nextCursor: z.string().nullable() }),
  ),
);

export const testDeliveryAnswerSchema = describes<TestDeliveryAnswer>()(
  component("NotificationTestDelivery", z.object({ deliveryId: z.string() })),
);

/** What a webhook receiver gets (the JSON body). */
export interface WebhookBody {
  /** The delivery's id: the same on every retry; receivers dedupe by it. */
  readonly id: string;
  readonly eventId: string;
  readonly type: NotificationEventKind;
  /** This attempt's moment (ISO 8601). */
  readonly timestamp: string;
  readonly occurredAt: string;
  /** Slack-compatible text: the summary, with <url|label> links when ALMANAC_PUBLIC_URL is set. */
  readonly text: string;
  readonly summary: string;
  readonly projects: readonly string[];
  readonly shoot: ShootRef | null;
  readonly days?: number;
  readonly data: Record<string, unknown>;
}

export const WEBHOOK_HEADERS = {
  signature: "X-Almanac-Signature",
  delivery: "X-Almanac-Delivery",
  timestamp: "X-Almanac-Timestamp",
} as const;

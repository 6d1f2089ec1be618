// Notifications (issue 30): webhooks and e-mail subscriptions to the events Almanac finds (forced
// updates ahead, versions expiring, stuck clusters, failed maintenance and migrations, unhealthy
// shoots, update runs waiting or paused), their test, and every delivery with its attempts.
import { z } from "zod";
import {
  createEmailSubscriptionSchema,
  createWebhookSchema,
  deliveryListAnswerSchema,
  NOTIFICATION_KINDS,
  notificationSubscriptionJsonSchema,
  notificationSubscriptionListAnswerSchema,
  testDeliveryAnswerSchema,
  updateEmailSubscriptionSchema,
  updateWebhookSchema,
  WEBHOOK_SECRET_MIN_LENGTH,
} from "../notifications.ts";
import { operation } from "../operation.ts";
import { JSON_BODY } from "./common.ts";

const WEBHOOKS = "/api/v1/webhooks";
const EMAILS = "/api/v1/email-subscriptions";
/** Who may see or change one is the use case's to say: read on its project, or landscape-wide read. */
const readSomewhere = { need: "read", project: "any" } as const;

export const deliveriesParams = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(80).optional(),
});

const ROLES =
  "Needs read on the subscription's project (landscape-wide read for a landscape-wide one); one the caller may not read is 404.";
const KINDS = `Event kinds: ${NOTIFICATION_KINDS.join(", ")}.`;
const SCOPE_422 =
  "422 names the field: an empty or unknown event kind, a days value outside 1..90, an unknown project or shoot";
const AUDITED = "Audited (never with the secret).";

function family<C extends z.ZodType, U extends z.ZodType>(
  base: string,
  tag: "Notifications",
  words: { one: string; many: string; id: string; create: string; invalid: string; invalidPatch: string },
  bodies: { create: C; update: U },
) {
  const create = operation({
    method: "post",
    path: base,
    operationId: `create${words.id}`,
    tag,
    summary: `Make a ${words.one}`,
    description: `${words.create} ${KINDS} Scope: the whole landscape, a project, or one shoot (its project's). A condition still ahead (a forced update next week) is told to a subscription made after it was found; a transition (a failed maintenance) only to those that existed when it happened. ${ROLES} ${AUDITED}`,
    access: readSomewhere,
    body: {
      schema: bodies.create,
      mediaTypes: JSON_BODY,
      invalid: words.invalid,
      notAnObject: "The body must be a JSON object.",
    },
    answers: [
      { status: 201, description: `The ${words.one} (never its secret).`, json: notificationSubscriptionJsonSchema },
    ],
    problems: [400, 403, 413, 415, 422],
  });
  const list = operation({
    method: "get",
    path: base,
    operationId: `list${words.id}s`,
    tag,
    summary: `The ${words.many} the caller may read, newest first`,
    description: "Landscape-wide read: all of them; else those of the projects the caller may read.",
    access: readSomewhere,
    answers: [{ status: 200, description: `The ${words.many}.`, json: notificationSubscriptionListAnswerSchema }],
    problems: [],
  });
  const get = operation({
    method: "get",
    path: `${base}/{id}`,
    operationId: `get${words.id}`,
    tag,
    summary: `A ${words.one}`,
    description: ROLES,
    access: readSomewhere,
    answers: [{ status: 200, description: `The ${words.one}.`, json: notificationSubscriptionJsonSchema }],
    problems: [404],
  });
  const update = operation({
    method: "patch",
    path: `${base}/{id}`,
    operationId: `update${words.id}`,
    tag,
    summary: `Change a ${words.one}`,
    description: `What is given changes; its scope does not (make another). Content-Type application/merge-patch+json or application/json. ${ROLES} ${AUDITED}`,
    access: readSomewhere,
    body: {
      schema: bodies.update,
      // The fields given change, as a JSON merge patch would change them: either media type.
      mediaTypes: ["application/merge-patch+json", "application/json"],
      invalid: words.invalidPatch,
      notAnObject: "The body must be a JSON object.",
    },
    answers: [
      { status: 200, description: `The ${words.one} as it now stands.`, json: notificationSubscriptionJsonSchema },
    ],
    problems: [400, 404, 413, 415, 422],
  });
  const remove = operation({
    method: "delete",
    path: `${base}/{id}`,
    operationId: `delete${words.id}`,
    tag,
    summary: `Remove a ${words.one}, with its deliveries`,
    description: `${ROLES} ${AUDITED}`,
    access: readSomewhere,
    answers: [{ status: 204, description: "It is gone." }],
    problems: [404],
  });
  const test = operation({
    method: "post",
    path: `${base}/{id}/test`,
    operationId: `test${words.id}`,
    tag,
    summary: `Send a test to a ${words.one}`,
    description: `A "test" event to this subscription only, sent at once by the background worker; its delivery is listed with the others. 409 when the subscription is disabled. ${ROLES} Audited.`,
    access: readSomewhere,
    answers: [
      { status: 202, description: "The test is on its way: its delivery's id.", json: testDeliveryAnswerSchema },
    ],
    problems: [404, 409],
  });
  const deliveries = operation({
    method: "get",
    path: `${base}/{id}/deliveries`,
    operationId: `list${words.id}Deliveries`,
    tag,
    summary: `A ${words.one}'s deliveries, newest first, with every attempt and its answer`,
    description: `Each event is delivered once per subscription; a failed attempt is tried again after 30 s, 2 min, 10 min, 1 h, then every 2 h, up to ALMANAC_NOTIFY_MAX_ATTEMPTS (then Failed). ${ROLES}`,
    access: readSomewhere,
    query: deliveriesParams,
    queryWords: { cursor: "The nextCursor of the previous page." },
    answers: [{ status: 200, description: "A page of deliveries.", json: deliveryListAnswerSchema }],
    problems: [400, 404],
  });
  return { create, list, get, update, remove, test, deliveries };
}

const webhooks = family(
  WEBHOOKS,
  "Notifications",
  {
    one: "webhook",
    many: "webhooks",
    id: "Webhook",
    create: `A JSON POST per event to url, signed: X-Almanac-Signature is sha256= and the hex HMAC-SHA256 of the raw body with the secret (at least ${WEBHOOK_SECRET_MIN_LENGTH} characters, never answered again); X-Almanac-Delivery is the delivery's id (the same on each retry: dedupe by it) and X-Almanac-Timestamp the attempt's Unix time. The body carries a Slack-compatible text. Redirects are not followed; each attempt has ALMANAC_WEBHOOK_TIMEOUT_SECONDS. ${SCOPE_422}, a url not http(s), a target in a loopback, private or link-local range (unless ALMANAC_WEBHOOK_ALLOW_PRIVATE=true), a short secret.`,
    invalid:
      'The body must be {"url", "secret", "events", "project"?, "shoot"?: {"namespace", "name"}, "days"?, "name"?}.',
    invalidPatch: 'The body may hold "url", "secret", "events", "days", "name", "enabled".',
  },
  { create: createWebhookSchema, update: updateWebhookSchema },
);

const emails = family(
  EMAILS,
  "Notifications",
  {
    one: "e-mail subscription",
    many: "e-mail subscriptions",
    id: "EmailSubscription",
    create: `One mail per event ("each") or a daily digest ("daily") to one address or a comma list. ${SCOPE_422}, a bad e-mail address, a digest other than each or daily.`,
    invalid:
      'The body must be {"to", "events", "digest"?, "project"?, "shoot"?: {"namespace", "name"}, "days"?, "name"?}.',
    invalidPatch: 'The body may hold "to", "events", "digest", "days", "name", "enabled".',
  },
  { create: createEmailSubscriptionSchema, update: updateEmailSubscriptionSchema },
);

export const createWebhook = webhooks.create;
export const listWebhooks = webhooks.list;
export const getWebhook = webhooks.get;
export const updateWebhook = webhooks.update;
export const deleteWebhook = webhooks.remove;
export const testWebhook = webhooks.test;
export const listWebhookDeliveries = webhooks.deliveries;

export const createEmailSubscription = emails.create;
export const listEmailSubscriptions = emails.list;
export const getEmailSubscription = emails.get;
export const updateEmailSubscription = emails.update;
export const deleteEmailSubscription = emails.remove;
export const testEmailSubscription = emails.test;
export const listEmailSubscriptionDeliveries = emails.deliveries;

// /api/v1/webhooks and /api/v1/email-subscriptions (issue 30): making, reading, changing and
// removing subscriptions, sending a test, and the deliveries with every attempt. Who may: read on
// the subscription's project (landscape-wide read for a landscape-wide one), for reading and
// changing alike, since a subscription tells its maker what they may read anyway. A person sees
// only those they may read; one they may not is answered 404, as if it were not there. Every
// change is audited, never with the secret.
import { randomUUID } from "node:crypto";
import type {
  CreateEmailSubscriptionRequest,
  CreateWebhookRequest,
  DeliveryListAnswer,
  NotificationDigest,
  NotificationSubscriptionJson,
  NotificationSubscriptionListAnswer,
  ShootRef,
  TestDeliveryAnswer,
  UpdateEmailSubscriptionRequest,
  UpdateWebhookRequest,
} from "../api/notifications.ts";
import {
  checkDays,
  checkDigest,
  checkEmailTo,
  checkEvents,
  checkWebhookSecret,
  checkWebhookUrl,
  DEFAULT_NOTIFICATION_DAYS,
  emailAddresses,
} from "../api/notifications.ts";
import type { FieldChange } from "../api/audit.ts";
import type { FieldProblem } from "../api/problem.ts";
import { conflict, invalid, notFound, unprocessable } from "../api/refusal.ts";
import { allows, LANDSCAPE } from "../api/roles.ts";
import { refusalByRole } from "../auth/authorize.ts";
import type { Principal } from "../auth/principal.ts";
import { config } from "../config/load-config.ts";
import type { Db, Tx } from "../db/client.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { projectNamespaces } from "../store/freezes.ts";
import {
  deleteSubscription as storeDelete,
  fanOutConditionEvents,
  lockAgainstEventRecording,
  findSubscription,
  insertSubscription,
  insertTestDelivery,
  listDeliveries,
  listSubscriptions as storeList,
  projectExists,
  RECORDING_TRANSACTION_MS,
  shootProject,
  type SubscriptionChange,
  type SubscriptionRow,
  updateSubscription as storeUpdate,
} from "../store/notifications.ts";
import { emailNotConfigured } from "./notification-mail-settings.ts";
import { refusedTarget } from "./notification-target.ts";
import {
  deliveryCursor,
  deliveryJson,
  maskedWebhookUrl,
  parseDeliveryCursor,
  subscriptionJson,
} from "./notification-view.ts";
import { wakeNotificationWorker } from "./notification-wake.ts";

/**
 * A subscription's change, ordered with event recording: the lock (lockAgainstEventRecording) is
 * taken first, before any row lock (see the store), so an event recorded meanwhile reaches a new
 * subscription and a recording under way finishes its deliveries to a deleted one. It may wait for
 * a recording, which may take up to RECORDING_TRANSACTION_MS, so the transaction gets that long
 * rather than Prisma's 5 s (a 500 while a sweep records thousands of events).
 */
const inRecordingOrder = <T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> =>
  db.$transaction(
    async (tx) => {
      await lockAgainstEventRecording(tx);
      return work(tx);
    },
    { timeout: RECORDING_TRANSACTION_MS + 10_000, maxWait: 10_000 },
  );

/** The answer to a saved subscription, once the worker is woken for the conditions fanned out to it. */
async function savedAnswer({
  row,
  fanned,
}: {
  row: SubscriptionRow;
  fanned: number;
}): Promise<NotificationSubscriptionJson> {
  if (fanned > 0) await wakeNotificationWorker();
  return answer(row);
}

/** The audit event of a subscription made, changed or deleted. */
async function recordSubscriptionChange(
  db: Db,
  tx: Tx,
  channel: SubscriptionChannel,
  verb: "create" | "update" | "delete",
  row: SubscriptionRow,
  changes: FieldChange[],
  caller: NotificationCaller,
): Promise<void> {
  await recordAuditEvent(tx, {
    actor: caller.actor,
    action: `${channel === "webhook" ? "webhook" : "email-subscription"}.${verb}`,
    target: await auditTarget(db, channel, row),
    changes,
    requestId: caller.requestId,
  });
}

export type SubscriptionChannel = "webhook" | "email";

export interface NotificationCaller {
  readonly principal: Principal;
  /** The audit log's name of the caller. */
  readonly actor: string;
  readonly requestId: string;
}

export interface NotificationSettings {
  /** ALMANAC_WEBHOOK_ALLOW_PRIVATE. */
  readonly allowPrivate: boolean;
}

const settingsNow = (): NotificationSettings => ({ allowPrivate: config().notifications.webhookAllowPrivate });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME_MAX = 200;
const AUDIT_KIND: Record<SubscriptionChannel, string> = { webhook: "Webhook", email: "EmailSubscription" };
const WORDS: Record<SubscriptionChannel, string> = { webhook: "webhook", email: "e-mail subscription" };

/** An e-mail subscription's warning: its mails cannot go out while no SMTP server is configured. */
const warningOf = (channel: SubscriptionChannel): string | undefined =>
  channel === "email" ? emailNotConfigured(config()) : undefined;

/** A subscription as answered, with its channel's warning. */
const answer = (row: SubscriptionRow): NotificationSubscriptionJson =>
  subscriptionJson(row, { warning: warningOf(row.channel) });

const problem = (field: string, detail: string, type = "Invalid"): FieldProblem => ({ field, type, detail });

function refuse(channel: SubscriptionChannel, errors: readonly FieldProblem[]): never {
  throw unprocessable(
    `The ${WORDS[channel]} cannot be saved: ${errors.map((e) => `${e.field}: ${e.detail}`).join("; ")}.`,
    errors,
  );
}

function checkName(name: string | null | undefined): FieldProblem[] {
  return typeof name === "string" && name.length > NAME_MAX ? [problem("name", `at most ${NAME_MAX} characters`)] : [];
}

async function checkTarget(url: string | undefined, settings: NotificationSettings): Promise<FieldProblem[]> {
  if (url === undefined || settings.allowPrivate || checkWebhookUrl(url, true).length > 0) return [];
  const refused = await refusedTarget(url);
  return refused ? [problem("url", refused.message, "Forbidden")] : [];
}

/** Whether the caller may see (and so change) the subscription: read on its project, or landscape-wide. */
const mayRead = (principal: Principal, row: Pick<SubscriptionRow, "project">) =>
  allows(principal.bindings, "read", row.project ?? undefined);

async function readable(
  db: Db,
  channel: SubscriptionChannel,
  id: string,
  principal: Principal,
  lock = false,
): Promise<SubscriptionRow> {
  const missing = () => notFound(`There is no ${WORDS[channel]} with the id ${id}.`);
  if (!UUID.test(id)) throw missing();
  const row = await findSubscription(db, id, channel, { lock });
  if (!row || !mayRead(principal, row)) throw missing();
  return row;
}

interface Scope {
  readonly project: string | null;
  readonly shoot: ShootRef | null;
}

/**
 * The subscription's scope from the request: the landscape, a project, or one shoot (then the
 * project is the shoot's). The caller's role is checked before anything is looked up, so that
 * whoever may not read a project cannot learn what it holds.
 */
async function scopeOf(
  db: Db,
  channel: SubscriptionChannel,
  body: { project?: string; shoot?: ShootRef },
  principal: Principal,
): Promise<Scope> {
  const project = body.project?.trim();
  if (body.project !== undefined && !project)
    refuse(channel, [problem("project", "leave it out for the whole landscape")]);
  const shoot = body.shoot ? { namespace: body.shoot.namespace.trim(), name: body.shoot.name.trim() } : undefined;
  if (shoot && (!shoot.namespace || !shoot.name))
    refuse(channel, [problem("shoot", "name the shoot's namespace and name")]);
  if (!shoot) {
    const byRole = refusalByRole(principal, "read", project);
    if (byRole) throw byRole;
    if (project !== undefined && !(await projectExists(db, project)))
      refuse(channel, [problem("project", `there is no project ${project}`, "NotFound")]);
    return { project: project ?? null, shoot: null };
  }
  // Judged by the namespace's project (what roles are granted on) before the shoot's existence is told.
  const namespaceProject = (
    await db.project.findFirst({ where: { namespace: shoot.namespace }, select: { name: true } })
  )?.name;
  const byRole = refusalByRole(principal, "read", namespaceProject ?? project);
  if (byRole) throw byRole;
  const owner = await shootProject(db, shoot.namespace, shoot.name);
  if (!owner) refuse(channel, [problem("shoot", `there is no shoot ${shoot.namespace}/${shoot.name}`, "NotFound")]);
  if (project !== undefined && owner.project !== project)
    refuse(channel, [problem("shoot", `the shoot ${shoot.namespace}/${shoot.name} is not in project ${project}`)]);
  return { project: owner.project, shoot };
}

async function auditTarget(db: Db, channel: SubscriptionChannel, row: SubscriptionRow) {
  const namespace =
    row.shootNamespace ??
    (row.project === null ? undefined : (await projectNamespaces(db, [row.project])).get(row.project));
  return { kind: AUDIT_KIND[channel], name: row.id, ...(namespace !== undefined ? { namespace } : {}) };
}

/** What the audit keeps of a subscription: everything but the secret, whose change is only named. */
function auditFields(row: SubscriptionRow): Record<string, unknown> {
  return {
    name: row.name,
    // The URL masked as in the answers: it may carry a token (Slack, Teams, Discord); a change
    // shows as a change when the mask differs, and is named when only the hidden part does.
    ...(row.channel === "webhook" ? { url: maskedWebhookUrl(row.url ?? "") } : { to: row.emailTo, digest: row.digest }),
    events: row.kinds,
    days: row.days,
    project: row.project,
    shoot: row.shootName ? `${row.shootNamespace}/${row.shootName}` : null,
    enabled: row.enabled,
  };
}

function changesBetween(before: SubscriptionRow | null, after: SubscriptionRow | null): FieldChange[] {
  const a = before ? auditFields(before) : {};
  const b = after ? auditFields(after) : {};
  const changes: FieldChange[] = [];
  for (const field of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[field] ?? null;
    const y = b[field] ?? null;
    if (JSON.stringify(x) !== JSON.stringify(y)) changes.push({ field, before: x, after: y });
  }
  const maskedSame = !changes.some((c) => c.field === "url");
  if (before?.channel === "webhook" && after?.channel === "webhook" && before.url !== after.url && maskedSame)
    changes.push({ field: "url", before: "(set)", after: "(set, changed)" });
  if ((before?.secret ?? null) !== (after?.secret ?? null))
    changes.push({
      field: "secret",
      before: before?.secret ? "(set)" : null,
      after: after?.secret ? "(set, changed)" : null,
    });
  return changes;
}

async function saveNew(
  db: Db,
  channel: SubscriptionChannel,
  fields: Omit<Parameters<typeof insertSubscription>[1], "createdBy">,
  caller: NotificationCaller,
  now: Date,
): Promise<NotificationSubscriptionJson> {
  return savedAnswer(
    await inRecordingOrder(db, async (tx) => {
      const row = await insertSubscription(tx, { ...fields, createdBy: caller.actor }, now);
      // The conditions still ahead (a forced update next week) are told to a subscription made today.
      const fanned = await fanOutConditionEvents(tx, row.id, now);
      await recordSubscriptionChange(db, tx, channel, "create", row, changesBetween(null, row), caller);
      return { row, fanned };
    }),
  );
}

/** What both channels' new subscriptions take alike from the body: the kinds, the days and the scope. */
function scopeAndKinds(
  body: { events?: readonly string[]; days?: readonly number[] },
  scope: Awaited<ReturnType<typeof scopeOf>>,
) {
  return {
    kinds: [...new Set(body.events!)],
    days: [...new Set(body.days ?? DEFAULT_NOTIFICATION_DAYS)].sort((x, y) => y - x),
    project: scope.project,
    shootNamespace: scope.shoot?.namespace ?? null,
    shootName: scope.shoot?.name ?? null,
  };
}

export async function createWebhook(
  db: Db,
  body: CreateWebhookRequest,
  caller: NotificationCaller,
  now: Date,
  settings: NotificationSettings = settingsNow(),
): Promise<NotificationSubscriptionJson> {
  const errors = [
    ...checkWebhookUrl(body.url, true),
    ...checkWebhookSecret(body.secret, true),
    ...checkEvents(body.events, true),
    ...checkDays(body.days),
    ...checkName(body.name),
  ];
  errors.push(...(await checkTarget(body.url, settings)));
  if (errors.length > 0) refuse("webhook", errors);
  const scope = await scopeOf(db, "webhook", body, caller.principal);
  return saveNew(
    db,
    "webhook",
    {
      channel: "webhook",
      name: body.name?.trim() || null,
      url: body.url!.trim(),
      secret: body.secret!,
      emailTo: null,
      digest: "each",
      ...scopeAndKinds(body, scope),
    },
    caller,
    now,
  );
}

export async function createEmailSubscription(
  db: Db,
  body: CreateEmailSubscriptionRequest,
  caller: NotificationCaller,
  now: Date,
): Promise<NotificationSubscriptionJson> {
  const errors = [
    ...checkEmailTo(body.to, true),
    ...checkEvents(body.events, true),
    ...checkDigest(body.digest),
    ...checkDays(body.days),
    ...checkName(body.name),
  ];
  if (errors.length > 0) refuse("email", errors);
  const scope = await scopeOf(db, "email", body, caller.principal);
  return saveNew(
    db,
    "email",
    {
      channel: "email",
      name: body.name?.trim() || null,
      url: null,
      secret: null,
      emailTo: emailAddresses(body.to!).join(", "),
      digest: (body.digest ?? "each") as NotificationDigest,
      ...scopeAndKinds(body, scope),
    },
    caller,
    now,
  );
}

/** The projects whose subscriptions the caller may read, or "all" with landscape-wide read. */
function readableProjects(principal: Principal): readonly string[] | "all" {
  if (allows(principal.bindings, "read")) return "all";
  return principal.bindings.filter((b) => b.scope !== LANDSCAPE && allows([b], "read", b.scope)).map((b) => b.scope);
}

export async function listSubscriptions(
  db: Db,
  channel: SubscriptionChannel,
  principal: Principal,
): Promise<NotificationSubscriptionListAnswer> {
  const rows = await storeList(db, channel, readableProjects(principal));
  const warning = warningOf(channel);
  return { items: rows.map((row) => subscriptionJson(row, { warning, lastDelivery: row.lastDelivery })) };
}

export async function getSubscription(
  db: Db,
  channel: SubscriptionChannel,
  id: string,
  principal: Principal,
): Promise<NotificationSubscriptionJson> {
  return answer(await readable(db, channel, id, principal));
}

export async function updateSubscription(
  db: Db,
  channel: SubscriptionChannel,
  id: string,
  body: UpdateWebhookRequest | UpdateEmailSubscriptionRequest,
  caller: NotificationCaller,
  now: Date,
  settings: NotificationSettings = settingsNow(),
): Promise<NotificationSubscriptionJson> {
  await readable(db, channel, id, caller.principal);
  const webhook = channel === "webhook" ? (body as UpdateWebhookRequest) : undefined;
  const email = channel === "email" ? (body as UpdateEmailSubscriptionRequest) : undefined;
  const errors = [
    ...(webhook ? [...checkWebhookUrl(webhook.url, false), ...checkWebhookSecret(webhook.secret, false)] : []),
    ...(email ? [...checkEmailTo(email.to, false), ...checkDigest(email.digest)] : []),
    ...checkEvents(body.events, false),
    ...checkDays(body.days),
    ...checkName(body.name),
  ];
  if (webhook) errors.push(...(await checkTarget(webhook.url, settings)));
  if (errors.length > 0) refuse(channel, errors);
  const change: SubscriptionChange = {
    ...(body.name !== undefined ? { name: body.name?.trim() || null } : {}),
    ...(webhook?.url !== undefined ? { url: webhook.url.trim() } : {}),
    ...(webhook?.secret !== undefined ? { secret: webhook.secret } : {}),
    ...(email?.to !== undefined ? { emailTo: emailAddresses(email.to).join(", ") } : {}),
    ...(email?.digest !== undefined ? { digest: email.digest as NotificationDigest } : {}),
    ...(body.events !== undefined ? { kinds: [...new Set(body.events)] } : {}),
    ...(body.days !== undefined ? { days: [...new Set(body.days)].sort((x, y) => y - x) } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
  };
  const saved = await inRecordingOrder(db, async (tx) => {
    const before = await findSubscription(tx, id, channel, { lock: true });
    if (!before) throw notFound(`There is no ${WORDS[channel]} with the id ${id}.`);
    // The URL as answered (masked) sent back unchanged keeps the URL: only a new one replaces it.
    const kept = change.url !== undefined && before.url !== null && change.url === maskedWebhookUrl(before.url);
    const row = (await storeUpdate(tx, id, channel, kept ? { ...change, url: undefined } : change, now))!;
    const widened = change.kinds !== undefined || change.days !== undefined || change.enabled === true;
    const fanned = widened ? await fanOutConditionEvents(tx, id, now) : 0;
    const changes = changesBetween(before, row);
    if (changes.length > 0) await recordSubscriptionChange(db, tx, channel, "update", row, changes, caller);
    return { row, fanned };
  });
  return savedAnswer(saved);
}

export async function deleteSubscription(
  db: Db,
  channel: SubscriptionChannel,
  id: string,
  caller: NotificationCaller,
): Promise<void> {
  await readable(db, channel, id, caller.principal);
  await inRecordingOrder(db, async (tx) => {
    const removed = await storeDelete(tx, id, channel);
    if (!removed) throw notFound(`There is no ${WORDS[channel]} with the id ${id}.`);
    await recordSubscriptionChange(db, tx, channel, "delete", removed, changesBetween(removed, null), caller);
  });
}

/** A "test" event to this subscription only, delivered at once (the worker is woken). */
export async function sendTestNotification(
  db: Db,
  channel: SubscriptionChannel,
  id: string,
  caller: NotificationCaller,
  now: Date,
): Promise<TestDeliveryAnswer> {
  const row = await readable(db, channel, id, caller.principal);
  if (!row.enabled)
    throw conflict(`The ${WORDS[channel]} is disabled: enable it (PATCH {"enabled": true}) to send a test.`);
  const deliveryId = await db.$transaction(async (tx) => {
    const deliveryId = await insertTestDelivery(
      tx,
      row,
      {
        key: `test:${randomUUID()}`,
        occurredAt: now,
        until: null,
        projects: row.project ? [row.project] : [],
        shootNamespace: row.shootNamespace,
        shootName: row.shootName,
        days: null,
        summary: `A test notification from Almanac, sent by ${caller.actor}${row.name ? ` to "${row.name}"` : ""}.`,
        data: { test: true, subscriptionId: row.id },
      },
      now,
    );
    await recordAuditEvent(tx, {
      actor: caller.actor,
      action: `${channel === "webhook" ? "webhook" : "email-subscription"}.test`,
      target: await auditTarget(db, channel, row),
      changes: [{ field: "delivery", before: null, after: deliveryId }],
      requestId: caller.requestId,
    });
    return deliveryId;
  });
  await wakeNotificationWorker();
  return { deliveryId };
}

export async function listSubscriptionDeliveries(
  db: Db,
  channel: SubscriptionChannel,
  id: string,
  principal: Principal,
  params: { limit: number; cursor?: string },
): Promise<DeliveryListAnswer> {
  const before = params.cursor === undefined ? undefined : parseDeliveryCursor(params.cursor);
  if (params.cursor !== undefined && !before)
    throw invalid("query.cursor is not the nextCursor of a previous page.", [
      { field: "query.cursor", type: "Invalid", detail: "must be the nextCursor of a previous page" },
    ]);
  await readable(db, channel, id, principal);
  const rows = await listDeliveries(db, id, { limit: params.limit + 1, ...(before ? { before } : {}) });
  const page = rows.slice(0, params.limit);
  return {
    items: page.map(deliveryJson),
    nextCursor: rows.length > params.limit ? deliveryCursor(page[page.length - 1]) : null,
  };
}

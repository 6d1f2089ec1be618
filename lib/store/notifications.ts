// Notifications (issue 30): subscriptions, the events worth telling (each recorded once by its
// key), one delivery per event and subscription (exactly once: a unique pair), and every attempt.
// Events come in thousands per sweep at 100,000 shoots, so recording and fan-out are one
// statement each, set-based; subscriptions are few (a landscape holds dozens), so the join of new
// events with them is small.
import { Prisma } from "../db/generated/client.ts";
import { type Db, type Queryable, rawQuery, type Tx } from "../db/client.ts";

export interface SubscriptionRow {
  readonly id: string;
  readonly channel: "webhook" | "email";
  readonly name: string | null;
  readonly url: string | null;
  readonly secret: string | null;
  readonly emailTo: string | null;
  readonly digest: "each" | "daily";
  readonly kinds: readonly string[];
  readonly days: readonly number[];
  readonly project: string | null;
  readonly shootNamespace: string | null;
  readonly shootName: string | null;
  readonly enabled: boolean;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface NotificationEventRow {
  readonly id: string;
  readonly kind: string;
  readonly key: string;
  readonly occurredAt: Date;
  readonly until: Date | null;
  readonly projects: readonly string[];
  readonly shootNamespace: string | null;
  readonly shootName: string | null;
  readonly days: number | null;
  readonly summary: string;
  readonly data: Record<string, unknown>;
  readonly createdAt: Date;
}

/** An event to record (lib/server/notification-events.ts' NewNotificationEvent, as columns). */
export interface EventInsert {
  readonly kind: string;
  readonly key: string;
  readonly occurredAt: Date;
  readonly until: Date | null;
  readonly projects: readonly string[];
  readonly shootNamespace: string | null;
  readonly shootName: string | null;
  readonly days: number | null;
  readonly summary: string;
  readonly data: Record<string, unknown>;
}

export const SUBSCRIPTION_COLUMNS = Prisma.sql`s.id::text AS id, s.channel, s.name, s.url, s.secret,
  s.email_to AS "emailTo", s.digest, s.kinds, s.days, s.project, s.shoot_namespace AS "shootNamespace",
  s.shoot_name AS "shootName", s.enabled, s.created_by AS "createdBy", s.created_at AS "createdAt",
  s.updated_at AS "updatedAt"`;

export const EVENT_COLUMNS = Prisma.sql`e.id::text AS id, e.kind, e.key, e.occurred_at AS "occurredAt", e.until,
  e.projects, e.shoot_namespace AS "shootNamespace", e.shoot_name AS "shootName", e.days, e.summary, e.data,
  e.created_at AS "createdAt"`;

/**
 * Whether subscription `s` wants event `e` (SQL over aliases s and e): enabled, of its kinds, of
 * its thresholds (events with days), in its scope (the landscape, the event's project, or the very
 * shoot), and still relevant to it: a condition event while `until` is ahead, a transition event
 * only if the subscription existed when it happened. An event about several projects (an update
 * run across projects) goes to landscape subscriptions only: reading it needs read on every one of
 * them, which a project's subscribers need not have.
 */
const wants = (now: Date) => Prisma.sql`s.enabled
  AND e.kind = ANY(s.kinds)
  AND (e.days IS NULL OR e.days = ANY(s.days))
  AND (s.project IS NULL OR (cardinality(e.projects) > 0 AND e.projects <@ ARRAY[s.project]))
  AND (s.shoot_name IS NULL OR (s.shoot_namespace = e.shoot_namespace AND s.shoot_name = e.shoot_name))
  AND (CASE WHEN e.until IS NULL THEN s.created_at <= e.occurred_at ELSE e.until > ${now} END)`;

// Recording events and making or changing subscriptions are ordered by one advisory lock: each
// fans out only to what is committed, so an event recorded while a subscription's transaction is
// open (or the other way round) would reach neither fan-out. Recordings share the lock (they run
// side by side); a subscription's transaction takes it alone, FIRST (before it locks its row: a
// recording's delivery insert takes a key-share lock on the subscription row), so whichever
// commits second sees the other's rows.
const FAN_OUT_LOCK = Prisma.sql`hashtext('almanac.notification-fan-out')`;

/**
 * Takes the fan-out lock alone until the transaction ends: call it first in every transaction that
 * makes, changes or removes a subscription (recordings wait for it; it waits for them).
 */
export async function lockAgainstEventRecording(tx: Tx): Promise<void> {
  await rawQuery(tx, Prisma.sql`SELECT pg_advisory_xact_lock(${FAN_OUT_LOCK})::text`);
}

// A recording's transaction may be long (thousands of events): more than Prisma's 5 s default.
export const RECORDING_TRANSACTION_MS = 120_000;

/**
 * Records the events whose key is new (a second record of a key is dropped, in this call or any
 * earlier one) and, in the same statement, one Pending delivery per subscription that wants each.
 * Holds the fan-out lock shared (in `db`'s transaction, or one of its own) so that a subscription
 * being made meanwhile is seen by this fan-out or sees these events in its own.
 */
export async function insertEventsWithDeliveries(
  db: Queryable,
  events: readonly EventInsert[],
  now: Date,
): Promise<{ recorded: number; deliveries: number }> {
  if (events.length === 0) return { recorded: 0, deliveries: 0 };
  // A client, not a transaction (Prisma's transaction client has a $transaction too, but no $connect).
  if (typeof (db as { $connect?: unknown }).$connect === "function")
    return (db as Db).$transaction((tx) => insertEventsWithDeliveries(tx, events, now), {
      timeout: RECORDING_TRANSACTION_MS,
      maxWait: RECORDING_TRANSACTION_MS,
    });
  await rawQuery(db, Prisma.sql`SELECT pg_advisory_xact_lock_shared(${FAN_OUT_LOCK})::text`);
  const input = JSON.stringify(
    events.map((e) => ({
      kind: e.kind,
      key: e.key,
      occurred_at: e.occurredAt.toISOString(),
      until: e.until?.toISOString() ?? null,
      projects: e.projects,
      shoot_namespace: e.shootNamespace,
      shoot_name: e.shootName,
      days: e.days,
      summary: e.summary,
      data: e.data,
    })),
  );
  const [row] = await rawQuery<{ recorded: number; deliveries: number }>(
    db,
    Prisma.sql`WITH input AS (
        SELECT * FROM jsonb_to_recordset(${input}::jsonb) AS i(kind text, key text, occurred_at timestamptz,
          until timestamptz, projects text[], shoot_namespace text, shoot_name text, days int, summary text, data jsonb)
      ), e AS (
        INSERT INTO notification_events AS n
          (id, kind, key, occurred_at, until, projects, shoot_namespace, shoot_name, days, summary, data, created_at)
        SELECT gen_random_uuid(), kind, key, occurred_at, until, COALESCE(projects, '{}'), shoot_namespace, shoot_name,
          days, summary, COALESCE(data, '{}'), ${now}
        FROM input
        ON CONFLICT (key) DO NOTHING
        RETURNING n.*
      ), fan AS (
        INSERT INTO notification_deliveries (id, subscription_id, event_id, next_attempt_at, created_at)
        SELECT gen_random_uuid(), s.id, e.id, ${now}, ${now}
        FROM e JOIN notification_subscriptions s ON ${wants(now)}
        ON CONFLICT (subscription_id, event_id) DO NOTHING
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM e)::int AS recorded, (SELECT count(*) FROM fan)::int AS deliveries`,
  );
  return row;
}

/**
 * Gives subscription `subscriptionId` the condition events still relevant (until > now) that it
 * wants and does not have yet: on its creation, or a change of its kinds, days or scope.
 */
export async function fanOutConditionEvents(db: Queryable, subscriptionId: string, now: Date): Promise<number> {
  const [row] = await rawQuery<{ n: number }>(
    db,
    Prisma.sql`WITH fan AS (
        INSERT INTO notification_deliveries (id, subscription_id, event_id, next_attempt_at, created_at)
        SELECT gen_random_uuid(), s.id, e.id, ${now}, ${now}
        FROM notification_subscriptions s JOIN notification_events e ON e.until > ${now} AND ${wants(now)}
        WHERE s.id = ${subscriptionId}::uuid
        ON CONFLICT (subscription_id, event_id) DO NOTHING
        RETURNING 1
      )
      SELECT count(*)::int AS n FROM fan`,
  );
  return row.n;
}

/** The distinct thresholds that enabled subscriptions to `kind` ask for, smallest first. */
export async function subscribedDaysOf(db: Queryable, kind: string): Promise<number[]> {
  const rows = await rawQuery<{ d: number }>(
    db,
    Prisma.sql`SELECT DISTINCT d FROM notification_subscriptions s, unnest(s.days) AS d
      WHERE s.enabled AND ${kind} = ANY(s.kinds) ORDER BY d`,
  );
  return rows.map((r) => r.d);
}

// --- Subscriptions -------------------------------------------------------------------------

/** What a new subscription is made of: its row without what the store sets (id, enabled, times). */
export type SubscriptionInsert = Omit<SubscriptionRow, "id" | "enabled" | "createdAt" | "updatedAt">;

export async function insertSubscription(db: Queryable, s: SubscriptionInsert, now: Date): Promise<SubscriptionRow> {
  const [row] = await rawQuery<SubscriptionRow>(
    db,
    Prisma.sql`INSERT INTO notification_subscriptions AS s (id, channel, name, url, secret, email_to, digest, kinds, days,
        project, shoot_namespace, shoot_name, enabled, created_by, created_at, updated_at)
      VALUES (gen_random_uuid(), ${s.channel}, ${s.name}, ${s.url}, ${s.secret}, ${s.emailTo}, ${s.digest},
        ${[...s.kinds]}::text[], ${[...s.days]}::int[], ${s.project}, ${s.shootNamespace}, ${s.shootName}, true,
        ${s.createdBy}, ${now}, ${now})
      RETURNING ${SUBSCRIPTION_COLUMNS}`,
  );
  return row;
}

export interface SubscriptionChange {
  readonly name?: string | null;
  readonly url?: string;
  readonly secret?: string;
  readonly emailTo?: string;
  readonly digest?: "each" | "daily";
  readonly kinds?: readonly string[];
  readonly days?: readonly number[];
  readonly enabled?: boolean;
}

/** Changes what is given; undefined when there is no such subscription (of that channel). */
export async function updateSubscription(
  db: Queryable,
  id: string,
  channel: "webhook" | "email",
  change: SubscriptionChange,
  now: Date,
): Promise<SubscriptionRow | undefined> {
  const sets: Prisma.Sql[] = [Prisma.sql`updated_at = ${now}`];
  if (change.name !== undefined) sets.push(Prisma.sql`name = ${change.name}`);
  if (change.url !== undefined) sets.push(Prisma.sql`url = ${change.url}`);
  if (change.secret !== undefined) sets.push(Prisma.sql`secret = ${change.secret}`);
  if (change.emailTo !== undefined) sets.push(Prisma.sql`email_to = ${change.emailTo}`);
  if (change.digest !== undefined) sets.push(Prisma.sql`digest = ${change.digest}`);
  if (change.kinds !== undefined) sets.push(Prisma.sql`kinds = ${[...change.kinds]}::text[]`);
  if (change.days !== undefined) sets.push(Prisma.sql`days = ${[...change.days]}::int[]`);
  if (change.enabled !== undefined) sets.push(Prisma.sql`enabled = ${change.enabled}`);
  const [row] = await rawQuery<SubscriptionRow>(
    db,
    Prisma.sql`UPDATE notification_subscriptions AS s SET ${Prisma.join(sets, ", ")}
      WHERE s.id = ${id}::uuid AND s.channel = ${channel} RETURNING ${SUBSCRIPTION_COLUMNS}`,
  );
  return row;
}

export async function findSubscription(
  db: Queryable,
  id: string,
  channel: "webhook" | "email",
  options: { lock?: boolean } = {},
): Promise<SubscriptionRow | undefined> {
  const [row] = await rawQuery<SubscriptionRow>(
    db,
    Prisma.sql`SELECT ${SUBSCRIPTION_COLUMNS} FROM notification_subscriptions s
      WHERE s.id = ${id}::uuid AND s.channel = ${channel} ${options.lock ? Prisma.sql`FOR UPDATE` : Prisma.empty}`,
  );
  return row;
}

/** A subscription's newest delivery, as the list shows it. */
export interface LastDeliveryRow {
  readonly state: string;
  /** When it was delivered, or else made (ISO 8601, as jsonb has it). */
  readonly at: string;
  readonly kind: string;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
}

/**
 * The subscriptions of a channel, newest first, each with its newest delivery (null: none yet),
 * in one statement (a probe of the deliveries' (subscription_id, created_at) index per row):
 * all of them (landscape readers), or those of `projects` (the caller's readable ones;
 * landscape-wide ones left out).
 */
export function listSubscriptions(
  db: Queryable,
  channel: "webhook" | "email",
  projects: readonly string[] | "all",
): Promise<(SubscriptionRow & { readonly lastDelivery: LastDeliveryRow | null })[]> {
  return rawQuery<SubscriptionRow & { lastDelivery: LastDeliveryRow | null }>(
    db,
    Prisma.sql`SELECT ${SUBSCRIPTION_COLUMNS}, last.delivery AS "lastDelivery"
      FROM notification_subscriptions s
      LEFT JOIN LATERAL (
        SELECT jsonb_build_object('state', d.state, 'at', COALESCE(d.delivered_at, d.created_at), 'kind', e.kind,
            'lastStatus', d.last_status, 'lastError', d.last_error) AS delivery
        FROM notification_deliveries d JOIN notification_events e ON e.id = d.event_id
        WHERE d.subscription_id = s.id
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT 1
      ) last ON true
      WHERE s.channel = ${channel}
        ${projects === "all" ? Prisma.empty : Prisma.sql`AND s.project = ANY(${[...projects]}::text[])`}
      ORDER BY s.created_at DESC, s.id`,
  );
}

export async function deleteSubscription(
  db: Queryable,
  id: string,
  channel: "webhook" | "email",
): Promise<SubscriptionRow | undefined> {
  const [row] = await rawQuery<SubscriptionRow>(
    db,
    Prisma.sql`DELETE FROM notification_subscriptions s WHERE s.id = ${id}::uuid AND s.channel = ${channel}
      RETURNING ${SUBSCRIPTION_COLUMNS}`,
  );
  return row;
}

/** The project a namespace belongs to, and whether the shoot exists, for a subscription's scope. */
export async function shootProject(
  db: Queryable,
  namespace: string,
  name: string,
): Promise<{ project: string | null } | undefined> {
  const [row] = await rawQuery<{ project: string | null }>(
    db,
    Prisma.sql`SELECT p.name AS project FROM shoots sh LEFT JOIN projects p ON p.namespace = sh.namespace
      WHERE sh.namespace = ${namespace} AND sh.name = ${name}`,
  );
  return row;
}

export async function projectExists(db: Queryable, project: string): Promise<boolean> {
  const rows = await rawQuery<{ one: number }>(db, Prisma.sql`SELECT 1 AS one FROM projects WHERE name = ${project}`);
  return rows.length > 0;
}

/**
 * The send-a-test event and its one delivery, to this subscription only (never fanned out: its
 * kind is no subscribable kind).
 */
export async function insertTestDelivery(
  db: Queryable,
  subscription: SubscriptionRow,
  event: Omit<EventInsert, "kind">,
  now: Date,
): Promise<string> {
  const [row] = await rawQuery<{ id: string }>(
    db,
    Prisma.sql`WITH e AS (
        INSERT INTO notification_events (id, kind, key, occurred_at, until, projects, shoot_namespace, shoot_name,
          days, summary, data, created_at)
        VALUES (gen_random_uuid(), 'test', ${event.key}, ${event.occurredAt}, NULL, ${[...event.projects]}::text[],
          ${event.shootNamespace}, ${event.shootName}, NULL, ${event.summary}, ${JSON.stringify(event.data)}::jsonb, ${now})
        RETURNING id
      )
      INSERT INTO notification_deliveries (id, subscription_id, event_id, next_attempt_at, created_at)
      SELECT gen_random_uuid(), ${subscription.id}::uuid, e.id, ${now}, ${now} FROM e
      RETURNING id::text AS id`,
  );
  return row.id;
}

// --- Deliveries: claims, outcomes, history ---------------------------------------------------

/** A delivery as claimed: its subscription (with the secret) and event. */
export interface ClaimedRow {
  readonly id: string;
  /** The attempts made before this one. */
  readonly attempts: number;
  /** When the delivery was made (a daily digest's delivery waits from then for its moment). */
  readonly createdAt: Date;
  /** Until when this claim holds (its outcome is stored only while the claim is still this one). */
  readonly claimedUntil: Date;
  readonly subscription: SubscriptionRow;
  readonly event: NotificationEventRow;
}

/** Due: Pending and its time has come, or Sending under a claim that expired (its process died). */
const due = (now: Date) =>
  Prisma.sql`((d.state = 'Pending' AND d.next_attempt_at <= ${now}) OR (d.state = 'Sending' AND d.claimed_until < ${now}))`;

/**
 * Claims the due deliveries of at most `subscriptions` enabled subscriptions (the longest waiting
 * first), at most `perSubscription` each (`perDigest` for a daily e-mail digest, whose waiting
 * deliveries must go as ONE mail), until `claimedUntil` (or its channel's time in
 * `claimedUntilByChannel`: an e-mail batch takes longer than a webhook's). A subscription is
 * claimed by one claimer at a time: its row is locked (SKIP LOCKED) while the claim is made, and
 * one whose deliveries are being sent under a live claim is passed over, so a receiver that hangs
 * holds one claimer only and deliveries to it stay in order. Two processes never claim the same
 * delivery: the rows move to Sending in the claim's transaction.
 */
export async function claimDueDeliveries(
  db: Db,
  options: {
    now: Date;
    claimedUntil: Date;
    claimedUntilByChannel?: Readonly<Partial<Record<"webhook" | "email", Date>>>;
    /** Only subscriptions of these channels (those this process can send). */
    channels: readonly string[];
    subscriptions: number;
    perSubscription: number;
    /** Per daily e-mail digest subscription (default: perSubscription). */
    perDigest?: number;
    scan?: number;
  },
): Promise<ClaimedRow[]> {
  const { now, claimedUntil } = options;
  if (options.channels.length === 0) return [];
  const channels = Prisma.sql`s.channel = ANY(${[...options.channels]}::text[])`;
  const untilByChannel = JSON.stringify(
    Object.fromEntries(Object.entries(options.claimedUntilByChannel ?? {}).map(([c, at]) => [c, at?.toISOString()])),
  );
  return db.$transaction(async (tx) => {
    const candidates = await rawQuery<{ id: string }>(
      tx,
      Prisma.sql`SELECT c.subscription_id::text AS id FROM (
          SELECT d.subscription_id, d.next_attempt_at FROM notification_deliveries d
          JOIN notification_subscriptions s ON s.id = d.subscription_id AND s.enabled AND ${channels}
          WHERE ${due(now)} ORDER BY d.next_attempt_at LIMIT ${options.scan ?? 1000}
        ) c GROUP BY c.subscription_id ORDER BY min(c.next_attempt_at)`,
    );
    if (candidates.length === 0) return [];
    const picked = await rawQuery<{ id: string }>(
      tx,
      Prisma.sql`SELECT s.id::text AS id FROM notification_subscriptions s
        WHERE s.id = ANY(${candidates.map((c) => c.id)}::uuid[]) AND s.enabled
          AND NOT EXISTS (SELECT 1 FROM notification_deliveries x
            WHERE x.subscription_id = s.id AND x.state = 'Sending' AND x.claimed_until >= ${now})
        ORDER BY array_position(${candidates.map((c) => c.id)}::uuid[], s.id)
        LIMIT ${options.subscriptions}
        FOR UPDATE SKIP LOCKED`,
    );
    if (picked.length === 0) return [];
    const claimed = await rawQuery<{
      id: string;
      attempts: number;
      subscriptionId: string;
      eventId: string;
      createdAt: Date;
      claimedUntil: Date;
    }>(
      tx,
      Prisma.sql`WITH ranked AS (
          SELECT d.id, s.channel,
            row_number() OVER (PARTITION BY d.subscription_id ORDER BY d.next_attempt_at, d.created_at, d.id) AS r,
            CASE WHEN s.channel = 'email' AND s.digest = 'daily' THEN ${options.perDigest ?? options.perSubscription}::int
              ELSE ${options.perSubscription}::int END AS cap
          FROM notification_deliveries d JOIN notification_subscriptions s ON s.id = d.subscription_id
          WHERE d.subscription_id = ANY(${picked.map((p) => p.id)}::uuid[]) AND ${due(now)}
        )
        UPDATE notification_deliveries d SET state = 'Sending',
          claimed_until = COALESCE((${untilByChannel}::jsonb ->> ranked.channel)::timestamptz, ${claimedUntil})
        FROM ranked WHERE d.id = ranked.id AND ranked.r <= ranked.cap
        RETURNING d.id::text AS id, d.attempts, d.subscription_id::text AS "subscriptionId", d.event_id::text AS "eventId",
          d.created_at AS "createdAt", d.claimed_until AS "claimedUntil"`,
    );
    if (claimed.length === 0) return [];
    const subscriptions = await rawQuery<SubscriptionRow>(
      tx,
      Prisma.sql`SELECT ${SUBSCRIPTION_COLUMNS} FROM notification_subscriptions s
        WHERE s.id = ANY(${picked.map((p) => p.id)}::uuid[])`,
    );
    const events = await rawQuery<NotificationEventRow>(
      tx,
      Prisma.sql`SELECT ${EVENT_COLUMNS} FROM notification_events e
        WHERE e.id = ANY(${[...new Set(claimed.map((c) => c.eventId))]}::uuid[])`,
    );
    const subscriptionById = new Map(subscriptions.map((s) => [s.id, s]));
    const eventById = new Map(events.map((e) => [e.id, e]));
    return claimed.map((c) => ({
      id: c.id,
      attempts: c.attempts,
      createdAt: c.createdAt,
      claimedUntil: c.claimedUntil,
      subscription: subscriptionById.get(c.subscriptionId)!,
      event: eventById.get(c.eventId)!,
    }));
  });
}

/** What became of one claimed delivery. */
export type DeliveryResult =
  | {
      readonly kind: "attempt";
      readonly id: string;
      readonly at: Date;
      readonly durationMs: number;
      readonly status: number | null;
      readonly error: string | null;
      readonly response: string | null;
      /** Delivered, Pending (tried again at nextAttemptAt) or Failed (given up). */
      readonly state: "Delivered" | "Pending" | "Failed";
      readonly nextAttemptAt: Date;
    }
  | { readonly kind: "defer"; readonly id: string; readonly until: Date };

/**
 * Stores the results of a claim, each only if the claim is still this one (`claimedUntil`: a
 * claim taken over after it expired has a later one), with the attempt it was. Answers the ids
 * stored.
 */
export async function storeDeliveryResults(
  db: Queryable,
  claimedUntil: Date,
  results: readonly DeliveryResult[],
): Promise<Set<string>> {
  if (results.length === 0) return new Set();
  const input = JSON.stringify(
    results.map((r) =>
      r.kind === "defer"
        ? { id: r.id, defer: true, next_attempt_at: r.until.toISOString() }
        : {
            id: r.id,
            defer: false,
            at: r.at.toISOString(),
            duration_ms: r.durationMs,
            status: r.status,
            error: r.error,
            response: r.response,
            state: r.state,
            next_attempt_at: r.nextAttemptAt.toISOString(),
          },
    ),
  );
  const rows = await rawQuery<{ id: string }>(
    db,
    Prisma.sql`WITH r AS (
        SELECT * FROM jsonb_to_recordset(${input}::jsonb) AS r(id uuid, defer boolean, at timestamptz, duration_ms int,
          status int, error text, response text, state text, next_attempt_at timestamptz)
      ), moved AS (
        UPDATE notification_deliveries d SET
          state = CASE WHEN r.defer THEN 'Pending' ELSE r.state END,
          attempts = d.attempts + CASE WHEN r.defer THEN 0 ELSE 1 END,
          next_attempt_at = r.next_attempt_at,
          claimed_until = NULL,
          delivered_at = CASE WHEN r.state = 'Delivered' THEN r.at ELSE d.delivered_at END,
          last_status = CASE WHEN r.defer THEN d.last_status ELSE r.status END,
          last_error = CASE WHEN r.defer THEN d.last_error ELSE r.error END
        FROM r WHERE d.id = r.id AND d.state = 'Sending' AND d.claimed_until = ${claimedUntil}
        RETURNING d.id
      ), kept AS (
        INSERT INTO notification_attempts (delivery_id, at, duration_ms, status, error, response)
        SELECT r.id, r.at, r.duration_ms, r.status, r.error, r.response FROM r JOIN moved m ON m.id = r.id
        WHERE NOT r.defer
      )
      SELECT id::text AS id FROM moved`,
  );
  return new Set(rows.map((r) => r.id));
}

export interface DeliveryHistoryRow {
  readonly id: string;
  readonly eventId: string;
  readonly kind: string;
  readonly summary: string;
  readonly state: string;
  readonly attempts: number;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: Date | null;
  readonly nextAttemptAt: Date;
  readonly createdAt: Date;
  readonly history: {
    at: string;
    duration_ms: number;
    status: number | null;
    error: string | null;
    response: string | null;
  }[];
}

/**
 * A subscription's deliveries, newest first, with every attempt; `before` is the previous page's
 * last (createdAt, id).
 */
export function listDeliveries(
  db: Queryable,
  subscriptionId: string,
  options: { limit: number; before?: { createdAt: Date; id: string } },
): Promise<DeliveryHistoryRow[]> {
  const before = options.before;
  return rawQuery<DeliveryHistoryRow>(
    db,
    Prisma.sql`SELECT d.id::text AS id, d.event_id::text AS "eventId", e.kind, e.summary, d.state, d.attempts,
        d.last_status AS "lastStatus", d.last_error AS "lastError", d.delivered_at AS "deliveredAt",
        d.next_attempt_at AS "nextAttemptAt", d.created_at AS "createdAt",
        COALESCE((SELECT jsonb_agg(jsonb_build_object('at', a.at, 'duration_ms', a.duration_ms, 'status', a.status,
            'error', a.error, 'response', a.response) ORDER BY a.at, a.id)
          FROM notification_attempts a WHERE a.delivery_id = d.id), '[]'::jsonb) AS history
      FROM notification_deliveries d JOIN notification_events e ON e.id = d.event_id
      WHERE d.subscription_id = ${subscriptionId}::uuid
        ${before ? Prisma.sql`AND (d.created_at, d.id) < (${before.createdAt}, ${before.id}::uuid)` : Prisma.empty}
      ORDER BY d.created_at DESC, d.id DESC
      LIMIT ${options.limit}`,
  );
}

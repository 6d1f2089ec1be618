// Notifications (issue 30): subscriptions, the events worth telling (each recorded once by its
// key), one delivery per event and subscription (exactly once: a unique pair), and every attempt.
// Events come in thousands per sweep at 100,000 shoots, so recording and fan-out are one
// statement each, set-based; subscriptions are few (a landscape holds dozens), so the join of new
// events with them is small.
import { Prisma } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";

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
 * its thresholds (events with days), in its scope (the landscape, one of the event's projects, or
 * the very shoot), and still relevant to it: a condition event while `until` is ahead, a
 * transition event only if the subscription existed when it happened.
 */
const wants = (now: Date) => Prisma.sql`s.enabled
  AND e.kind = ANY(s.kinds)
  AND (e.days IS NULL OR e.days = ANY(s.days))
  AND (s.project IS NULL OR s.project = ANY(e.projects))
  AND (s.shoot_name IS NULL OR (s.shoot_namespace = e.shoot_namespace AND s.shoot_name = e.shoot_name))
  AND (CASE WHEN e.until IS NULL THEN s.created_at <= e.occurred_at ELSE e.until > ${now} END)`;

/**
 * Records the events whose key is new (a second record of a key is dropped, in this call or any
 * earlier one) and, in the same statement, one Pending delivery per subscription that wants each.
 */
export async function insertEventsWithDeliveries(
  db: Queryable,
  events: readonly EventInsert[],
  now: Date,
): Promise<{ recorded: number; deliveries: number }> {
  if (events.length === 0) return { recorded: 0, deliveries: 0 };
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

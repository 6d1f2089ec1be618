// The notification events' sweep (issue 30): every ALMANAC_NOTIFY_SWEEP_SECONDS a job runs each
// producer whose kind someone subscribes to (subscribedDays: the thresholds asked for; none means
// nobody subscribes) and records what it found that is not recorded yet. The queue is "stately"
// (one sweep waiting, one running), so any number of worker processes ask for sweeps and only one
// runs at a time; a sweep that died is taken over when its job expires, and a restart goes on from
// the tables, since everything a sweep knows is there (the events' keys, and the shoots it saw
// unhealthy). Transitions are looked for only LOOK_BACK_MS back, so a first start on an old
// database does not replay its history.
import type { Job } from "pg-boss";
import { Prisma } from "../db/generated/client.ts";
import { type Db, type Queryable, rawQuery } from "../db/client.ts";
import { redactSecrets } from "../engine/redact-secrets.ts";
import { HOUR_MS } from "../engine/time-units.ts";
import { type PgBoss, QUEUES } from "../jobs/queue.ts";
import { logger } from "../observability/logger.ts";
import { RECORDING_TRANSACTION_MS } from "../store/notifications.ts";
import { NOTIFICATION_KINDS_WITH_DAYS, type NotificationKind } from "../api/notifications.ts";
import { type NewNotificationEvent, recordNotificationEvents, subscribedDays } from "./notification-events.ts";
import { versionExpiringEvents } from "./notification-events-expiring.ts";
import { forcedUpdateEvents, stuckEvents } from "./notification-events-forecast.ts";
import { maintenanceFailedEvents } from "./notification-events-maintenance.ts";
import { migrationFailedEvents, migrationFinishedEvents } from "./notification-events-migrations.ts";
import type { NotificationProducer } from "./notification-events-producer.ts";
import { rememberUnhealthy, unhealthyTransitions } from "./notification-events-unhealthy.ts";
import { updateRunPausedEvents, updateRunWaitingEvents } from "./notification-events-update-runs.ts";

/** How far back a transition (a failed run, a pause, a shoot turning unhealthy) may lie and still be told. */
export const LOOK_BACK_MS = 24 * HOUR_MS;

/** A mark older than this, and the sweep looks at everything again (a long pause, a clock moved). */
const MARK_FRESH_MS = HOUR_MS;

/** The kinds whose sweep may look only at what changed since the last (notification_sweep_marks). */
const MARKED: ReadonlySet<NotificationKind> = new Set([
  "forced-update",
  "version-expiring",
  "stuck",
  "maintenance-failed",
]);

/**
 * The last sweep's moment for `kind`, when it used the same thresholds and is recent (and not after
 * `now`): the producer then looks only at what can have changed since.
 */
async function lastSweep(db: Db, kind: NotificationKind, days: readonly number[], now: number) {
  const [mark] = await rawQuery<{ swept_at: Date; days: number[] }>(
    db,
    Prisma.sql`SELECT swept_at, days FROM notification_sweep_marks WHERE kind = ${kind}`,
  );
  if (!mark) return undefined;
  const at = mark.swept_at.getTime();
  const sameDays = mark.days.length === days.length && mark.days.every((d, i) => d === days[i]);
  return sameDays && at <= now && now - at <= MARK_FRESH_MS ? at : undefined;
}

async function markSweep(db: Db, kind: NotificationKind, days: readonly number[], now: number) {
  await rawQuery(
    db,
    Prisma.sql`INSERT INTO notification_sweep_marks (kind, swept_at, days) VALUES (${kind}, ${new Date(now)}, ${[...days]}::int[])
      ON CONFLICT (kind) DO UPDATE SET swept_at = EXCLUDED.swept_at, days = EXCLUDED.days`,
  );
}

/** The producers of every kind but shoot-unhealthy, which keeps state of its own (below). */
const PRODUCERS: readonly (readonly [NotificationKind, NotificationProducer])[] = [
  ["forced-update", forcedUpdateEvents],
  ["version-expiring", versionExpiringEvents],
  ["stuck", stuckEvents],
  ["maintenance-failed", maintenanceFailedEvents],
  ["migration-failed", migrationFailedEvents],
  ["migration-finished", migrationFinishedEvents],
  ["update-run-waiting", updateRunWaitingEvents],
  ["update-run-paused", updateRunPausedEvents],
];

/** Those of `events` whose key is not recorded yet (one look along the keys' unique index). */
export async function unrecordedEvents(
  db: Queryable,
  events: readonly NewNotificationEvent[],
): Promise<NewNotificationEvent[]> {
  if (events.length === 0) return [];
  const recorded = await rawQuery<{ key: string }>(
    db,
    Prisma.sql`SELECT key FROM notification_events WHERE key = ANY(${events.map((e) => e.key)}::text[])`,
  );
  if (recorded.length === 0) return [...events];
  const known = new Set(recorded.map((r) => r.key));
  return events.filter((e) => !known.has(e.key));
}

export interface SweepReport {
  /** Per kind swept: events found, new among them, recorded, and the ms it took. */
  readonly kinds: Partial<Record<NotificationKind, { found: number; fresh: number; recorded: number; ms: number }>>;
  readonly recorded: number;
}

export interface SweepOptions {
  readonly lookBackMs?: number;
}

/** The kinds some enabled subscription asks for. */
async function subscribedKinds(db: Db): Promise<Set<string>> {
  const rows = await rawQuery<{ kind: string }>(
    db,
    Prisma.sql`SELECT DISTINCT k AS kind FROM notification_subscriptions s, unnest(s.kinds) AS k WHERE s.enabled`,
  );
  return new Set(rows.map((r) => r.kind));
}

/**
 * The thresholds to find `kind`'s events with: those its subscriptions ask for (forced-update,
 * version-expiring), [] when nobody subscribes to it; for the kinds without thresholds, [0]
 * (unused) when someone does.
 */
async function daysFor(db: Db, kind: NotificationKind, subscribed: ReadonlySet<string>): Promise<number[]> {
  if (!subscribed.has(kind)) return [];
  return NOTIFICATION_KINDS_WITH_DAYS.includes(kind) ? subscribedDays(db, kind) : [0];
}

/** One sweep at `now`: every subscribed kind's events found and the new ones recorded. */
export async function sweepNotificationEvents(db: Db, now: number, options: SweepOptions = {}): Promise<SweepReport> {
  const lookBackMs = options.lookBackMs ?? LOOK_BACK_MS;
  const kinds: Record<string, { found: number; fresh: number; recorded: number; ms: number }> = {};
  let recorded = 0;
  const record = async (
    kind: NotificationKind,
    started: number,
    found: readonly NewNotificationEvent[],
    into: Queryable = db,
  ) => {
    const fresh = await unrecordedEvents(into, found);
    const done = fresh.length > 0 ? (await recordNotificationEvents(into, fresh, new Date(now))).recorded : 0;
    recorded += done;
    kinds[kind] = { found: found.length, fresh: fresh.length, recorded: done, ms: Date.now() - started };
  };
  const subscribed = await subscribedKinds(db);
  for (const [kind, produce] of PRODUCERS) {
    const days = await daysFor(db, kind, subscribed);
    if (days.length === 0) continue;
    const started = Date.now();
    const changedSince = MARKED.has(kind) ? await lastSweep(db, kind, days, now) : undefined;
    await record(
      kind,
      started,
      await produce(db, { now, days, lookBackMs, ...(changedSince !== undefined ? { changedSince } : {}) }),
    );
    // Only once recorded: a sweep that died leaves the mark where it was, and the next looks again.
    if (MARKED.has(kind)) await markSweep(db, kind, days, now);
  }
  // Whether anyone subscribes or not, the table of shoots seen unhealthy follows the fleet, so
  // that a subscription made later tells spells that begin after it, not those seen before.
  // The events and the marks that they were seen commit together: a spell whose status gives no
  // moment is keyed on when it was first seen, so a crash between the two would tell it twice.
  const started = Date.now();
  const transitions = await unhealthyTransitions(db, now, lookBackMs);
  const found = transitions.flatMap((t) => (t.event ? [t.event] : []));
  if (subscribed.has("shoot-unhealthy") || transitions.length > 0)
    // As long as a recording may take (thousands of spells at once after a garden's outage).
    await db.$transaction(
      async (tx) => {
        if (subscribed.has("shoot-unhealthy")) await record("shoot-unhealthy", started, found, tx);
        await rememberUnhealthy(tx, transitions);
      },
      { timeout: RECORDING_TRANSACTION_MS, maxWait: RECORDING_TRANSACTION_MS },
    );
  return { kinds, recorded };
}

export interface NotificationSweepOptions {
  /** How often a sweep is asked for (ALMANAC_NOTIFY_SWEEP_SECONDS). */
  readonly everyMs: number;
  readonly pollSeconds?: number;
  readonly lookBackMs?: number;
}

export interface RunningSweep {
  stop(): void;
}

/** Works the sweep's queue in this process and asks for a sweep now and every `everyMs`. */
export async function startNotificationSweep(
  db: Db,
  boss: PgBoss,
  options: NotificationSweepOptions,
): Promise<RunningSweep> {
  await boss.work<Record<string, never>>(
    QUEUES.notificationSweep,
    { batchSize: 1, pollingIntervalSeconds: options.pollSeconds ?? 1 },
    async ([_job]: Job<Record<string, never>>[]) => {
      const report = await sweepNotificationEvents(db, Date.now(), {
        ...(options.lookBackMs !== undefined ? { lookBackMs: options.lookBackMs } : {}),
      });
      if (report.recorded > 0) logger().info(`Notification events recorded: ${report.recorded}`);
    },
  );
  const request = () =>
    boss
      .send(QUEUES.notificationSweep, {})
      .catch((error: unknown) =>
        logger().error(
          `Asking for a notification sweep failed: ${redactSecrets(error instanceof Error ? error.message : String(error))}`,
        ),
      );
  await request();
  const timer = setInterval(request, options.everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

// Placing the simulated garden's hibernation moments: for each shoot with hibernation schedules,
// the next moment its schedules hibernate or wake it (the hibernation_moments row, the truth) and
// a job that wakes a worker then, written in the caller's transaction, as scheduled maintenance
// does (schedule-maintenance.ts). A job carries the dueAt it was made for, so a job left from
// changed schedules finds another dueAt and does nothing. Only shoots with schedules get a row,
// so the work scales with them, not with the fleet. A live garden has none: Gardener's own
// hibernation controller acts there.
import type { Db, Tx } from "../db/client.ts";
import { nextScheduledMoment, shootHibernationSchedules } from "../engine/scheduled-hibernation.ts";
import { validateHibernationSchedules } from "../engine/hibernation-schedule.ts";
import type { Shoot } from "../gardener/types.ts";
import {
  deleteHibernationMoments,
  type HibernationMomentRow,
  overdueHibernationMoments,
  upsertHibernationMoments,
} from "../store/hibernation-moments.ts";
import { enqueueMoments, type MomentJob } from "./moment-jobs.ts";
import { type PgBoss, QUEUES } from "./queue.ts";

/** A hibernation job: the shoot and the dueAt of the moment it was made for. */
export type HibernationJob = MomentJob;

/** The shoot's next moment after `after`, or none (no valid schedules, being deleted, never fires). */
export function nextMomentOf(shoot: Shoot, after: number): Date | undefined {
  const schedules = shootHibernationSchedules(shoot);
  if (shoot.metadata.deletionTimestamp || schedules.length === 0) return undefined;
  if (validateHibernationSchedules(schedules).length > 0) return undefined;
  return nextScheduledMoment(schedules, after);
}

/**
 * Places (or removes) the next moment of each shoot after `after`: a row and a job for those that
 * have one, no row for the others.
 */
export async function scheduleHibernation(
  tx: Tx,
  boss: PgBoss,
  shoots: readonly { namespace: string; name: string; shoot: Shoot }[],
  after: number,
): Promise<HibernationMomentRow[]> {
  const placed: HibernationMomentRow[] = [];
  const none: { namespace: string; name: string }[] = [];
  for (const { namespace, name, shoot } of shoots) {
    const dueAt = nextMomentOf(shoot, after);
    if (dueAt) placed.push({ namespace, name, dueAt });
    else none.push({ namespace, name });
  }
  await deleteHibernationMoments(tx, none);
  await upsertHibernationMoments(tx, placed);
  await enqueueHibernation(tx, boss, placed);
  return placed;
}

export async function enqueueHibernation(
  tx: Tx,
  boss: PgBoss,
  moments: readonly HibernationMomentRow[],
): Promise<void> {
  await enqueueMoments(tx, boss, QUEUES.hibernation, moments);
}

/**
 * Places the moments of shoots with schedules but no row (a database seeded without a queue, or
 * made before this table). Reads only the shoots whose spec has schedules.
 */
export async function ensureHibernationMoments(db: Db, boss: PgBoss, now: number): Promise<number> {
  return db.$transaction(
    async (tx) => {
      const missing = await tx.$queryRaw<
        { namespace: string; name: string; metadata: Shoot["metadata"]; spec: Shoot["spec"] }[]
      >`
        SELECT s.namespace, s.name, s.metadata, s.spec FROM shoots s
        LEFT JOIN hibernation_moments h ON h.namespace = s.namespace AND h.name = s.name
        WHERE h.due_at IS NULL AND jsonb_typeof(s.spec->'hibernation'->'schedules') = 'array'
        FOR UPDATE OF s`;
      const placed = await scheduleHibernation(
        tx,
        boss,
        missing.map((m) => ({ namespace: m.namespace, name: m.name, shoot: { metadata: m.metadata, spec: m.spec } })),
        now,
      );
      return placed.length;
    },
    { timeout: 120_000 },
  );
}

/** Sends again the jobs of moments more than `graceMs` overdue (their job was lost). */
export async function requeueOverdueHibernation(db: Db, boss: PgBoss, now: number, graceMs: number): Promise<number> {
  return db.$transaction(async (tx) => {
    const rows = await overdueHibernationMoments(tx, now, graceMs);
    await enqueueHibernation(tx, boss, rows);
    return rows.length;
  });
}

// Placing shoots' scheduled maintenance: the schedule row (the truth) and the job that wakes a
// worker at that moment, written in the caller's transaction. A job carries the dueAt it was
// made for, so a job left over from a moved schedule finds a different dueAt and does nothing.
import type { Db, Tx } from "../db/client.ts";
import { nextAtSecondOfDay } from "../engine/maintenance-moment.ts";
import { upsertSchedules, type Schedule } from "../store/schedules.ts";
import { NOT_MAINTAINED } from "../store/shoot-columns.ts";
import { enqueueMoments, type MomentJob } from "./moment-jobs.ts";
import { type PgBoss, QUEUES } from "./queue.ts";

/** A maintenance job: the shoot and the dueAt its schedule said when the job was made. */
export type MaintenanceJob = MomentJob;

/** Schedules each shoot at the first moment at or after `from` that its window's second-of-day falls on. */
export async function scheduleMaintenance(
  tx: Tx,
  boss: PgBoss,
  shoots: readonly { namespace: string; name: string; secondOfDay: number }[],
  from: number,
): Promise<Schedule[]> {
  const schedules = shoots.map((s) => ({ ...s, dueAt: new Date(nextAtSecondOfDay(s.secondOfDay, from)) }));
  await upsertSchedules(tx, schedules);
  await enqueueMaintenance(tx, boss, schedules);
  return schedules;
}

export async function enqueueMaintenance(tx: Tx, boss: PgBoss, schedules: readonly Schedule[]): Promise<void> {
  await enqueueMoments(tx, boss, QUEUES.maintenance, schedules);
}

/** Schedules every maintained shoot that has no schedule yet (a database seeded without a queue). */
export async function ensureSchedules(db: Db, boss: PgBoss, now: number): Promise<number> {
  return db.$transaction(
    async (tx) => {
      const missing = await tx.$queryRaw<{ namespace: string; name: string; second: number }[]>`
      SELECT s.namespace, s.name, s.maintenance_second_of_day AS second FROM shoots s
      LEFT JOIN maintenance_schedules m ON m.namespace = s.namespace AND m.name = s.name
      WHERE m.due_at IS NULL AND s.maintenance_second_of_day < ${NOT_MAINTAINED}::int
      FOR UPDATE OF s`;
      await scheduleMaintenance(
        tx,
        boss,
        missing.map((m) => ({ namespace: m.namespace, name: m.name, secondOfDay: m.second })),
        now,
      );
      return missing.length;
    },
    { timeout: 120_000 },
  );
}

/** Sends again the jobs of schedules more than `graceMs` overdue (their job was lost). */
export async function requeueOverdue(db: Db, boss: PgBoss, now: number, graceMs: number): Promise<number> {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ namespace: string; name: string; due_at: Date; second_of_day: number }[]>`
      SELECT namespace, name, due_at, second_of_day FROM maintenance_schedules
      WHERE due_at < ${new Date(now - graceMs)} ORDER BY due_at LIMIT 5000`;
    await enqueueMaintenance(
      tx,
      boss,
      rows.map((r) => ({ namespace: r.namespace, name: r.name, dueAt: r.due_at, secondOfDay: r.second_of_day })),
    );
    return rows.length;
  });
}

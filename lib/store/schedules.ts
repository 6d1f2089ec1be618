// Maintenance schedules: when each shoot's next scheduled maintenance runs.
import { Prisma } from "../db/generated/client.ts";
import type { Queryable, Tx } from "../db/client.ts";

export interface Schedule {
  readonly namespace: string;
  readonly name: string;
  readonly dueAt: Date;
  readonly secondOfDay: number;
}

export async function upsertSchedules(tx: Tx, schedules: readonly Schedule[]): Promise<void> {
  if (schedules.length === 0) return;
  await tx.$executeRaw(Prisma.sql`
    INSERT INTO maintenance_schedules (namespace, name, due_at, second_of_day, updated_at)
    SELECT s.namespace, s.name, s.due_at, s.second_of_day, now()
    FROM unnest(${schedules.map((s) => s.namespace)}::text[], ${schedules.map((s) => s.name)}::text[],
                ${schedules.map((s) => s.dueAt)}::timestamptz[], ${schedules.map((s) => s.secondOfDay)}::int[])
      AS s(namespace, name, due_at, second_of_day)
    ON CONFLICT (namespace, name) DO UPDATE SET due_at = EXCLUDED.due_at, second_of_day = EXCLUDED.second_of_day, updated_at = now()`);
}

/** The schedules of these shoots, locked until the transaction ends. */
export async function lockSchedules(
  tx: Tx,
  keys: readonly { namespace: string; name: string }[],
): Promise<Map<string, Schedule>> {
  if (keys.length === 0) return new Map();
  const rows = await tx.$queryRaw<
    { namespace: string; name: string; due_at: Date; second_of_day: number }[]
  >(Prisma.sql`
    SELECT s.namespace, s.name, s.due_at, s.second_of_day FROM maintenance_schedules s
    JOIN unnest(${keys.map((k) => k.namespace)}::text[], ${keys.map((k) => k.name)}::text[]) AS k(namespace, name)
      ON s.namespace = k.namespace AND s.name = k.name
    ORDER BY s.namespace, s.name
    FOR UPDATE OF s`);
  return new Map(
    rows.map((r) => [
      `${r.namespace}/${r.name}`,
      { namespace: r.namespace, name: r.name, dueAt: r.due_at, secondOfDay: r.second_of_day },
    ]),
  );
}

export async function findSchedule(db: Queryable, namespace: string, name: string): Promise<Schedule | undefined> {
  const row = await db.maintenanceSchedule.findUnique({ where: { namespace_name: { namespace, name } } });
  return row ? { namespace, name, dueAt: row.dueAt, secondOfDay: row.secondOfDay } : undefined;
}

// The simulated garden's hibernation moments: when each shoot with hibernation schedules is next
// hibernated or woken (hibernation_moments; lib/jobs/schedule-hibernation.ts keeps them).
import { Prisma } from "../db/generated/client.ts";
import type { Queryable, Tx } from "../db/client.ts";

export interface HibernationMomentRow {
  readonly namespace: string;
  readonly name: string;
  readonly dueAt: Date;
}

const key = (r: { namespace: string; name: string }) => `${r.namespace}/${r.name}`;

export async function upsertHibernationMoments(tx: Tx, moments: readonly HibernationMomentRow[]): Promise<void> {
  if (moments.length === 0) return;
  await tx.$executeRaw(Prisma.sql`
    INSERT INTO hibernation_moments (namespace, name, due_at, updated_at)
    SELECT m.namespace, m.name, m.due_at, now()
    FROM unnest(${moments.map((m) => m.namespace)}::text[], ${moments.map((m) => m.name)}::text[],
                ${moments.map((m) => m.dueAt)}::timestamptz[]) AS m(namespace, name, due_at)
    ON CONFLICT (namespace, name) DO UPDATE SET due_at = EXCLUDED.due_at, updated_at = now()`);
}

export async function deleteHibernationMoments(
  tx: Tx,
  keys: readonly { namespace: string; name: string }[],
): Promise<void> {
  if (keys.length === 0) return;
  await tx.$executeRaw(Prisma.sql`
    DELETE FROM hibernation_moments h
    USING unnest(${keys.map((k) => k.namespace)}::text[], ${keys.map((k) => k.name)}::text[]) AS k(namespace, name)
    WHERE h.namespace = k.namespace AND h.name = k.name`);
}

/** The moments of these shoots, locked until the transaction ends. */
export async function lockHibernationMoments(
  tx: Tx,
  keys: readonly { namespace: string; name: string }[],
): Promise<Map<string, HibernationMomentRow>> {
  if (keys.length === 0) return new Map();
  const rows = await tx.$queryRaw<{ namespace: string; name: string; due_at: Date }[]>(Prisma.sql`
    SELECT h.namespace, h.name, h.due_at FROM hibernation_moments h
    JOIN unnest(${keys.map((k) => k.namespace)}::text[], ${keys.map((k) => k.name)}::text[]) AS k(namespace, name)
      ON h.namespace = k.namespace AND h.name = k.name
    ORDER BY h.namespace, h.name
    FOR UPDATE OF h`);
  return new Map(rows.map((r) => [key(r), { namespace: r.namespace, name: r.name, dueAt: r.due_at }]));
}

/** Moments more than `graceMs` overdue at `now` (their job was lost), oldest first. */
export async function overdueHibernationMoments(
  db: Queryable,
  now: number,
  graceMs: number,
  limit = 5000,
): Promise<HibernationMomentRow[]> {
  const rows = await db.$queryRaw<{ namespace: string; name: string; due_at: Date }[]>(Prisma.sql`
    SELECT namespace, name, due_at FROM hibernation_moments
    WHERE due_at < ${new Date(now - graceMs)} ORDER BY due_at LIMIT ${limit}`);
  return rows.map((r) => ({ namespace: r.namespace, name: r.name, dueAt: r.due_at }));
}

export async function findHibernationMoment(
  db: Queryable,
  namespace: string,
  name: string,
): Promise<HibernationMomentRow | undefined> {
  const row = await db.hibernationMoment.findUnique({ where: { namespace_name: { namespace, name } } });
  return row ? { namespace, name, dueAt: row.dueAt } : undefined;
}

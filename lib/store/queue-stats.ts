// What waits in the job queue (pg-boss, schema "pgboss"), read straight from its tables for the
// metrics: per queue, how many jobs are due and how long the longest-waiting has been due. A job
// scheduled for later (a maintenance window next week) is not waiting yet.
import { Prisma as PrismaSql } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";

export interface QueueStats {
  readonly queue: string;
  readonly depth: number;
  /** Seconds since the oldest due job became due; 0 when none is. */
  readonly oldestAgeSeconds: number;
}

/** Every queue's figures; none before the queue has made its tables. */
export async function readQueueStats(db: Queryable): Promise<QueueStats[]> {
  const [{ table }] = await rawQuery<{ table: string | null }>(
    db,
    PrismaSql.sql`SELECT to_regclass('pgboss.queue')::text AS table`,
  );
  if (table === null) return [];
  const rows = await rawQuery<{ queue: string; depth: number; age: number }>(
    db,
    PrismaSql.sql`SELECT q.name AS queue, count(j.id)::int AS depth,
                         COALESCE(EXTRACT(EPOCH FROM now() - min(j.start_after)), 0)::float8 AS age
                    FROM pgboss.queue q
                    LEFT JOIN pgboss.job j
                      ON j.name = q.name AND j.state IN ('created', 'retry') AND j.start_after <= now()
                   GROUP BY q.name ORDER BY q.name`,
  );
  return rows.map((r) => ({ queue: r.queue, depth: r.depth, oldestAgeSeconds: Math.max(0, r.age) }));
}

// Jobs of the queue (pg-boss, schema "pgboss") that ended failed: read straight from its table,
// which a worker that gave up leaves them in.
import { Prisma as PrismaSql } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";

export interface FailedJobRow {
  readonly id: string;
  readonly name: string;
  readonly data: unknown;
  readonly output: unknown;
  readonly retry_count: number;
  readonly created_on: Date;
  readonly completed_on: Date | null;
}

/** Whether the queue has made its table yet (it does on its first start). */
async function hasQueue(db: Queryable): Promise<boolean> {
  const [row] = await rawQuery<{ table: string | null }>(
    db,
    PrismaSql.sql`SELECT to_regclass('pgboss.job')::text AS table`,
  );
  return row?.table !== null && row?.table !== undefined;
}

export async function readFailedJobs(db: Queryable, limit: number): Promise<{ rows: FailedJobRow[]; total: number }> {
  if (!(await hasQueue(db))) return { rows: [], total: 0 };
  const rows = await rawQuery<FailedJobRow>(
    db,
    PrismaSql.sql`SELECT id::text, name, data, output, retry_count, created_on, completed_on
                    FROM pgboss.job WHERE state = 'failed'
                   ORDER BY completed_on DESC NULLS LAST, created_on DESC LIMIT ${limit}`,
  );
  const [{ total }] = await rawQuery<{ total: number }>(
    db,
    PrismaSql.sql`SELECT count(*)::int AS total FROM pgboss.job WHERE state = 'failed'`,
  );
  return { rows, total };
}

export async function readFailedJob(db: Queryable, id: string): Promise<FailedJobRow | undefined> {
  if (!(await hasQueue(db))) return undefined;
  const [row] = await rawQuery<FailedJobRow>(
    db,
    PrismaSql.sql`SELECT id::text, name, data, output, retry_count, created_on, completed_on
                    FROM pgboss.job WHERE id = ${id}::uuid AND state = 'failed'`,
  );
  return row;
}

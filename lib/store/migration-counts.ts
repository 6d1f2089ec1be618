// How many control-plane migrations are in each state (running, succeeded, failed...), for the
// metrics.
import { Prisma as PrismaSql } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";

export async function countMigrationsByState(db: Queryable): Promise<{ state: string; count: number }[]> {
  return rawQuery<{ state: string; count: number }>(
    db,
    PrismaSql.sql`SELECT state, count(*)::int AS count FROM control_plane_migrations GROUP BY state ORDER BY state`,
  );
}

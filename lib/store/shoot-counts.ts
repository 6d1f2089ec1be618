// How many shoots the whole landscape, or some namespaces, hold: read from shoot_counts, which
// the database keeps as shoots are inserted and deleted (its triggers, migration
// 20261124220000_shoot_counts), so the answer is a sum over a few rows however many shoots there
// are, and exactly what count(*) would say in the same snapshot.
import { Prisma } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";

/** Shoots in `namespaces` (every namespace when undefined). */
export async function countShootsIn(db: Queryable, namespaces: readonly string[] | undefined): Promise<number> {
  const rows = await rawQuery<{ count: number }>(db, Prisma.sql`SELECT ${shootsInSql(namespaces)} AS count`);
  return rows[0].count;
}

/** countShootsIn as a scalar subquery, for a statement that reads it beside other things. */
export function shootsInSql(namespaces: readonly string[] | undefined): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(sum(shoots), 0)::int FROM shoot_counts ${
    namespaces === undefined ? Prisma.empty : Prisma.sql`WHERE namespace = ANY(${[...namespaces]}::text[])`
  })`;
}

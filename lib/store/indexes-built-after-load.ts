// A bulk load into an empty table builds its secondary indexes once afterwards instead of adding
// every row to each of them: a build sorts the keys once, where a row at a time each insert walks
// its B-tree, and the trigram index merges every row's trigrams into its posting lists (at 20,000
// shoots the COPY of shoots took 8.2 s of the server's CPU with its indexes, 5.3 s without the
// trigram index alone, which then builds in 1 s). The indexes are dropped and made again from
// their own definitions (pg_get_indexdef: storage parameters, operator classes and all), in the
// load's transaction, so a failed load leaves them as they were. Only where the table was empty:
// DROP INDEX locks the table until the transaction ends, which blocks its readers, who would
// otherwise have read the rows the load replaces.
import { Prisma } from "../db/generated/client.ts";
import type { Tx } from "../db/client.ts";

/** The CREATE INDEX statements of the indexes set aside, to run once the rows are in. */
export type SetAsideIndexes = readonly string[];

/**
 * Drops the indexes of `table` that are not unique and that no constraint owns (the primary key
 * and unique indexes stay: the load's rows are checked as they come), if the table holds no row;
 * answers their definitions.
 */
export async function setIndexesAsideIfEmpty(tx: Tx, table: string): Promise<SetAsideIndexes> {
  const rows = await tx.$queryRaw<{ empty: boolean; name: string | null; definition: string | null }[]>(Prisma.sql`
    SELECT NOT EXISTS (SELECT 1 FROM ${Prisma.raw(quoted(table))}) AS empty,
      i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
    FROM (SELECT 1) AS one
    LEFT JOIN pg_index i ON i.indrelid = ${table}::regclass AND NOT i.indisunique
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
    ORDER BY 2`);
  if (!rows[0]?.empty) return [];
  const indexes = rows.filter((r) => r.name !== null && r.definition !== null);
  for (const index of indexes) await tx.$executeRawUnsafe(`DROP INDEX ${index.name}`);
  return indexes.map((i) => i.definition!);
}

/** Makes the indexes set aside again (after the load, in its transaction). */
export async function buildIndexesSetAside(tx: Tx, indexes: SetAsideIndexes): Promise<void> {
  for (const definition of indexes) await tx.$executeRawUnsafe(definition);
}

const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

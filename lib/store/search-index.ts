// Whether the fleet's free-text filter has its trigram index (on shoot_search_texts, the narrow
// copy of each shoot's search text). The migration creates it only where the server offers pg_trgm
// (every PostgreSQL build with its contrib modules, the embedded one included); elsewhere the
// filter still works, by reading every shoot, and start says so once.
import { Prisma } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";

export const SEARCH_INDEX = "shoot_search_texts_trgm_idx";

export async function hasSearchIndex(db: Queryable): Promise<boolean> {
  const rows = await rawQuery<{ present: boolean }>(
    db,
    Prisma.sql`SELECT to_regclass(${SEARCH_INDEX}) IS NOT NULL AS present`,
  );
  return rows[0].present;
}

/** The start log's warning when the index is missing, or undefined when it is there. */
export const missingSearchIndexWarning = (present: boolean): string | undefined =>
  present
    ? undefined
    : "Warning: the database has no pg_trgm extension, so the fleet's search reads every shoot " +
      "(slow beyond some 10,000 shoots). Install PostgreSQL's contrib modules and restart Almanac to index it.";

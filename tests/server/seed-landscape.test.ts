// The seed writes a landscape drawn a shoot at a time (drawLandscape: the next chunk drawn while
// PostgreSQL reads the COPYs of this one) exactly as the same landscape generated whole: every
// table holds the same rows, kept counts and search texts included; over an existing landscape
// (indexes in place, rows replaced) as into an empty database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Queryable, rawQuery } from "../../lib/db/client.ts";
import { Prisma } from "../../lib/db/generated/client.ts";
import { drawLandscape, generateLandscape } from "../../lib/demo/landscape.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

const NOW = Date.parse("2026-06-10T08:17:31.412Z");
// More than one round of the seed's COPYs (2,000 shoots), the last one short.
const SHOOTS = 2_300;
let whole: TestDatabase;
let drawn: TestDatabase;

beforeAll(async () => {
  [whole, drawn] = await Promise.all([createTestDatabase(), createTestDatabase()]);
});

afterAll(async () => {
  await Promise.all([whole?.drop(), drawn?.drop()]);
});

// Columns that are random or the clock's: the runs' ids, the times rows were written.
const UNSTABLE = ["id", "updated_at"];
const WRITTEN_AT = ["created_at"]; // except where it is the shoot's or the run's own time

/** Every public table's row count and a digest of its rows (in a stable order). */
async function tableDigests(db: Queryable): Promise<Record<string, string>> {
  const tables = await rawQuery<{ name: string }>(
    db,
    Prisma.sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'
      AND tablename NOT IN ('_prisma_migrations', 'audit_events') ORDER BY 1`,
  );
  const digests: Record<string, string> = {};
  for (const { name } of tables) {
    const dropped = [...UNSTABLE, ...(["shoots", "maintenance_runs"].includes(name) ? [] : WRITTEN_AT)];
    const [row] = await rawQuery<{ rows: number; digest: string | null }>(
      db,
      Prisma.sql`SELECT count(*)::int AS rows, md5(string_agg(j, E'\n' ORDER BY j)) AS digest
        FROM (SELECT (to_jsonb(t) - ${dropped}::text[])::text AS j FROM ${Prisma.raw(`"${name}"`)} t) AS r`,
    );
    digests[name] = `${row.rows} ${row.digest ?? "-"}`;
  }
  return digests;
}

describe("seedLandscape", () => {
  it("writes a landscape drawn as it is written exactly as the same landscape generated whole", async () => {
    const options = { now: NOW, shoots: SHOOTS, seed: 3 };
    const progress: number[] = [];
    const [fromWhole, fromDrawn] = await Promise.all([
      seedLandscape(whole.db, generateLandscape(options), { actor: "test", now: NOW }),
      seedLandscape(drawn.db, drawLandscape(options), {
        actor: "test",
        now: NOW,
        onProgress: (done) => progress.push(done),
      }),
    ]);
    expect(fromDrawn).toEqual(fromWhole);
    expect(fromDrawn?.shoots).toBe(SHOOTS);
    expect(fromDrawn?.maintenanceRuns).toBeGreaterThan(SHOOTS);
    expect(progress).toEqual([2_000, SHOOTS]);
    const digests = await tableDigests(whole.db);
    expect(digests.shoots).toMatch(new RegExp(`^${SHOOTS} `));
    expect(Number(digests.garden_admission_rules.split(" ")[0])).toBeGreaterThan(0);
    expect(await tableDigests(drawn.db)).toEqual(digests);

    // Over an existing landscape (nothing set aside, the rows replaced): the same on both again.
    const smaller = { ...options, shoots: 300, seed: 4 };
    await Promise.all([
      seedLandscape(whole.db, generateLandscape(smaller), { actor: "test", now: NOW }),
      seedLandscape(drawn.db, drawLandscape(smaller), { actor: "test", now: NOW }),
    ]);
    const replaced = await tableDigests(whole.db);
    expect(replaced.shoots).toMatch(/^300 /);
    expect(await tableDigests(drawn.db)).toEqual(replaced);
  }, 300_000);
});

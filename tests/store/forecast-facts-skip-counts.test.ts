// Storing the forecast's facts updates shoots (the forecast_* columns only, which no kept count
// counts), and its transaction tells the tile, usage and filter count triggers so, which then skip the work of
// finding that nothing they count changed (migrations 20261127190000, 20261127201000). The counts stay exactly
// right after a pass, the skip is confined to that transaction (a write after it, on the same
// connection, is counted), and the usage trigger does not get as far as adding changes.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, rawQuery, type Db } from "../../lib/db/client.ts";
import { Prisma } from "../../lib/db/generated/client.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { refreshForecasts } from "../../lib/jobs/forecast-refresh.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { waitUntil } from "../support/jobs.ts";

const NOW = Date.parse("2026-06-10T08:17:31.412Z");
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, generateLandscape({ now: NOW, shoots: 120, seed: 4 }), { actor: "test", now: NOW });
});

afterAll(async () => {
  await database?.drop();
});

const keptAndRecounted = Prisma.sql`
  SELECT
    (SELECT coalesce(jsonb_agg(x ORDER BY x), '[]') FROM (SELECT cloud_profile, namespace, part, key, count
      FROM cloud_profile_usage_counts) x) AS kept_usage,
    (SELECT coalesce(jsonb_agg(x ORDER BY x), '[]') FROM (
      WITH uses AS (SELECT s.cloud_profile, s.namespace, u.part, u.key
        FROM shoots s, almanac_shoot_usage(s.kubernetes_version, s.summary->'workers') u)
      SELECT cloud_profile, namespace, part, key, count(*)::int AS count FROM uses GROUP BY 1, 2, 3, 4
      UNION ALL SELECT cloud_profile, '', part, key, count(*)::int FROM uses GROUP BY 1, 3, 4) x) AS recounted_usage,
    (SELECT coalesce(jsonb_agg(x ORDER BY x), '[]') FROM (SELECT namespace, status_label, earliest_expiry, shoots
      FROM shoot_tile_counts) x) AS kept_tiles,
    (SELECT coalesce(jsonb_agg(x ORDER BY x), '[]') FROM (SELECT namespace, status_label, earliest_expiry,
      count(*)::int AS shoots FROM shoots GROUP BY 1, 2, 3) x) AS recounted_tiles,
    (SELECT coalesce(jsonb_agg(x ORDER BY x), '[]') FROM (SELECT namespace, project, cloud_profile,
      namespaced_cloud_profile, kubernetes_version, seed, purpose, shoots FROM shoot_filter_counts) x) AS kept_filters,
    (SELECT coalesce(jsonb_agg(x ORDER BY x), '[]') FROM (SELECT namespace, project, cloud_profile,
      coalesce(namespaced_cloud_profile, '') AS namespaced_cloud_profile, kubernetes_version, coalesce(seed, '') AS seed,
      coalesce(spec->>'purpose', 'evaluation') AS purpose,
      count(*)::int AS shoots FROM shoots GROUP BY 1, 2, 3, 4, 5, 6, 7) x) AS recounted_filters`;

async function expectCountsRight(db: Db) {
  const [row] = await rawQuery<Record<string, unknown>>(db, keptAndRecounted);
  expect(row.kept_usage).toEqual(row.recounted_usage);
  expect(row.kept_tiles).toEqual(row.recounted_tiles);
  expect(row.kept_filters).toEqual(row.recounted_filters);
}

/** How often the usage trigger got as far as adding changes, as the server's function statistics say. */
async function usageAdditions(): Promise<number> {
  const rows = await rawQuery<{ calls: number }>(
    database.db,
    Prisma.sql`SELECT coalesce(sum(calls), 0)::int AS calls FROM pg_stat_user_functions WHERE funcname = 'almanac_add_profile_usage'`,
  );
  return rows[0].calls;
}

describe("storing the forecast's facts and the kept counts", () => {
  it("leaves the counts right, skips the usage trigger's work, and only in its own transaction", async () => {
    // One connection, with function statistics on: whatever a statement leaves set stays with it.
    const url = new URL(database.url);
    url.searchParams.set("options", "-c track_functions=all");
    const db = createDb(url.toString(), 1);
    try {
      expect(await refreshForecasts(db, NOW, 50)).toBe(120);
      await expectCountsRight(db);
      // An ordinary update on the same connection after the store's transaction: counted as ever.
      await rawQuery(
        db,
        Prisma.sql`UPDATE shoots SET kubernetes_version = '1.0.3', status_label = 'unknown'
          WHERE name = (SELECT min(name) FROM shoots)`,
      );
      await expectCountsRight(db);
    } finally {
      await db.$disconnect();
    }
    // The statistics of the closed connection: the facts' three stores added nothing, the
    // ordinary update once.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.end();
    await waitUntil("the connection's function statistics", async () => (await usageAdditions()) > 0);
    expect(await usageAdditions()).toBe(1);
  });
});

// The fleet list's queries at scale: the free-text filter has a trigram index where the server
// offers pg_trgm (and scans where it has not), a search with few matches sorts them, the
// next-maintenance order walks an index, and the columns the list filters on stay in the row.
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb } from "../../lib/db/client.ts";
import { migrate, MIGRATIONS_DIR } from "../../lib/db/migrate.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { hasSearchIndex, missingSearchIndexWarning, SEARCH_INDEX } from "../../lib/store/search-index.ts";
import { SHOOT_SORTS, type ShootSort } from "../../lib/api/shoot-sorts.ts";
import { NOT_MAINTAINED } from "../../lib/store/shoot-columns.ts";
import { countShoots, listShootPage, type ShootFilter, startSearchPage } from "../../lib/store/shoot-page.ts";
import { adminQuery as admin, createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const page = (db: Parameters<typeof listShootPage>[0], words: string[]) =>
  listShootPage(db, { filter: { words }, sort: "name", descending: false, limit: 500, now: new Date(), origin: 0 });

describe("with pg_trgm (the embedded server has it)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    const now = Date.now();
    await seedLandscape(database.db, smallLandscape(now, 3), { actor: "test", now });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("has the index, and the search's condition can use it", async () => {
    expect(await hasSearchIndex(database.db)).toBe(true);
    expect(missingSearchIndexWarning(true)).toBeUndefined();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      // With few rows the planner rightly prefers a scan; forbidding it shows the index applies.
      await client.query("BEGIN; SET LOCAL enable_seqscan = off");
      // The index is on the narrow copy of the search texts, where a search finds its matches.
      const { rows } = await client.query<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT name FROM shoot_search_texts WHERE search_text LIKE '%cluster-1%'`,
      );
      expect(rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain(SEARCH_INDEX);
      await client.query("ROLLBACK");
    } finally {
      await client.end();
    }
  });

  it("finds what the words say", async () => {
    const all = await page(database.db, []);
    const found = await page(database.db, ["cluster-1"]);
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThan(all.length);
    expect(found.every((row) => row.name.includes("cluster-1") || row.namespace.includes("cluster-1"))).toBe(true);
  });
});

describe("a search's page", () => {
  let demo: TestDatabase;
  beforeAll(async () => {
    demo = await createTestDatabase();
    const now = Date.now();
    await seedLandscape(demo.db, generateLandscape({ now, shoots: 300 }), { actor: "test", now });
  });
  afterAll(async () => {
    await demo?.drop();
  });

  /** Every row's key, page by page (7 rows a page, so the cursors are used). */
  const pages = async (
    filter: ShootFilter,
    sort: ShootSort,
    descending: boolean,
    origin: number,
    fewMatches: boolean,
  ): Promise<string[]> => {
    const keys: string[] = [];
    let after: readonly [string, string, string] | undefined;
    for (;;) {
      const rows = await listShootPage(demo.db, {
        filter,
        sort,
        descending,
        limit: 7,
        now: new Date(),
        origin,
        after,
        fewMatches,
      });
      keys.push(...rows.map((r) => `${r.namespace}/${r.name}`));
      if (rows.length < 7) return keys;
      const last = rows.at(-1)!;
      after = [last.sortKey, last.namespace, last.name];
    }
  };

  it("is the same whether it sorts the matches or walks the sort's index, for every sort and direction", async () => {
    for (const sort of SHOOT_SORTS)
      for (const descending of [false, true]) {
        const walked = await pages({ words: ["prod"] }, sort, descending, 3600, false);
        expect(walked.length, `${sort} ${descending}`).toBeGreaterThan(7);
        expect(await pages({ words: ["prod"] }, sort, descending, 3600, true), `${sort} ${descending}`).toEqual(walked);
      }
  });

  it("counts its matches up to a bound, and within it gives the walk's pages, for every sort and direction", async () => {
    const [{ namespace }] = await demo.db.$queryRawUnsafe<{ namespace: string }[]>(
      `SELECT namespace FROM shoots GROUP BY namespace ORDER BY count(*) DESC LIMIT 1`,
    );
    // Words alone and with namespaces are found in shoot_search_texts; with a project, in the shoots.
    const filters: ShootFilter[] = [
      { words: ["prod"] },
      { words: ["prod"], namespaces: [namespace, "garden-none"] },
      { words: ["prod"], project: "payments" },
    ];
    for (const filter of filters) {
      const matching = await countShoots(demo.db, filter);
      expect(matching, JSON.stringify(filter)).toBeGreaterThan(14);
      for (const sort of SHOOT_SORTS)
        for (const descending of [false, true]) {
          const walked = await pages(filter, sort, descending, 3600, false);
          const keys: string[] = [];
          let after: readonly [string, string, string] | undefined;
          for (;;) {
            const request = { filter, sort, descending, limit: 7, now: new Date(), origin: 3600, after };
            const start = await startSearchPage(demo.db, request, matching);
            expect(start.matched).toBe(matching);
            keys.push(...start.rows.map((r) => `${r.namespace}/${r.name}`));
            if (start.rows.length < 7) break;
            const last = start.rows.at(-1)!;
            after = [last.sortKey, last.namespace, last.name];
          }
          expect(keys, `${JSON.stringify(filter)} ${sort} ${descending}`).toEqual(walked);
          // One match more than the bound: counted no further, and the page walked along the sort's index.
          const request = { filter, sort, descending, limit: 7, now: new Date(), origin: 3600 };
          const beyond = await startSearchPage(demo.db, request, matching - 1);
          expect(beyond.matched).toBe(matching);
          expect(beyond.rows, `${sort} ${descending}`).toEqual(await listShootPage(demo.db, request));
          expect(beyond.rows.map((r) => `${r.namespace}/${r.name}`)).toEqual(walked.slice(0, 7));
        }
    }
    const none = await startSearchPage(
      demo.db,
      { filter: { words: ["no-such-shoot"] }, sort: "name", descending: false, limit: 7, now: new Date(), origin: 0 },
      10,
    );
    expect(none).toEqual({ matched: 0, rows: [] });
  });

  it("keeps every shoot's search text in shoot_search_texts through every write", async () => {
    const kept = `SELECT namespace, name, search_text FROM shoot_search_texts ORDER BY 1, 2`;
    const shoots = `SELECT namespace, name, search_text FROM shoots ORDER BY 1, 2`;
    const expectKept = async () =>
      expect(await demo.db.$queryRawUnsafe(kept)).toEqual(await demo.db.$queryRawUnsafe(shoots));
    await expectKept();
    expect(await demo.db.$queryRawUnsafe(kept)).toHaveLength(300);
    // A text that changes, an update that leaves it (another column only), and both in one statement.
    await demo.db.$executeRawUnsafe(
      `UPDATE shoots SET search_text = search_text || ' renamed' WHERE name IN (SELECT name FROM shoots ORDER BY name LIMIT 5)`,
    );
    await demo.db.$executeRawUnsafe(`UPDATE shoots SET hibernated = NOT hibernated`);
    await demo.db.$executeRawUnsafe(
      `UPDATE shoots SET search_text = CASE WHEN name LIKE '%a%' THEN search_text || ' x' ELSE search_text END`,
    );
    await expectKept();
    const found = await startSearchPage(
      demo.db,
      { filter: { words: ["renamed"] }, sort: "name", descending: false, limit: 7, now: new Date(), origin: 0 },
      10,
    );
    expect(found.matched).toBe(5);
    // Deleted shoots go, new ones come (seeding again replaces the landscape), emptying empties it.
    await demo.db.$executeRawUnsafe(
      `DELETE FROM shoots WHERE name IN (SELECT name FROM shoots ORDER BY name DESC LIMIT 4)`,
    );
    await expectKept();
    const now = Date.now();
    await seedLandscape(demo.db, generateLandscape({ now, shoots: 300 }), { actor: "test", now });
    await expectKept();
  });

  it("walks a status filter's page in name order along (status_label, name, namespace)", async () => {
    const client = new pg.Client({ connectionString: demo.url });
    await client.connect();
    try {
      // With few rows the planner rightly prefers other plans; forbidding them shows the walk applies.
      await client.query(
        "BEGIN; SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off",
      );
      const plans: string[] = [];
      const explaining = {
        $queryRaw: async (query: { text: string; values: unknown[] }) => {
          const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${query.text}`, query.values);
          plans.push(rows.map((r) => r["QUERY PLAN"]).join("\n"));
          return [];
        },
      };
      await listShootPage(explaining as never, {
        filter: { statusLabels: ["unhealthy"] },
        sort: "name",
        descending: false,
        limit: 7,
        now: new Date(),
        origin: 0,
      });
      expect(plans[0]).toContain("shoots_status_label_name_namespace_idx");
      await client.query("ROLLBACK");
    } finally {
      await client.end();
    }
    const walked = await pages({ statusLabels: ["unhealthy"] }, "name", false, 0, false);
    expect(walked.length).toBeGreaterThan(7);
    expect(walked).toEqual(await pages({ statusLabels: ["unhealthy"] }, "name", false, 0, true));
  });

  it("in next-maintenance order walks the index in three ranges and gives the order the sort key gives", async () => {
    // A few shoots that are not maintained (being deleted), which come last.
    await demo.db.$executeRawUnsafe(
      `UPDATE shoots SET maintenance_second_of_day = ${NOT_MAINTAINED}
        WHERE name IN (SELECT name FROM shoots ORDER BY name LIMIT 3)`,
    );
    const [{ spread }] = await demo.db.$queryRawUnsafe<{ spread: number }[]>(
      `SELECT count(DISTINCT maintenance_second_of_day)::int AS spread FROM shoots`,
    );
    expect(spread).toBeGreaterThan(10);
    // Origins on a shoot's own second and just after it, where the ranges meet.
    const [{ second }] = await demo.db.$queryRawUnsafe<{ second: number }[]>(
      `SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY maintenance_second_of_day) AS second FROM shoots`,
    );
    for (const origin of [0, 3600, second, second + 1, 86_399])
      for (const descending of [false, true]) {
        // The few-matches path sorts every row by the key expression itself: the reference.
        const sorted = await pages({}, "nextMaintenance", descending, origin, true);
        expect(sorted).toHaveLength(300);
        expect(await pages({}, "nextMaintenance", descending, origin, false), `${origin} ${descending}`).toEqual(
          sorted,
        );
        const project = { project: "payments" };
        const inProject = await pages(project, "nextMaintenance", descending, origin, true);
        expect(inProject.length).toBeGreaterThan(7);
        expect(await pages(project, "nextMaintenance", descending, origin, false)).toEqual(inProject);
      }
  });
});

describe("without pg_trgm", () => {
  const name = `almanac_test_noext_${randomBytes(4).toString("hex")}`;
  let url: string;
  beforeAll(async () => {
    // A server without the extension, as far as this database can tell: PostgreSQL 18 looks for
    // extensions only where extension_control_path says.
    await admin(`CREATE DATABASE ${name}`);
    await admin(`ALTER DATABASE ${name} SET extension_control_path = '/nonexistent'`);
    const server = new URL(inject("postgresServerUrl"));
    server.pathname = `/${name}`;
    url = server.toString();
  });
  afterAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it("migrates all the same, warns at start, and the search still finds by scanning", async () => {
    await migrate(url);
    const db = createDb(url, 2);
    try {
      expect(await hasSearchIndex(db)).toBe(false);
      expect(missingSearchIndexWarning(false)).toMatch(/pg_trgm.*search reads every shoot/);
      const now = Date.now();
      await seedLandscape(db, smallLandscape(now, 2), { actor: "test", now });
      const found = await page(db, ["cluster-1"]);
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((row) => row.name.includes("cluster-1") || row.namespace.includes("cluster-1"))).toBe(true);
    } finally {
      await db.$disconnect();
    }
  });
});

describe("the rows the list filters on", () => {
  let database: TestDatabase;
  let older: string;
  const INLINE_MIGRATION = "20261124201000_shoots_filter_columns_inline";
  const outOfLine = async () => {
    const [row] = await database.db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM shoots
        WHERE pg_column_toast_chunk_id(search_text) IS NOT NULL OR pg_column_toast_chunk_id(name) IS NOT NULL`,
    );
    return row.n;
  };
  beforeAll(async () => {
    // A database as the release before left it: every migration up to the one that keeps the
    // filter columns inline.
    older = mkdtempSync(path.join(tmpdir(), "almanac-migrations-"));
    for (const m of readdirSync(MIGRATIONS_DIR))
      if (m < INLINE_MIGRATION) cpSync(path.join(MIGRATIONS_DIR, m), path.join(older, m), { recursive: true });
    database = await createTestDatabase({ migrated: false });
    await migrate(database.url, older);
    // Today's seed writes what a later migration adds (namespaced cloud profiles): made for the
    // seed and undone after it, so that migrating finds the database as that release left it.
    const later = [
      `ALTER TABLE shoots ADD COLUMN namespaced_cloud_profile TEXT`,
      `CREATE TABLE namespaced_cloud_profiles (namespace TEXT, name TEXT, parent TEXT, resource_version INT DEFAULT 1,
        document JSONB, garden_resource_version TEXT, created_at TIMESTAMPTZ(3) DEFAULT now(),
        updated_at TIMESTAMPTZ(3) DEFAULT now(), PRIMARY KEY (namespace, name))`,
      `CREATE TABLE shoot_search_texts (namespace TEXT, name TEXT, search_text TEXT)`,
    ];
    for (const statement of later) await database.db.$executeRawUnsafe(statement);
    const now = Date.now();
    await seedLandscape(database.db, smallLandscape(now, 3), { actor: "test", now });
    await database.db.$executeRawUnsafe(`DROP TABLE namespaced_cloud_profiles, shoot_search_texts`);
    await database.db.$executeRawUnsafe(`ALTER TABLE shoots DROP COLUMN namespaced_cloud_profile`);
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(older, { recursive: true, force: true });
  });

  it("keep their search text and names inline once migrated, so a search reads no TOAST", async () => {
    expect(await outOfLine()).toBeGreaterThan(0);
    const before = await page(database.db, ["cluster-1"]);
    expect(await migrate(database.url)).toContain(INLINE_MIGRATION);
    expect(await outOfLine()).toBe(0);
    expect(await page(database.db, ["cluster-1"])).toEqual(before);
    // New writes keep them inline too.
    const now = Date.now();
    await database.db.$executeRawUnsafe(`DELETE FROM shoots`);
    await seedLandscape(database.db, smallLandscape(now, 3), { actor: "test", now });
    expect(await outOfLine()).toBe(0);
  });
});

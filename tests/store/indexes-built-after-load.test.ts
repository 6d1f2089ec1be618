// A seed into empty tables sets their secondary indexes aside and builds them after its COPYs:
// the indexes afterwards are exactly the migrated schema's (definitions, storage parameters), a
// table that holds rows keeps its indexes, and a seed into an empty database and a seed over an
// existing landscape leave the same indexes and kept counts as the migrations and triggers make.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Queryable, rawQuery } from "../../lib/db/client.ts";
import { Prisma } from "../../lib/db/generated/client.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { buildIndexesSetAside, setIndexesAsideIfEmpty } from "../../lib/store/indexes-built-after-load.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

const NOW = Date.parse("2026-06-10T08:17:31.412Z");
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

const TABLES = ["shoots", "shoot_search_texts", "shoot_inventories", "maintenance_runs"];

/** Every index of the seeded tables with its definition and storage parameters. */
const indexes = (db: Queryable = database.db) =>
  rawQuery<{ name: string; definition: string; options: string[] | null }>(
    db,
    Prisma.sql`SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition, c.reloptions AS options
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid::regclass::text = ANY(${TABLES}::text[]) ORDER BY 1`,
  );

describe("indexes built after a bulk load", () => {
  it("are set aside only from an empty table, and built again exactly as they were", async () => {
    const migrated = await indexes();
    expect(migrated.map((i) => i.name)).toContain("shoot_search_texts_trgm_idx");
    expect(migrated.find((i) => i.name === "shoot_search_texts_trgm_idx")?.options).toEqual([
      "gin_pending_list_limit=64",
    ]);

    await expect(
      database.db.$transaction(async (tx) => {
        const aside = await setIndexesAsideIfEmpty(tx, "shoots");
        // The primary key and the unique uid stay; every other index is set aside.
        expect(aside.length).toBeGreaterThan(10);
        const left = (await indexes(tx)).filter((i) => i.definition.includes(" ON public.shoots "));
        expect(left.map((i) => i.name).sort()).toEqual(["shoots_pkey", "shoots_uid_key"]);
        await buildIndexesSetAside(tx, aside);
        expect(await indexes(tx)).toEqual(migrated);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await indexes()).toEqual(migrated);

    // A seed into the empty database, then one over its landscape (which sets nothing aside).
    await seedLandscape(database.db, generateLandscape({ now: NOW, shoots: 80, seed: 6 }), { actor: "test", now: NOW });
    expect(await indexes()).toEqual(migrated);
    await database.db.$transaction(async (tx) => expect(await setIndexesAsideIfEmpty(tx, "shoots")).toEqual([]));
    await seedLandscape(database.db, generateLandscape({ now: NOW, shoots: 60, seed: 7 }), { actor: "test", now: NOW });
    expect(await indexes()).toEqual(migrated);
    // The indexes answer what the rows hold (the planner takes them for these).
    const [row] = await rawQuery<{ searched: number; all: number }>(
      database.db,
      Prisma.sql`SELECT (SELECT count(*)::int FROM shoot_search_texts WHERE search_text LIKE '%' || (SELECT left(name, 4) FROM shoots ORDER BY name LIMIT 1) || '%') AS searched,
        (SELECT count(*)::int FROM shoots) AS all`,
    );
    expect(row.all).toBe(60);
    expect(row.searched).toBeGreaterThan(0);
  });
});

// The fleet list's total: kept per namespace by the database as shoots come and go, so it agrees
// with counting the rows after every kind of write, and a total by namespace alone reads it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery } from "../../lib/db/client.ts";
import { Prisma } from "../../lib/db/generated/client.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { countShootsIn } from "../../lib/store/shoot-counts.ts";
import { countShoots, type ShootFilter } from "../../lib/store/shoot-page.ts";
import { removeShoot } from "../../lib/store/shoots.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

describe("the kept shoot counts", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** Each namespace's shoots, counted row by row. */
  const counted = async () =>
    Object.fromEntries(
      (
        await rawQuery<{ namespace: string; n: number }>(
          database.db,
          Prisma.sql`SELECT namespace, count(*)::int AS n FROM shoots GROUP BY namespace`,
        )
      ).map((r) => [r.namespace, r.n]),
    );
  /** Each namespace's kept count (a namespace whose shoots are all gone may stay at 0). */
  const kept = async () =>
    Object.fromEntries(
      (
        await rawQuery<{ namespace: string; shoots: number }>(
          database.db,
          Prisma.sql`SELECT namespace, shoots FROM shoot_counts WHERE shoots <> 0`,
        )
      ).map((r) => [r.namespace, r.shoots]),
    );
  const seed = async (shoots: number) => {
    const now = Date.now();
    await seedLandscape(database.db, generateLandscape({ now, shoots }), { actor: "test", now });
  };

  it("start empty, and follow seeding, deleting, seeding again and emptying the table", async () => {
    expect(await countShootsIn(database.db, undefined)).toBe(0);

    await seed(120);
    const seeded = await counted();
    expect(Object.keys(seeded).length).toBeGreaterThan(1);
    expect(await kept()).toEqual(seeded);
    expect(await countShootsIn(database.db, undefined)).toBe(120);

    const [victim] = await rawQuery<{ namespace: string; name: string }>(
      database.db,
      Prisma.sql`SELECT namespace, name FROM shoots ORDER BY name LIMIT 1`,
    );
    await database.db.$transaction((tx) => removeShoot(tx, victim.namespace, victim.name));
    await rawQuery(
      database.db,
      Prisma.sql`DELETE FROM shoots WHERE name IN (SELECT name FROM shoots ORDER BY name DESC LIMIT 5)`,
    );
    expect(await kept()).toEqual(await counted());
    expect(await countShootsIn(database.db, undefined)).toBe(114);

    // Seeding replaces the landscape: its deletes and inserts in one transaction.
    await seed(40);
    expect(await kept()).toEqual(await counted());
    expect(await countShootsIn(database.db, undefined)).toBe(40);

    await rawQuery(database.db, Prisma.sql`TRUNCATE shoots CASCADE`);
    expect(await kept()).toEqual({});
    expect(await countShootsIn(database.db, undefined)).toBe(0);
  });

  it("answer the total of a filter by namespace alone, and count the rows for any other filter", async () => {
    await seed(60);
    const perNamespace = await counted();
    const [first, second] = Object.keys(perNamespace).sort();
    // Off by 1,000 on purpose: which totals come from the kept counts shows in the answers.
    await rawQuery(database.db, Prisma.sql`UPDATE shoot_counts SET shoots = shoots + 1000`);
    const namespaces = Object.keys(perNamespace).length;
    const fromKept: [ShootFilter, number][] = [
      [{}, 60 + 1000 * namespaces],
      [{ namespace: first }, perNamespace[first] + 1000],
      [{ namespaces: [first, second] }, perNamespace[first] + perNamespace[second] + 2000],
      [{ namespace: first, namespaces: [first, second] }, perNamespace[first] + 1000],
      [{ namespace: first, namespaces: [second] }, 0],
      [{ namespaces: [] }, 0],
      [{ statusLabels: [], words: [] }, 60 + 1000 * namespaces],
    ];
    for (const [filter, total] of fromKept)
      expect(await countShoots(database.db, filter), JSON.stringify(filter)).toBe(total);

    const [any] = await rawQuery<{ project: string; status_label: string; cloud_profile: string }>(
      database.db,
      Prisma.sql`SELECT project, status_label, cloud_profile FROM shoots WHERE namespace = ${first} LIMIT 1`,
    );
    const counting: ShootFilter[] = [
      { project: any.project },
      { namespace: first, statusLabels: [any.status_label] },
      { cloudProfile: any.cloud_profile },
      { words: [first] },
      { expiringBefore: new Date(8.64e15) },
      { kubernetesVersionsIn: [] },
    ];
    for (const filter of counting) {
      expect(await countShoots(database.db, filter), JSON.stringify(filter)).toBeLessThanOrEqual(60);
    }
    expect(await countShoots(database.db, { expiringBefore: new Date(8.64e15) })).toBe(60);
    expect(await countShoots(database.db, { kubernetesVersionsIn: [] })).toBe(0);
  });
});

// The fleet page's tiles from kept counts: the database keeps them per namespace, status label and
// earliest expiry as shoots are inserted, updated (a label or an expiry that moves, the live
// mirror's batches, another cluster under the same name) and deleted, so they agree with counting
// the rows after every kind of write; and the tiles they answer are the tiles a count over the
// shoots gives, for every combination of the tiles' own filters and every horizon (and so does the
// list's total for a filter by status or expiry).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery } from "../../lib/db/client.ts";
import { Prisma } from "../../lib/db/generated/client.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { cloudProfileNameOf, type Shoot } from "../../lib/gardener/types.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { mirrorShoots } from "../../lib/store/garden-mirror.ts";
import { countFleet, countShoots, type ShootFilter } from "../../lib/store/shoot-page.ts";
import { removeShoot } from "../../lib/store/shoots.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

const DAY = 86_400_000;

describe("the kept tile counts", () => {
  let database: TestDatabase;
  const now = Date.now();
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  const recount = Prisma.sql`SELECT namespace, status_label, earliest_expiry, count(*)::int AS shoots
    FROM shoots GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;
  const keptRows = Prisma.sql`SELECT namespace, status_label, earliest_expiry, shoots
    FROM shoot_tile_counts ORDER BY 1, 2, 3`;
  const expectKeptEqualsRecount = async () =>
    expect(await rawQuery(database.db, keptRows)).toEqual(await rawQuery(database.db, recount));

  /** The same shoots through the scan: a filter that selects every shoot but not by namespace alone. */
  const scanning = (base: ShootFilter): ShootFilter => ({ ...base, expiringBefore: new Date(8.64e15) });

  it("follow seeding, label and expiry changes, the mirror's batches, deletions and emptying the table", async () => {
    expect(await rawQuery(database.db, keptRows)).toEqual([]);
    const landscape = generateLandscape({ now, shoots: 150 });
    await seedLandscape(database.db, landscape, { actor: "test", now });
    const seeded = await rawQuery<{ shoots: number }>(database.db, keptRows);
    expect(seeded.length).toBeGreaterThan(4);
    await expectKeptEqualsRecount();

    // A label that moves, an expiry that moves, and an update that moves neither.
    await rawQuery(
      database.db,
      Prisma.sql`UPDATE shoots SET status_label = 'unhealthy' WHERE name IN (SELECT name FROM shoots WHERE status_label = 'healthy' ORDER BY name LIMIT 7)`,
    );
    await rawQuery(
      database.db,
      Prisma.sql`UPDATE shoots SET earliest_expiry = earliest_expiry + interval '3 days' WHERE name IN (SELECT name FROM shoots ORDER BY name DESC LIMIT 9)`,
    );
    await rawQuery(database.db, Prisma.sql`UPDATE shoots SET hibernated = NOT hibernated`);
    await expectKeptEqualsRecount();

    // The live garden's mirror: a batch that changes shoots (a failed operation, another cloud
    // profile), replaces one with another cluster under the same name, and brings new ones.
    const profiles = new Map(landscape.cloudProfiles.map((p) => [p.metadata.name, p]));
    const other = (name: string) => landscape.cloudProfiles.find((p) => p.metadata.name !== name)!.metadata.name;
    const [a, b, c, d] = landscape.shoots;
    const next = (s: Shoot, change: (copy: Shoot) => void): Shoot => {
      const copy = structuredClone(s);
      copy.metadata.resourceVersion = "999999";
      change(copy);
      return copy;
    };
    const batch = [
      next(a, (s) => {
        s.status = {
          ...s.status,
          lastOperation: { type: "Reconcile", state: "Failed", progress: 50 },
        } as Shoot["status"];
      }),
      next(b, (s) => {
        const target = other(cloudProfileNameOf(s)!);
        s.spec.cloudProfileName = target;
        if (s.spec.cloudProfile) s.spec.cloudProfile = { ...s.spec.cloudProfile, name: target };
      }),
      next(c, (s) => {
        s.metadata.uid = "00000000-0000-4000-8000-000000000001";
      }),
      next(d, (s) => {
        s.metadata.name = `${s.metadata.name}-copy`;
        s.metadata.uid = "00000000-0000-4000-8000-000000000002";
      }),
    ];
    await database.db.$transaction((tx) => mirrorShoots(tx, batch, (s) => profiles.get(cloudProfileNameOf(s)!), now));
    await expectKeptEqualsRecount();

    // Deletions, one by one and many in one statement.
    await database.db.$transaction((tx) => removeShoot(tx, a.metadata.namespace!, a.metadata.name));
    await rawQuery(
      database.db,
      Prisma.sql`DELETE FROM shoots WHERE name IN (SELECT name FROM shoots ORDER BY name DESC LIMIT 11)`,
    );
    await expectKeptEqualsRecount();

    // Seeding again replaces the landscape in one transaction; emptying the table empties them.
    await seedLandscape(database.db, generateLandscape({ now, shoots: 40, seed: 2 }), { actor: "test", now });
    await expectKeptEqualsRecount();
    await rawQuery(database.db, Prisma.sql`TRUNCATE shoots CASCADE`);
    expect(await rawQuery(database.db, keptRows)).toEqual([]);
  });

  it("answer the tiles a count over the shoots gives, for every tile filter, horizon and namespace choice", async () => {
    await seedLandscape(database.db, generateLandscape({ now, shoots: 200, seed: 3 }), { actor: "test", now });
    const [{ namespace }] = await rawQuery<{ namespace: string }>(
      database.db,
      Prisma.sql`SELECT namespace FROM shoots GROUP BY namespace ORDER BY count(*) DESC LIMIT 1`,
    );
    const horizons = [7, 30, 365].map((days) => new Date(now + days * DAY));
    const bases: ShootFilter[] = [{}, { namespace }, { namespaces: [namespace, "garden-none"] }, { namespaces: [] }];
    const tileFilters = [
      {},
      { statusLabels: ["unhealthy"] },
      { statusLabels: ["healthy", "progressing"] },
      { expiringBefore: new Date(now + 30 * DAY) },
      { statusLabels: ["unknown"], expiringBefore: new Date(now + 7 * DAY) },
    ];
    for (const base of bases)
      for (const tiles of tileFilters) {
        const kept = await countFleet(database.db, base, tiles, horizons);
        expect(kept, JSON.stringify({ base, tiles })).toEqual(
          await countFleet(database.db, scanning(base), tiles, horizons),
        );
      }
    // The list's total for a filter by status or expiry (and namespaces) reads them too.
    for (const base of bases)
      for (const tiles of tileFilters) {
        const filter = { ...base, ...tiles };
        // A word every search text holds: the same shoots, counted row by row.
        expect(await countShoots(database.db, filter), JSON.stringify(filter)).toBe(
          await countShoots(database.db, { ...filter, words: [""] }),
        );
      }
    const all = await countFleet(database.db, {}, {}, horizons);
    expect(all.total).toBe(200);
    expect(all.expiringBefore[2]).toBeGreaterThan(all.expiringBefore[0]);

    // Off on purpose: the kept counts answer a filter by namespace alone, a scan any other.
    await rawQuery(database.db, Prisma.sql`UPDATE shoot_tile_counts SET shoots = shoots + 1000`);
    expect((await countFleet(database.db, {}, {}, horizons)).total).toBeGreaterThan(1000);
    expect((await countFleet(database.db, scanning({}), {}, horizons)).total).toBe(200);
    expect(await countShoots(database.db, { statusLabels: ["unhealthy"] })).toBeGreaterThan(1000);
    expect(await countShoots(database.db, { statusLabels: ["unhealthy"], project: "payments" })).toBeLessThan(200);
    expect((await countFleet(database.db, { words: ["garden"] }, {}, horizons)).total).toBeLessThanOrEqual(200);
  });
});

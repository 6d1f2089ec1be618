// The list's total for a project, a cloud profile, a seed or a classification from kept counts: the
// database keeps shoots per namespace, project, cloud profile, NamespacedCloudProfile, control-plane
// version and seed as shoots are inserted, updated (a version, a seed or a profile that moves, the
// live mirror's batches) and deleted, so they agree with counting the rows after every kind of
// write; the totals they answer are those a count over the shoots gives, for every such filter
// alone and together; and the page read with its total in one statement is the page alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery } from "../../lib/db/client.ts";
import { Prisma } from "../../lib/db/generated/client.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { cloudProfileNameOf, type Shoot } from "../../lib/gardener/types.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { mirrorShoots } from "../../lib/store/garden-mirror.ts";
import {
  countShoots,
  listShootPage,
  listShootPageAndTotal,
  type ShootFilter,
  type ShootPageRequest,
} from "../../lib/store/shoot-page.ts";
import { removeShoot } from "../../lib/store/shoots.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

describe("the kept filter counts", () => {
  let database: TestDatabase;
  const now = Date.now();
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  const recount = Prisma.sql`SELECT namespace, project, cloud_profile, coalesce(namespaced_cloud_profile, '') AS ncp,
      kubernetes_version, coalesce(seed, '') AS seed, coalesce(spec->>'purpose', 'evaluation') AS purpose,
      count(*)::int AS shoots
    FROM shoots GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7`;
  const keptRows = Prisma.sql`SELECT namespace, project, cloud_profile, namespaced_cloud_profile AS ncp,
      kubernetes_version, seed, purpose, shoots
    FROM shoot_filter_counts ORDER BY 1, 2, 3, 4, 5, 6, 7`;
  const expectKeptEqualsRecount = async () =>
    expect(await rawQuery(database.db, keptRows)).toEqual(await rawQuery(database.db, recount));

  /** The same shoots through a count of the rows: a word every search text holds. */
  const scanning = (filter: ShootFilter): ShootFilter => ({ ...filter, words: [""] });

  it("follow seeding, version, seed and profile changes, the mirror's batches, deletions and emptying the table", async () => {
    expect(await rawQuery(database.db, keptRows)).toEqual([]);
    const landscape = generateLandscape({ now, shoots: 150 });
    await seedLandscape(database.db, landscape, { actor: "test", now });
    expect((await rawQuery(database.db, keptRows)).length).toBeGreaterThan(10);
    await expectKeptEqualsRecount();

    // A version that moves, a seed that moves and goes, and an update that moves no key.
    await rawQuery(
      database.db,
      Prisma.sql`UPDATE shoots SET kubernetes_version = '1.99.0' WHERE name IN (SELECT name FROM shoots ORDER BY name LIMIT 7)`,
    );
    await rawQuery(
      database.db,
      Prisma.sql`UPDATE shoots SET seed = CASE WHEN seed IS NULL THEN 'seed-x' ELSE NULL END WHERE name IN (SELECT name FROM shoots ORDER BY name DESC LIMIT 9)`,
    );
    await rawQuery(database.db, Prisma.sql`UPDATE shoots SET hibernated = NOT hibernated`);
    await expectKeptEqualsRecount();
    // A purpose that changes, and one that goes (Gardener's default, evaluation, then counts).
    await rawQuery(
      database.db,
      Prisma.sql`UPDATE shoots SET spec = CASE WHEN spec ? 'purpose' THEN spec - 'purpose' ELSE spec || '{"purpose": "testing"}' END
        WHERE name IN (SELECT name FROM shoots ORDER BY name LIMIT 13)`,
    );
    await rawQuery(
      database.db,
      Prisma.sql`UPDATE shoots SET spec = jsonb_set(spec, '{purpose}', '"infrastructure"') WHERE name IN (SELECT name FROM shoots ORDER BY name DESC LIMIT 5)`,
    );
    await expectKeptEqualsRecount();

    // The live garden's mirror: another cloud profile, another cluster under the same name, a new one.
    const profiles = new Map(landscape.cloudProfiles.map((p) => [p.metadata.name, p]));
    const other = (name: string) => landscape.cloudProfiles.find((p) => p.metadata.name !== name)!.metadata.name;
    const [a, b, c] = landscape.shoots;
    const next = (s: Shoot, change: (copy: Shoot) => void): Shoot => {
      const copy = structuredClone(s);
      copy.metadata.resourceVersion = "999999";
      change(copy);
      return copy;
    };
    const batch = [
      next(a, (s) => {
        const target = other(cloudProfileNameOf(s)!);
        s.spec.cloudProfileName = target;
        if (s.spec.cloudProfile) s.spec.cloudProfile = { ...s.spec.cloudProfile, name: target };
      }),
      next(b, (s) => {
        s.metadata.uid = "00000000-0000-4000-8000-000000000001";
      }),
      next(c, (s) => {
        s.metadata.name = `${s.metadata.name}-copy`;
        s.metadata.uid = "00000000-0000-4000-8000-000000000002";
      }),
    ];
    await database.db.$transaction((tx) => mirrorShoots(tx, batch, (s) => profiles.get(cloudProfileNameOf(s)!), now));
    await expectKeptEqualsRecount();

    // Deletions, one by one and many in one statement.
    await database.db.$transaction((tx) => removeShoot(tx, b.metadata.namespace!, b.metadata.name));
    await rawQuery(
      database.db,
      Prisma.sql`DELETE FROM shoots WHERE name IN (SELECT name FROM shoots ORDER BY name DESC LIMIT 11)`,
    );
    await expectKeptEqualsRecount();

    await seedLandscape(database.db, generateLandscape({ now, shoots: 40, seed: 2 }), { actor: "test", now });
    await expectKeptEqualsRecount();
    await rawQuery(database.db, Prisma.sql`TRUNCATE shoots CASCADE`);
    expect(await rawQuery(database.db, keptRows)).toEqual([]);
  });

  it("answer the totals a count over the shoots gives, for each filter they keep, alone and together", async () => {
    await seedLandscape(database.db, generateLandscape({ now, shoots: 300, seed: 3 }), { actor: "test", now });
    const pick = async (column: string) =>
      (
        await rawQuery<{ value: string }>(
          database.db,
          Prisma.sql`SELECT ${Prisma.raw(column)} AS value FROM shoots WHERE ${Prisma.raw(column)} IS NOT NULL
            GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
        )
      )[0].value;
    const [namespace, project, cloudProfile, seed, version] = await Promise.all(
      ["namespace", "project", "cloud_profile", "seed", "kubernetes_version"].map(pick),
    );
    // Shoots of a NamespacedCloudProfile are classified by it, not by its parent: pairs of both kinds.
    const [namespaced] = await rawQuery<{ namespace: string; profile: string; version: string }>(
      database.db,
      Prisma.sql`SELECT namespace, namespaced_cloud_profile AS profile, kubernetes_version AS version FROM shoots
        WHERE namespaced_cloud_profile IS NOT NULL LIMIT 1`,
    );
    expect(namespaced).toBeDefined();
    const pairs = [
      { cloudProfile, version },
      { cloudProfile: namespaced.profile, version: namespaced.version, namespace: namespaced.namespace },
    ];
    const filters: ShootFilter[] = [
      { project },
      { cloudProfile },
      { seed },
      { seed: "no-such-seed" },
      { kubernetesVersionsIn: pairs },
      { kubernetesVersionsIn: [] },
      { kubernetesVersionsIn: pairs, namespace },
      { kubernetesVersionsIn: pairs, namespaces: [namespace, namespaced.namespace] },
      { cloudProfile, project, seed },
      { project, namespaces: [] },
      { cloudProfile, namespace: namespaced.namespace, namespaces: [namespace] },
      { purposes: ["production"] },
      { purposes: ["development", "evaluation"], project },
      { purposes: ["infrastructure"] },
      { purposes: ["production"], kubernetesVersionsIn: pairs, namespaces: [namespace] },
    ];
    for (const filter of filters) {
      const total = await countShoots(database.db, scanning(filter));
      expect(await countShoots(database.db, filter), JSON.stringify(filter)).toBe(total);
      // The page and its total in one statement: the page alone, and the same total.
      for (const sort of ["name", "nextMaintenance", "expiry"] as const) {
        const request: ShootPageRequest = {
          filter,
          sort,
          descending: sort === "expiry",
          limit: 25,
          now: new Date(now),
          origin: 3600,
        };
        const both = await listShootPageAndTotal(database.db, request);
        expect(both.total, JSON.stringify(filter)).toBe(total);
        expect(both.rows, JSON.stringify({ filter, sort })).toEqual(await listShootPage(database.db, request));
      }
    }
    expect(await countShoots(database.db, { kubernetesVersionsIn: pairs })).toBeGreaterThan(0);

    // Off on purpose: the kept counts answer these filters; a status besides counts the rows.
    await rawQuery(database.db, Prisma.sql`UPDATE shoot_filter_counts SET shoots = shoots + 1000`);
    expect(await countShoots(database.db, { project })).toBeGreaterThan(1000);
    expect(await countShoots(database.db, { purposes: ["production"] })).toBeGreaterThan(1000);
    expect(await countShoots(database.db, { kubernetesVersionsIn: pairs })).toBeGreaterThan(1000);
    expect(
      (
        await listShootPageAndTotal(database.db, {
          filter: { cloudProfile },
          sort: "name",
          descending: false,
          limit: 5,
          now: new Date(now),
          origin: 0,
        })
      ).total,
    ).toBeGreaterThan(1000);
    expect(await countShoots(database.db, { project, statusLabels: ["healthy"] })).toBeLessThan(300);
    // A label selector is never kept: it counts the rows.
    expect(
      await countShoots(database.db, {
        purposes: ["production"],
        labels: [{ key: "env", operator: "Exists", values: [] }],
      }),
    ).toBeLessThan(300);
  });
});

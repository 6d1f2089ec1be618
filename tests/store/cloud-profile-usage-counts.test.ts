// A cloud profile's usage is kept by the database as shoots are written (per namespace and over
// all of them): after every kind of write on either garden (seeding, the simulated garden's
// updates, the mirror's batches, deletions, emptying the table) the kept counts equal a recount
// over the shoots, and the usage read from them equals the page's own count over the fleet list.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery } from "../../lib/db/client.ts";
import { Prisma } from "../../lib/db/generated/client.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import type { CloudProfile, Shoot } from "../../lib/gardener/types.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { cloudProfileUsage } from "../../lib/store/cloud-profile-usage.ts";
import { listCloudProfiles } from "../../lib/store/cloud-profiles.ts";
import { mirrorShoots } from "../../lib/store/garden-mirror.ts";
import { shootColumns } from "../../lib/store/shoot-columns.ts";
import { allShoots, findShoot, removeShoot, updateShoot } from "../../lib/store/shoots.ts";
import { profileUsage, usageFromAnswer } from "../../lib/ui/profile-usage.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { listedRows, plainUsage } from "../support/profile-usage-rows.ts";

const NOW = Date.parse("2026-06-10T08:17:31.412Z");
let database: TestDatabase;
let profiles: CloudProfile[];

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, generateLandscape({ now: NOW, shoots: 150, seed: 11 }), { actor: "test", now: NOW });
  profiles = await listCloudProfiles(database.db);
});

afterAll(async () => {
  await database?.drop();
});

type Counts = Record<string, number>;

/** Every kept count, keyed "profile|namespace|part|key". */
async function kept(): Promise<Counts> {
  const rows = await rawQuery<{ k: string; n: number }>(
    database.db,
    Prisma.sql`SELECT concat_ws('|', cloud_profile, namespace, part, key) AS k, count AS n FROM cloud_profile_usage_counts`,
  );
  return Object.fromEntries(rows.map((r) => [r.k, r.n]));
}

/** The same counts recounted over every shoot as it is now, per namespace and (namespace "") in all. */
async function recounted(): Promise<Counts> {
  const rows = await rawQuery<{ k: string; n: number }>(
    database.db,
    Prisma.sql`
    WITH uses AS (SELECT s.cloud_profile, s.namespace, u.part, u.key
      FROM shoots s, almanac_shoot_usage(s.kubernetes_version, s.summary->'workers') u)
    SELECT concat_ws('|', cloud_profile, namespace, part, key) AS k, count(*)::int AS n FROM uses GROUP BY 1
    UNION ALL
    SELECT concat_ws('|', cloud_profile, '', part, key), count(*)::int FROM uses GROUP BY cloud_profile, part, key`,
  );
  return Object.fromEntries(rows.map((r) => [r.k, r.n]));
}

/** Kept equals recounted, and each profile's usage (in all, and within one namespace) equals the page's definition. */
async function expectCountsRight(): Promise<void> {
  expect(await kept()).toEqual(await recounted());
  for (const profile of profiles) {
    const name = profile.metadata.name;
    const rows = await listedRows(database.db, NOW, name);
    expect(plainUsage(usageFromAnswer(await cloudProfileUsage(database.db, name, undefined))), name).toEqual(
      plainUsage(profileUsage(rows)),
    );
    const within = [...new Set(rows.map((r) => r.namespace))].slice(0, 2);
    expect(plainUsage(usageFromAnswer(await cloudProfileUsage(database.db, name, within))), name).toEqual(
      plainUsage(profileUsage(await listedRows(database.db, NOW, name, within))),
    );
  }
}

const profileNamed = (name: string) => profiles.find((p) => p.metadata.name === name);
const profileOf = (shoot: Shoot) => profileNamed(shoot.spec.cloudProfile?.name ?? shoot.spec.cloudProfileName ?? "");

/** Writes `shoot` as the simulated garden does: the document and its columns, if its version still holds. */
async function write(before: Shoot, change: (shoot: Shoot) => void): Promise<Shoot> {
  const shoot = structuredClone(before);
  change(shoot);
  await database.db.$transaction(async (tx) => {
    const held = await findShoot(tx, shoot.metadata.namespace ?? "", shoot.metadata.name, true);
    const version = held!.resourceVersion;
    const columns = shootColumns(shoot, profileOf(shoot), NOW, version + 1, held!.running);
    expect(await updateShoot(tx, shoot, columns, version)).toBe(version + 1);
  });
  return shoot;
}

/** The shoot's first worker pool (the shoots used here have one). */
const firstPool = (shoot: Shoot) => shoot.spec.provider!.workers![0];

/** Moves `shoot` to the CloudProfile `name`. */
const moveTo = (name: string) => (shoot: Shoot) => {
  shoot.spec.cloudProfile = { kind: "CloudProfile", name };
  shoot.spec.cloudProfileName = name;
};

describe("the kept cloud profile usage", () => {
  it("equals a recount after seeding, after the simulated garden's and the mirror's writes, deletions and emptying", async () => {
    await expectCountsRight();
    expect(Object.keys(await kept()).length).toBeGreaterThan(0);

    const shoots = await allShoots(database.db);
    const pooled = shoots.filter((s) => (s.spec.provider?.workers ?? []).some((w) => w.machine.image?.version));
    expect(pooled.length).toBeGreaterThan(4);

    // A pool's image changes; another pool sets its own Kubernetes version; a shoot moves to
    // another profile; a write that changes nothing counted (its status) moves nothing.
    await write(pooled[0], (s) => {
      firstPool(s).machine.image = { name: "Another-Image", version: "9.9.9" };
    });
    await write(pooled[1], (s) => {
      firstPool(s).kubernetes = { version: "1.0.1" };
    });
    const other = profiles.find((p) => p.metadata.name !== profileOf(pooled[2])?.metadata.name)!;
    await write(pooled[2], moveTo(other.metadata.name));
    await write(pooled[3], (s) => {
      s.status = { ...s.status, lastErrors: [] };
    });
    await expectCountsRight();

    // The live garden's mirror: a batch that changes, moves, adds, and replaces (the same name,
    // another uid: a delete and an insert) shoots in a few statements.
    const batch = [
      { ...structuredClone(pooled[4]), metadata: { ...pooled[4].metadata, resourceVersion: "900" } },
      { ...structuredClone(pooled[5]), metadata: { ...pooled[5].metadata, resourceVersion: "901" } },
      { ...structuredClone(pooled[6]), metadata: { ...pooled[6].metadata, name: "newcomer", uid: randomUUID() } },
      { ...structuredClone(pooled[7]), metadata: { ...pooled[7].metadata, uid: randomUUID(), resourceVersion: "902" } },
    ];
    batch[0].spec.kubernetes.version = "1.0.2";
    batch[0].spec.provider!.workers!.push({ ...firstPool(batch[0]), name: "second" });
    moveTo(
      profileOf(pooled[4])?.metadata.name === other.metadata.name ? profiles[0].metadata.name : other.metadata.name,
    )(batch[1]);
    const mirrored = await database.db.$transaction((tx) => mirrorShoots(tx, batch, profileOf, NOW));
    expect(mirrored.changed).toBe(4);
    await expectCountsRight();

    // Deletions: one shoot, then many in one statement; a recomputed forecast moves nothing.
    await database.db.$transaction((tx) =>
      removeShoot(tx, pooled[0].metadata.namespace ?? "", pooled[0].metadata.name),
    );
    await rawQuery(
      database.db,
      Prisma.sql`DELETE FROM shoots WHERE name IN (SELECT name FROM shoots ORDER BY name DESC LIMIT 20)`,
    );
    await rawQuery(database.db, Prisma.sql`UPDATE shoots SET forecast_computed_from = now()`);
    await expectCountsRight();

    // Seeding again replaces the landscape (deletes and COPY in one transaction); then emptied.
    await seedLandscape(database.db, generateLandscape({ now: NOW, shoots: 60, seed: 12 }), {
      actor: "test",
      now: NOW,
    });
    profiles = await listCloudProfiles(database.db);
    await expectCountsRight();
    await rawQuery(database.db, Prisma.sql`TRUNCATE shoots CASCADE`);
    expect(await kept()).toEqual({});
    for (const profile of profiles)
      expect((await cloudProfileUsage(database.db, profile.metadata.name, undefined)).shoots).toBe(0);
  });
});

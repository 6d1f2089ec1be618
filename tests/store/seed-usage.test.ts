// Shoots per seed as the store counts them (seedUsage, read from shoots.seed and the index of
// shoots whose control plane is moving) against Gardener's rule over every document
// (calculateSeedUsage): the spec's seed, and the status's too when it differs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { calculateSeedUsage } from "../../lib/engine/migration-admission.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { seedUsage } from "../../lib/store/seeds.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let database: TestDatabase;
const now = Date.now();
const landscape = generateLandscape({ now, shoots: 64 });

const everyShoot = async () =>
  (await database.db.shoot.findMany({ select: { spec: true, status: true } })).map(
    (r) => ({ spec: r.spec, status: r.status }) as unknown as Shoot,
  );

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, landscape, { actor: "test", now });
});

afterAll(async () => {
  await database?.drop();
});

describe("seed usage", () => {
  it("counts each scheduled shoot once on its seed", async () => {
    const expected = calculateSeedUsage(await everyShoot());
    expect(expected.size).toBeGreaterThan(1);
    expect(await seedUsage(database.db)).toEqual(expected);
  });

  it("counts a shoot whose control plane is moving on both seeds, and one not yet on a seed on the spec's", async () => {
    const original = await seedUsage(database.db);
    const seeds = [...original.keys()].sort();
    const [moving, unplaced] = await database.db.shoot.findMany({
      where: { seed: seeds[0] },
      orderBy: { name: "asc" },
      take: 2,
      select: { namespace: true, name: true },
    });
    // The spec names the destination while the status stays on the source (shoots.seed, which
    // follows the status, keeps the source).
    await database.db.$executeRaw`
      UPDATE shoots SET spec = jsonb_set(spec, '{seedName}', to_jsonb(${seeds[1]}::text))
      WHERE namespace = ${moving.namespace} AND name = ${moving.name}`;
    // Scheduled by its spec, with no seed in its status yet: shoots.seed is the spec's.
    await database.db.$executeRaw`
      UPDATE shoots SET spec = jsonb_set(spec, '{seedName}', to_jsonb(${seeds[1]}::text)),
        status = status - 'seedName', seed = ${seeds[1]}
      WHERE namespace = ${unplaced.namespace} AND name = ${unplaced.name}`;

    const expected = calculateSeedUsage(await everyShoot());
    expect(await seedUsage(database.db)).toEqual(expected);
    expect(expected.get(seeds[0])).toBe(original.get(seeds[0])! - 1);
    expect(expected.get(seeds[1])).toBe(original.get(seeds[1])! + 2);
  });
});

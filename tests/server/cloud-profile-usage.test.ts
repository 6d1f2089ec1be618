// What the fleet runs of a cloud profile, counted in the database, equals the page's own count
// over every fleet-list row of the profile (lib/ui/profile-usage.ts, the definition), for the
// whole fleet and for one project's namespace.
import { listShootsParams } from "../../lib/api/operations/shoots.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ShootRow } from "../../lib/api/shoot-list.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { listShoots } from "../../lib/server/list-shoots.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { cloudProfileUsage } from "../../lib/store/cloud-profile-usage.ts";
import { listCloudProfiles } from "../../lib/store/cloud-profiles.ts";
import { profileUsage, shootsOn, usageFromAnswer } from "../../lib/ui/profile-usage.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

const NOW = Date.parse("2026-06-10T08:17:31.412Z");
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, generateLandscape({ now: NOW, shoots: 400, seed: 7 }), { actor: "test", now: NOW });
});

afterAll(async () => {
  await database?.drop();
});

async function listedRows(cloudProfile: string, within?: readonly string[]): Promise<ShootRow[]> {
  const rows: ShootRow[] = [];
  let cursor: string | undefined;
  do {
    const params = listShootsParams.parse({ cloudProfile, limit: "500", ...(cursor ? { cursor } : {}) });
    const page = await listShoots(database.db, params, NOW, within);
    rows.push(...page.items.map((item) => JSON.parse(item) as ShootRow));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return rows;
}

/** Maps and sets as plain, comparable values. */
const plain = (u: ReturnType<typeof profileUsage>) => ({
  shoots: u.shoots,
  kubernetes: Object.fromEntries(u.kubernetes),
  kubernetesPools: Object.fromEntries(u.kubernetesPools),
  images: Object.fromEntries(u.images),
  imageShoots: Object.fromEntries(u.imageShoots),
  sets: u.kubernetesSets.map((s) => `${[...s.versions].sort().join(" ")} x${s.shoots}`).sort(),
});

describe("a cloud profile's usage", () => {
  it("counts what the profile's fleet-list rows say, per profile and within one namespace", async () => {
    const profiles = await listCloudProfiles(database.db);
    let pooled = 0;
    for (const profile of profiles) {
      const name = profile.metadata.name;
      const rows = await listedRows(name);
      const expected = profileUsage(rows);
      const counted = usageFromAnswer(await cloudProfileUsage(database.db, name, undefined));
      expect(plain(counted), name).toEqual(plain(expected));
      // A minor line's row counts each shoot on any of its patches once.
      const versions = [...expected.kubernetes.keys()].slice(0, 3);
      expect(shootsOn(counted, versions)).toBe(shootsOn(expected, versions));
      pooled += expected.kubernetesPools.size;
    }
    // The demo landscape has pools with their own Kubernetes version, which the counts must see.
    expect(pooled).toBeGreaterThan(0);

    const [first] = await listedRows(profiles[0].metadata.name);
    const within = [first.namespace];
    const narrowed = usageFromAnswer(await cloudProfileUsage(database.db, profiles[0].metadata.name, within));
    expect(plain(narrowed)).toEqual(plain(profileUsage(await listedRows(profiles[0].metadata.name, within))));
    expect(narrowed.shoots).toBeGreaterThan(0);
    expect(narrowed.shoots).toBeLessThan((await listedRows(profiles[0].metadata.name)).length);
  });
});

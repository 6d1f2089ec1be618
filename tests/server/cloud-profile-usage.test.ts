// What the fleet runs of a cloud profile, counted in the database, equals the page's own count
// over every fleet-list row of the profile (lib/ui/profile-usage.ts, the definition), for the
// whole fleet and for one project's namespace.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { cloudProfileUsage } from "../../lib/store/cloud-profile-usage.ts";
import { listCloudProfiles } from "../../lib/store/cloud-profiles.ts";
import { profileUsage, shootsOn, usageFromAnswer } from "../../lib/ui/profile-usage.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { listedRows, plainUsage } from "../support/profile-usage-rows.ts";

const NOW = Date.parse("2026-06-10T08:17:31.412Z");
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, generateLandscape({ now: NOW, shoots: 400, seed: 7 }), { actor: "test", now: NOW });
});

afterAll(async () => {
  await database?.drop();
});

describe("a cloud profile's usage", () => {
  it("counts what the profile's fleet-list rows say, per profile and within one namespace", async () => {
    const profiles = await listCloudProfiles(database.db);
    let pooled = 0;
    for (const profile of profiles) {
      const name = profile.metadata.name;
      const rows = await listedRows(database.db, NOW, name);
      const expected = profileUsage(rows);
      const counted = usageFromAnswer(await cloudProfileUsage(database.db, name, undefined));
      expect(plainUsage(counted), name).toEqual(plainUsage(expected));
      // A minor line's row counts each shoot on any of its patches once.
      const versions = [...expected.kubernetes.keys()].slice(0, 3);
      expect(shootsOn(counted, versions)).toBe(shootsOn(expected, versions));
      pooled += expected.kubernetesPools.size;
    }
    // The demo landscape has pools with their own Kubernetes version, which the counts must see.
    expect(pooled).toBeGreaterThan(0);

    const [first] = await listedRows(database.db, NOW, profiles[0].metadata.name);
    const within = [first.namespace];
    const narrowed = usageFromAnswer(await cloudProfileUsage(database.db, profiles[0].metadata.name, within));
    expect(plainUsage(narrowed)).toEqual(
      plainUsage(profileUsage(await listedRows(database.db, NOW, profiles[0].metadata.name, within))),
    );
    expect(narrowed.shoots).toBeGreaterThan(0);
    expect(narrowed.shoots).toBeLessThan((await listedRows(database.db, NOW, profiles[0].metadata.name)).length);
  });
});

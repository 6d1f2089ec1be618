// What each shoot runs, as the store keeps it (running_versions): seeded shoots start at their
// spec once their cluster exists, the migration that added the column fills stored rows by the
// same rule, and a held version change shows in the list as running vs asked.
import { listShootsParams } from "../../lib/api/operations/shoots.ts";
import { parseQuery } from "../../lib/api/parse-query.ts";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { nextRunningVersions } from "../../lib/engine/running-versions.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { listShoots } from "../../lib/server/list-shoots.ts";
import { MIGRATIONS_DIR } from "../../lib/db/migrate.ts";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";
import { updateShootFromPatch } from "../../lib/server/update-shoot.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let database: TestDatabase;
const now = Date.now();
const landscape = generateLandscape({ now, shoots: 64 });

const stored = async () =>
  new Map(
    (
      await database.db.shoot.findMany({
        select: { namespace: true, name: true, runningVersions: true },
      })
    ).map((r) => [`${r.namespace}/${r.name}`, r.runningVersions]),
  );

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, landscape, { actor: "test", now });
});

afterAll(async () => {
  await database?.drop();
});

describe("running versions in the store", () => {
  it("start every seeded shoot whose cluster exists at its spec, and no other", async () => {
    const rows = await stored();
    expect(rows.size).toBe(landscape.shoots.length);
    for (const shoot of landscape.shoots) {
      const key = `${shoot.metadata.namespace}/${shoot.metadata.name}`;
      expect(rows.get(key) ?? undefined, key).toEqual(nextRunningVersions(undefined, shoot));
    }
    expect([...rows.values()].filter((r) => r !== null).length).toBeGreaterThan(landscape.shoots.length / 2);
  });

  it("are filled by the column's migration as the engine fills a shoot seen the first time", async () => {
    const dir = readFileSync(path.join(MIGRATIONS_DIR, "20261124154719_running_versions", "migration.sql"), "utf8");
    const backfill = dir.slice(dir.indexOf("UPDATE"));
    const before = await stored();
    await database.db.$executeRawUnsafe(`UPDATE shoots SET running_versions = NULL`);
    await database.db.$executeRawUnsafe(backfill);
    expect(await stored()).toEqual(before);
  });

  it("keep what runs when confineSpecUpdateRollout holds a new version, and the list row says both", async () => {
    const shoot = landscape.shoots.find(
      (s: Shoot) =>
        s.spec.maintenance?.confineSpecUpdateRollout === true &&
        s.status?.lastOperation?.state === "Succeeded" &&
        !s.metadata.deletionTimestamp,
    )!;
    const { namespace = "", name } = shoot.metadata;
    const running = shoot.spec.kubernetes.version;
    const [major, minor, patch] = running.split(".").map(Number);
    const profile = landscape.cloudProfiles.find((p) => p.metadata.name === shoot.spec.cloudProfileName)!;
    const asked = profile.spec.kubernetes.versions
      .map((v) => v.version)
      .find((v) => {
        const [a, b, c] = v.split(".").map(Number);
        return a === major && ((b === minor && c > patch) || b === minor + 1);
      })!;
    expect(asked).toBeDefined();
    await updateShootFromPatch(
      embeddedShootWrites(database.db, () => undefined as never),
      {
        namespace,
        name,
        body: { spec: { kubernetes: { version: asked } } },
        actor: "alice",
        requestId: "r",
        identity: { kind: "almanac" as const },
        ifMatch: null,
        now,
        authorize: () => {},
      },
    );
    expect((await stored()).get(`${namespace}/${name}`)).toMatchObject({ kubernetesVersion: running });
    const page = await listShoots(database.db, parseQuery(listShootsParams, new URLSearchParams(`q=${name}`)), now);
    const row = page.items.map((i) => JSON.parse(i)).find((r) => r.name === name);
    expect(row).toMatchObject({
      kubernetes: { version: asked },
      rolloutPending: true,
      rollout: { when: "window", changes: [{ target: "controlPlane", running, asked }] },
    });
  });
});

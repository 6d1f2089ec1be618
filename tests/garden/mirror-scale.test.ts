// The mirror at landscape scale, in behaviour: a batch of watch events gives the same rows and
// history as the same events one by one (several for one shoot included); a cloud profile
// change rewrites its shoots' derived columns after its own write, and a rewrite cut short by a
// stop is finished by the next holder; shoots arrive without managedFields.
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { startGardenMirror, type RunningMirror } from "../../lib/garden/kubernetes/garden-mirror.ts";
import type { WatchEvent } from "../../lib/garden/kubernetes/list-watch.ts";
import { objectHandlers, shootHandlers } from "../../lib/garden/kubernetes/mirror-writes.ts";
import { ProfileCache } from "../../lib/garden/kubernetes/profile-cache.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { takeLease } from "../../lib/store/garden-lease.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { eventually, putLandscape } from "../support/garden-landscape.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { type StandInGarden, startStandInGarden } from "../support/stand-in-garden.ts";

const DAY = 86_400_000;

describe("a batch of watch events", () => {
  const databases: TestDatabase[] = [];
  const landscape = smallLandscape(Date.UTC(2026, 10, 20), 3);
  afterAll(async () => {
    await Promise.all(databases.map((d) => d.drop()));
  });

  /** The shoots' rows and history a database holds, without what differs by the wall clock. */
  async function recorded(database: TestDatabase) {
    const { db } = database;
    return {
      shoots: await db.shoot.findMany({
        select: {
          name: true,
          resourceVersion: true,
          gardenResourceVersion: true,
          kubernetesVersion: true,
          seed: true,
          runningVersions: true,
          listing: true,
        },
        orderBy: { name: "asc" },
      }),
      runs: await db.maintenanceRun.findMany({
        select: { name: true, trigger: true, state: true, changes: true, description: true },
        orderBy: [{ name: "asc" }, { id: "asc" }],
      }),
      audit: await db.auditEvent.findMany({
        select: { actor: true, action: true, targetName: true, changes: true },
        orderBy: { id: "asc" },
      }),
    };
  }

  async function mirrorInto(events: readonly WatchEvent[], batched: boolean) {
    const database = await createTestDatabase();
    databases.push(database);
    const { handlers } = await listedInto(database, landscape);
    if (batched) await handlers.apply(events);
    else for (const event of events) await handlers.apply([event]);
    return recorded(database);
  }

  test("gives the same rows and history as one by one, with several events for one shoot", async () => {
    const [first, second, third] = landscape.shoots;
    const maintained = (s: Shoot, rv: number) => {
      const next = withVersion(s, rv);
      next.spec.kubernetes.version = "1.31.4";
      next.status = {
        ...next.status,
        lastMaintenance: {
          description:
            'Control Plane: Updated Kubernetes version from "1.31.2" to "1.31.4". Reason: AutoUpdate of Kubernetes version',
          triggeredTime: "2026-11-20T02:00:00Z",
          state: "Succeeded",
        },
      };
      return next;
    };
    const moved = (s: Shoot, rv: number) => {
      const next = withVersion(s, rv);
      next.spec.seedName = "seed-2";
      next.status = { ...next.status, seedName: "seed-2" };
      return next;
    };
    const second1 = maintained(second, 301);
    const newcomer = withVersion(
      { ...third, metadata: { ...third.metadata, name: "cluster-new", uid: "6f1c0f5e-2d1b-4c55-9a43-0d1f1e2a3b4c" } },
      302,
    );
    const events: WatchEvent[] = [
      { type: "MODIFIED", object: second1 },
      { type: "ADDED", object: newcomer },
      { type: "MODIFIED", object: moved(second1, 303) },
      { type: "DELETED", object: withVersion(first, 304) },
      { type: "MODIFIED", object: moved(newcomer, 305) },
      {
        type: "MODIFIED",
        object: {
          ...moved(second1, 306),
          metadata: { ...second1.metadata, resourceVersion: "306", labels: { last: "yes" } },
        },
      },
    ];
    const oneByOne = await mirrorInto(events, false);
    const batched = await mirrorInto(events, true);
    expect(oneByOne.runs.length).toBeGreaterThan(0);
    expect(oneByOne.audit.map((a) => a.action)).toContain("shoot.deleted");
    expect(batched.shoots).toEqual(oneByOne.shoots);
    expect(batched.runs).toEqual(oneByOne.runs);
    // Per shoot in the same order (shoots of one wave may interleave differently).
    const byShoot = (audit: typeof oneByOne.audit) =>
      [...audit].sort((a, b) => (a.targetName ?? "").localeCompare(b.targetName ?? ""));
    expect(byShoot(batched.audit)).toEqual(byShoot(oneByOne.audit));
  });
});

describe("a cloud profile deleted and made again within one batch", () => {
  test("is kept in the cache, so its shoots keep their profile columns", async () => {
    const database = await createTestDatabase();
    try {
      const landscape = smallLandscape(Date.UTC(2026, 10, 20), 2);
      const { profiles, profileHandlers } = await listedInto(database, landscape);
      const [profile] = landscape.cloudProfiles;
      const ref = { kind: "CloudProfile", name: profile.metadata.name } as const;
      // What the profile gives each shoot's row: its expiry and the list row's classifications.
      const columns = async () =>
        (
          await database.db.shoot.findMany({
            where: { cloudProfile: profile.metadata.name },
            select: { name: true, earliestExpiry: true, listing: true },
            orderBy: { name: "asc" },
          })
        ).map((r) => {
          const { kubernetes, workers } = JSON.parse(String(r.listing));
          return { name: r.name, earliestExpiry: r.earliestExpiry, kubernetes, workers };
        });
      const before = await columns();
      expect(before.length).toBe(landscape.shoots.length);
      await profileHandlers.apply([
        { type: "DELETED", object: withVersion(profile, 300) },
        { type: "ADDED", object: withVersion({ ...profile, metadata: { ...profile.metadata, uid: "again" } }, 301) },
      ]);
      expect(profiles.get(ref)?.metadata.name).toBe(profile.metadata.name);
      expect(await columns()).toEqual(before);
    } finally {
      await database.drop();
    }
  });
});

describe("a cloud profile change", () => {
  let garden: StandInGarden;
  let database: TestDatabase;
  const mirrors: RunningMirror[] = [];
  const mirror = (holder: string) => {
    const kc = new KubeConfig();
    kc.loadFromFile(garden.writeKubeconfig());
    const running = startGardenMirror(database.db, kc, {
      holder,
      leaseMs: 1_500,
      log: () => {},
      backoff: { initialMs: 50, maxMs: 500 },
      rewriteBatch: 2,
    });
    mirrors.push(running);
    return running;
  };
  const expiries = async () =>
    (
      await database.db.shoot.findMany({
        where: { kubernetesVersion: "1.31.2" },
        select: { earliestExpiry: true },
      })
    ).map((r) => r.earliestExpiry.toISOString());

  beforeAll(async () => {
    garden = await startStandInGarden({ bookmarkIntervalMs: 200, managedFieldsBytes: 12_000 });
    database = await createTestDatabase();
    putLandscape(garden, smallLandscape(Date.now(), 6));
  });
  afterEach(async () => {
    await Promise.all(mirrors.splice(0).map((m) => m.stop()));
  });
  afterAll(async () => {
    await database?.drop();
    await garden?.close();
  });

  test("rewrites its shoots' derived columns in batches after its own write, and stores no managedFields", async () => {
    await mirror("a").synced();
    const stored = await database.db.shoot.findMany({ select: { metadata: true } });
    expect(stored).toHaveLength(6);
    expect(stored.filter((s) => (s.metadata as { managedFields?: unknown }).managedFields !== undefined)).toEqual([]);
    const expires = new Date(Date.now() + 5 * DAY);
    expires.setUTCMilliseconds(0);
    const [profile] = garden.list("CloudProfile");
    garden.update("CloudProfile", undefined, profile.metadata.name, (p) => {
      const v = p.spec.kubernetes.versions.find((x: { version: string }) => x.version === "1.31.2");
      v.expirationDate = expires.toISOString();
    });
    const after = await eventually(expiries, (e) => e.length === 5 && e.every((x) => x === expires.toISOString()));
    expect(after).toHaveLength(5);
    const row = await database.db.cloudProfile.findUniqueOrThrow({ where: { name: profile.metadata.name } });
    await eventually(
      () => database.db.cloudProfile.findUniqueOrThrow({ where: { name: profile.metadata.name } }),
      (r) => r.shootsColumnsVersion === r.resourceVersion,
    );
    expect(row.document).not.toHaveProperty("metadata.managedFields");
  });

  test("a rewrite cut short is finished by the next holder", async () => {
    await mirror("b").synced();
    await mirrors.splice(0)[0].stop();
    // As if the holder stopped halfway: the mark says not done, and the rows are stale.
    await database.db.$executeRaw`UPDATE cloud_profiles SET shoots_columns_version = NULL`;
    await database.db
      .$executeRaw`UPDATE shoots SET earliest_expiry = '2099-01-01T00:00:00Z' WHERE kubernetes_version = '1.31.2'`;
    const expected = (await database.db.cloudProfile.findFirstOrThrow()).document as {
      spec: { kubernetes: { versions: { version: string; expirationDate?: string }[] } };
    };
    const date = expected.spec.kubernetes.versions.find((v) => v.version === "1.31.2")?.expirationDate;
    await mirror("c").synced();
    await eventually(expiries, (e) => e.every((x) => x === new Date(date ?? 0).toISOString()));
  });
});

/**
 * A mirror's handlers on `database` (holding the lease), with the landscape's profiles and shoots
 * listed into it as a first list would.
 */
async function listedInto(database: TestDatabase, landscape: ReturnType<typeof smallLandscape>) {
  const ctx = { db: database.db, lease: "garden-mirror", holder: "test", clock: () => Date.UTC(2026, 10, 20, 3) };
  expect(await takeLease(database.db, ctx.lease, ctx.holder, 600_000)).toBe(true);
  const profiles = new ProfileCache();
  const profileHandlers = objectHandlers(ctx, "CloudProfile", "profiles", profiles);
  await profileHandlers.listStarted();
  await profileHandlers.listPage(landscape.cloudProfiles.map((p, i) => withVersion(p, 10 + i)));
  await profileHandlers.listEnded("20");
  const handlers = shootHandlers(ctx, "shoots", profiles);
  await handlers.listStarted();
  await handlers.listPage(landscape.shoots.map((s, i) => withVersion(s, 100 + i)));
  await handlers.listEnded("200");
  return { profiles, profileHandlers, handlers };
}

function withVersion<T extends { metadata: { resourceVersion?: string } }>(object: T, rv: number): T {
  return structuredClone({ ...object, metadata: { ...object.metadata, resourceVersion: String(rv) } });
}

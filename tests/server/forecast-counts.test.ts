// The forecast's kept counts (lib/engine/forecast-counts.ts, kept by the database's triggers on
// shoot_forecast_items) give the pages of the whole fleet's and each cloud profile's forecast (the
// summary, the markers, the first items) exactly as the engine's forecast says: on random fleets,
// from moments that cut a day anywhere, after shoots are written, deleted and moved to another
// cloud profile (stale until their facts are computed again), and after the facts are stored. The
// database's counts are also held equal to the definition's counts of the stored items.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { type ForecastItem, forecastHorizon } from "../../lib/engine/forecast.ts";
import { shootCountRows } from "../../lib/engine/forecast-counts.ts";
import {
  type ForecastNarrowing,
  kubernetesMarkers,
  narrowed,
  summarizeForecast,
} from "../../lib/engine/forecast-summary.ts";
import { DAY_MS, HOUR_MS } from "../../lib/engine/time-units.ts";
import { fleetProfileName, profileKeyOf } from "../../lib/gardener/profile-reference.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { type ForecastRequest, forecastText, storedForecast } from "../../lib/server/fleet-forecast.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { profilesByKey } from "../../lib/store/cloud-profiles.ts";
import { itemsCountedApart } from "../../lib/store/forecast-counts.ts";
import { shootColumns } from "../../lib/store/shoot-columns.ts";
import { allShoots, findShoot, removeShoot, runningVersionsOf, updateShoot } from "../../lib/store/shoots.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

const T0 = Date.parse("2026-03-02T13:41:07.250Z");

/** The engine's items (and problems) from `now` to `days` ahead, of the shoots as stored now. */
async function engineItems(database: TestDatabase, days: number, now: number, cloudProfile?: string) {
  const [shoots, profiles, running] = await Promise.all([
    allShoots(database.db),
    profilesByKey(database.db),
    runningVersionsOf(database.db),
  ]);
  const inScope = shoots.filter(
    (s) => cloudProfile === undefined || fleetProfileName(s, profiles.get(profileKeyOf(s))) === cloudProfile,
  );
  const to = now + days * DAY_MS;
  return forecastHorizon(inScope, profiles, now, to, (s) =>
    running.get(`${s.metadata.namespace}/${s.metadata.name}`),
  ).until(to);
}

const NARROWINGS: ForecastNarrowing[] = [
  {},
  { kind: "machineImage" },
  { kind: "kubernetes" },
  { stuck: true },
  { kind: "kubernetes", stuck: true },
  { atRisk: true },
  { kind: "machineImage", atRisk: true },
];

/** Every narrowing's page of the fleet and of each cloud profile equals the engine's. */
async function expectPagesEqualAt(database: TestDatabase, now: number, days: number, profiles: readonly string[]) {
  for (const cloudProfile of [undefined, ...profiles]) {
    const engine = await engineItems(database, days, now, cloudProfile);
    for (const narrowing of NARROWINGS) {
      const request: ForecastRequest = {
        days,
        scope: cloudProfile === undefined ? {} : { cloudProfile },
        narrowing,
        limit: 25,
        summary: true,
        markers: true,
      };
      const { answer, written } = await storedForecast(database.db, request, now);
      const body = JSON.parse(await forecastText(answer));
      const selected = engine.items.filter((i) => narrowed(i, narrowing));
      const where = `${cloudProfile ?? "fleet"} ${JSON.stringify(narrowing)} ${days} days from ${new Date(now).toISOString()}`;
      expect(body.items, where).toEqual(selected.slice(0, 25));
      expect(body.total, where).toBe(selected.length);
      expect(body.summary, where).toEqual(summarizeForecast(engine.items, narrowing));
      expect(body.markers, where).toEqual(kubernetesMarkers(engine.items));
      expect(body.problems, where).toEqual(engine.problems);
      await written;
    }
  }
}

/** The database's kept counts equal the definition's counts of the stored items, shoot by shoot. */
async function expectKeptCountsOfStoredItems(database: TestDatabase) {
  const shoots = (await allShoots(database.db)).map((s) => ({
    namespace: s.metadata.namespace!,
    name: s.metadata.name,
  }));
  // Every shoot's stored items (no day's: from 0 to -1).
  const items = (await itemsCountedApart(database.db, shoots, undefined, 0, -1)).filter((i) => i.failsFrom === null);
  const perShoot = new Map<string, typeof items>();
  for (const i of items)
    perShoot.set(`${i.namespace}/${i.name}`, [...(perShoot.get(`${i.namespace}/${i.name}`) ?? []), i]);
  const itemRows = new Map<string, number>();
  const shootRows = new Map<string, number>();
  for (const own of perShoot.values()) {
    const rows = shootCountRows(own);
    const profile = own[0].cloudProfile;
    for (const r of rows.items) {
      const key = [profile, r.day, r.kind, r.fromVersion, r.stuck, r.held, r.risk].join("|");
      itemRows.set(key, (itemRows.get(key) ?? 0) + r.n);
    }
    for (const r of rows.shoots) {
      const key = [profile, r.day, r.kindFilter, r.stuckOnly, r.riskyOnly, r.category, r.causes].join("|");
      shootRows.set(key, (shootRows.get(key) ?? 0) + r.n);
    }
  }
  const keptItems = await database.db.$queryRawUnsafe<Record<string, unknown>[]>(
    `SELECT cloud_profile, day, kind, from_version, stuck, held, risk, n FROM forecast_item_counts WHERE n <> 0`,
  );
  const keptShoots = await database.db.$queryRawUnsafe<Record<string, unknown>[]>(
    `SELECT cloud_profile, day, kind_filter, stuck_only, risky_only, category, causes, n FROM forecast_shoot_counts WHERE n <> 0`,
  );
  const asMap = (rows: Record<string, unknown>[]) =>
    new Map(
      rows.map((r) => [
        Object.entries(r)
          .slice(0, -1)
          .map(([, v]) => String(v))
          .join("|"),
        Number(r.n),
      ]),
    );
  expect(asMap(keptItems)).toEqual(itemRows);
  expect(asMap(keptShoots)).toEqual(shootRows);
  expect(itemRows.size).toBeGreaterThan(0);
}

async function writeShoot(database: TestDatabase, shoot: Shoot, change: (s: Shoot) => Shoot, now: number) {
  const profiles = await profilesByKey(database.db);
  await database.db.$transaction(async (tx) => {
    const held = (await findShoot(tx, shoot.metadata.namespace!, shoot.metadata.name, true))!;
    const changed = change(held.shoot);
    const columns = shootColumns(
      changed,
      profiles.get(profileKeyOf(changed)),
      now,
      held.resourceVersion + 1,
      held.running,
    );
    expect(await updateShoot(tx, changed, columns, held.resourceVersion)).toBe(held.resourceVersion + 1);
  });
}

describe.each([2, 7])("the forecast's pages from kept counts, demo landscape seed %i", (seed) => {
  let database: TestDatabase;
  let profiles: string[];
  // A moment that cuts a day anywhere, drawn from the seed.
  const now = T0 + ((seed * 7_919_311) % DAY_MS);
  beforeAll(async () => {
    database = await createTestDatabase();
    await seedLandscape(database.db, generateLandscape({ now: T0, shoots: 300, seed }), { actor: "test", now: T0 });
    profiles = [
      ...new Set((await allShoots(database.db)).map((s) => s.spec.cloudProfile?.name ?? s.spec.cloudProfileName ?? "")),
    ]
      .filter((p) => p !== "")
      .sort();
  }, 300_000);
  afterAll(async () => {
    await database?.drop();
  });

  // Each test reads many pages (every profile, every narrowing), each against the engine: minutes
  // on a busy machine.
  it("equals the engine's when every shoot is computed at the read, and from the stored facts", async () => {
    await expectPagesEqualAt(database, now, 30, profiles);
    await expectKeptCountsOfStoredItems(database);
    for (const days of [1, 30, 366]) await expectPagesEqualAt(database, now, days, profiles);
  }, 300_000);

  it("equals the engine's days later, with stale shoots merged, and after they are stored", async () => {
    for (const later of [now + 3 * DAY_MS + 7 * HOUR_MS, now + 12 * DAY_MS + 11 * HOUR_MS]) {
      await expectPagesEqualAt(database, later, 366, profiles);
      await expectPagesEqualAt(database, later, 30, profiles);
    }
    await expectKeptCountsOfStoredItems(database);
  }, 300_000);

  it("equals the engine's after shoots are written, deleted and moved to another cloud profile", async () => {
    const later = now + 13 * DAY_MS;
    await expectPagesEqualAt(database, later, 366, profiles);
    const shoots = await allShoots(database.db);
    const withItems = (await engineItems(database, 366, later)).items;
    const named = (item: ForecastItem) =>
      shoots.find((s) => s.metadata.name === item.name && s.metadata.namespace === item.namespace)!;
    const [first, second, third] = [withItems[0], withItems[Math.floor(withItems.length / 2)], withItems.at(-1)!].map(
      named,
    );
    // Written: a window at another time of day, and every update automatic.
    await writeShoot(
      database,
      first,
      (s) => ({
        ...s,
        spec: {
          ...s.spec,
          maintenance: {
            ...s.spec.maintenance,
            timeWindow: { begin: "030000+0000", end: "040000+0000" },
            autoUpdate: { kubernetesVersion: true, machineImageVersion: true },
          },
        },
      }),
      later,
    );
    // Moved: to another cloud profile (its versions are not all there: its forecast may fail).
    const current = second.spec.cloudProfile?.name ?? second.spec.cloudProfileName!;
    const other = profiles.find((p) => p !== current)!;
    await writeShoot(
      database,
      second,
      (s) => ({
        ...s,
        spec: { ...s.spec, cloudProfileName: other, cloudProfile: { kind: "CloudProfile", name: other } },
      }),
      later,
    );
    await database.db.$transaction((tx) => removeShoot(tx, third.metadata.namespace!, third.metadata.name));
    // Read while they are stale (merged into the answer), then once stored.
    await expectPagesEqualAt(database, later, 366, profiles);
    await expectPagesEqualAt(database, later, 30, profiles);
    await expectKeptCountsOfStoredItems(database);
    await expectPagesEqualAt(database, later + HOUR_MS, 366, profiles);
  }, 300_000);
});

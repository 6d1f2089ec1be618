// The fleet forecast read from stored facts answers exactly what the engine's step-by-step forecast
// from the same moment says: item for item in the same order, with the same problems, on demo
// landscapes of several seeds, when the facts are computed at the read, when they were computed
// days earlier and still hold, once they went stale (expired, or the shoot was written), and for
// one namespace, one shoot and one cloud profile.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { type ForecastItem, forecastHorizon } from "../../lib/engine/forecast.ts";
import {
  type ForecastNarrowing,
  type ForecastSummary,
  kubernetesMarkers,
  MARKER_ITEMS,
  narrowed,
  summarizeForecast,
} from "../../lib/engine/forecast-summary.ts";
import { DAY_MS } from "../../lib/engine/time-units.ts";
import { fleetProfileName, profileKeyOf } from "../../lib/gardener/profile-reference.ts";
import {
  type ForecastRequest,
  type ForecastTuning,
  forecastText,
  storedForecast,
} from "../../lib/server/fleet-forecast.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { profilesByKey } from "../../lib/store/cloud-profiles.ts";
import { shootColumns } from "../../lib/store/shoot-columns.ts";
import { shootsWithStaleForecasts } from "../../lib/store/shoot-forecasts.ts";
import { allShoots, findShoot, runningVersionsOf, updateShoot } from "../../lib/store/shoots.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

const T0 = Date.parse("2026-06-10T08:17:31.412Z");

/** The engine's forecast of what `request` covers, from the shoots as stored now. */
async function engineForecast(database: TestDatabase, request: ForecastRequest, now: number): Promise<string> {
  const { db } = database;
  const [shoots, profiles, running] = await Promise.all([
    allShoots(db, request.scope.namespaces),
    profilesByKey(db),
    runningVersionsOf(db, request.scope.namespaces),
  ]);
  const inScope = shoots.filter(
    (s) =>
      (request.scope.name === undefined || s.metadata.name === request.scope.name) &&
      (request.scope.cloudProfile === undefined ||
        fleetProfileName(s, profiles.get(profileKeyOf(s))) === request.scope.cloudProfile),
  );
  const to = now + request.days * DAY_MS;
  const forecast = forecastHorizon(inScope, profiles, now, to, (s) =>
    running.get(`${s.metadata.namespace}/${s.metadata.name}`),
  ).until(to);
  return JSON.stringify({ days: request.days, ...forecast });
}

let tuning: Partial<ForecastTuning> = {};

async function expectEqualAt(database: TestDatabase, request: ForecastRequest, now: number) {
  const { answer: json, written } = await storedForecast(database.db, request, now, tuning);
  const body = await forecastText(json);
  const expected = await engineForecast(database, request, now);
  const answer = JSON.parse(body);
  expect(answer.items.length).toBe(JSON.parse(expected).items.length);
  expect(answer).toEqual(JSON.parse(expected));
  expect(body).toBe(expected);
  await written;
  return answer as { items: unknown[]; problems: unknown[] };
}

const fleet = (days: number): ForecastRequest => ({ days, scope: {} });

/**
 * A page's answer (narrowed, the first `limit` items, the summary) equals the engine's forecast
 * (`engine`, its items) narrowed, cut and summarized by the summary's definition.
 */
async function expectPageEqualAt(
  database: TestDatabase,
  request: ForecastRequest,
  now: number,
  engine: readonly ForecastItem[],
) {
  const { answer: json, written } = await storedForecast(database.db, request, now, tuning);
  const body = await forecastText(json);
  const narrowing = request.narrowing ?? {};
  const selected = engine.filter((i) => narrowed(i, narrowing));
  const summary = summarizeForecast(engine, narrowing);
  const answer = JSON.parse(body);
  expect(answer.items).toEqual(request.limit === undefined ? selected : selected.slice(0, request.limit));
  expect(answer.total).toBe(request.limit === undefined ? undefined : selected.length);
  expect(answer.summary).toEqual(request.summary ? summary : undefined);
  expect(answer.markers).toEqual(request.markers ? kubernetesMarkers(engine) : undefined);
  await written;
  return summary;
}

const NARROWINGS: ForecastNarrowing[] = [
  {},
  { kind: "machineImage" },
  { kind: "kubernetes", stuck: true },
  { atRisk: true },
  { kind: "kubernetes", atRisk: true },
];

/** Every narrowing, each with a first page and the summary, then with no limit. */
async function expectPagesEqualAt(database: TestDatabase, days: number, now: number) {
  const engine = JSON.parse(await engineForecast(database, fleet(days), now)).items as ForecastItem[];
  const summaries: ForecastSummary[] = [];
  for (const narrowing of NARROWINGS) {
    const page = { days, scope: {}, narrowing, limit: 7, summary: true, markers: true };
    summaries.push(await expectPageEqualAt(database, page, now, engine));
    await expectPageEqualAt(database, { days, scope: {}, narrowing }, now, engine);
  }
  await expectPageEqualAt(database, { days, scope: {}, limit: 0 }, now, engine);
  return summaries;
}

// Seed 5 stores every computed shoot before answering (or answers from them when none is
// stored), reads stale shoots 150 at a time and every item 97 at a time (pages end inside a
// moment's items); seed 1 (500 shoots) merges a few computed shoots into its queries, and stores
// many batch by batch as it reads them 120 at a time (beyond 200).
describe.each<[number, Partial<ForecastTuning>]>([
  [1, { storeBeyond: 200, staleReadBatch: 120 }],
  [5, { mergeAtMost: 0, staleReadBatch: 150, itemPage: 97 }],
])("the forecast from stored facts, demo landscape seed %i, tuned %o", (seed, tuned) => {
  let database: TestDatabase;
  beforeAll(async () => {
    tuning = tuned;
    database = await createTestDatabase();
    await seedLandscape(database.db, generateLandscape({ now: T0, shoots: 500, seed }), { actor: "test", now: T0 });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("equals the engine's when every shoot's facts are computed at the read, and after they are stored", async () => {
    expect(await shootsWithStaleForecasts(database.db, {}, T0)).toHaveLength(500);
    const answer = await expectEqualAt(database, fleet(30), T0);
    expect(answer.items.length).toBeGreaterThan(50);
    // Stored: nothing is computed again, and every horizon is read from the same facts.
    expect(await shootsWithStaleForecasts(database.db, {}, T0)).toHaveLength(0);
    for (const days of [1, 30, 366]) await expectEqualAt(database, fleet(days), T0);
  });

  it("equals the engine's days later, from facts still valid and those computed again", async () => {
    await expectEqualAt(database, fleet(366), T0);
    for (const later of [T0 + 3 * DAY_MS + 7_000, T0 + 11 * DAY_MS]) {
      const stale = await shootsWithStaleForecasts(database.db, {}, later);
      // Most facts still hold; those whose first update came meanwhile are computed again.
      expect(stale.length).toBeGreaterThan(0);
      expect(stale.length).toBeLessThan(500);
      for (const days of [30, 366]) await expectEqualAt(database, fleet(days), later);
    }
  });

  it("computes every shoot again once the facts' margin has passed", async () => {
    const later = T0 + 45 * DAY_MS;
    expect(await shootsWithStaleForecasts(database.db, {}, later)).toHaveLength(500);
    await expectEqualAt(database, fleet(366), later);
    expect(await shootsWithStaleForecasts(database.db, {}, later)).toHaveLength(0);
    // Asking from before the facts were computed computes again rather than reading them.
    expect((await shootsWithStaleForecasts(database.db, {}, T0)).length).toBe(500);
    await expectEqualAt(database, fleet(30), T0);
  });

  it("computes a shoot again after it is written, and answers with its new spec", async () => {
    await expectEqualAt(database, fleet(366), T0);
    const [one] = await allShoots(database.db);
    const profiles = await profilesByKey(database.db);
    await database.db.$transaction(async (tx) => {
      const held = (await findShoot(tx, one.metadata.namespace!, one.metadata.name, true))!;
      const shoot = {
        ...held.shoot,
        spec: {
          ...held.shoot.spec,
          maintenance: {
            ...held.shoot.spec.maintenance,
            timeWindow: { begin: "030000+0000", end: "040000+0000" },
            autoUpdate: { kubernetesVersion: true, machineImageVersion: true },
          },
        },
      };
      const profile = profiles.get(profileKeyOf(shoot));
      const columns = shootColumns(shoot, profile, T0, held.resourceVersion + 1, held.running);
      expect(await updateShoot(tx, shoot, columns, held.resourceVersion)).toBe(held.resourceVersion + 1);
    });
    const stale = await shootsWithStaleForecasts(database.db, {}, T0);
    expect(stale.map((s) => s.shoot.metadata.name)).toEqual([one.metadata.name]);
    for (const days of [30, 366]) await expectEqualAt(database, fleet(days), T0);
  });

  it("answers a page (narrowed, the first items, the summary) as the engine's forecast says, however the facts are read", async () => {
    // Stored facts; some computed again days later (merged into the query, or stored first); all
    // computed again past their margin (answered from them without a query, with mergeAtMost 0).
    await expectEqualAt(database, fleet(366), T0);
    const [all] = await expectPagesEqualAt(database, 366, T0);
    await expectPagesEqualAt(database, 30, T0 + 5 * DAY_MS);
    await expectPagesEqualAt(database, 366, T0 + 45 * DAY_MS);
    // The demo landscape has every kind of update the summary counts apart.
    expect(all.forced).toBeGreaterThan(0);
    expect(all.stuckShoots).toBeGreaterThan(0);
    expect(all.risk.updates).toBeGreaterThan(0);
    expect(Object.keys(all.risk.byCause).length).toBeGreaterThan(1);
    expect(all.days.length).toBeGreaterThan(20);
    const markers = kubernetesMarkers(JSON.parse(await engineForecast(database, fleet(366), T0)).items);
    expect(markers.some((m) => m.updates > MARKER_ITEMS)).toBe(true);
  });

  it("equals the engine's for one namespace, one shoot and one cloud profile", async () => {
    const later = T0 + 2 * DAY_MS;
    const shoots = await allShoots(database.db);
    const namespace = shoots[Math.floor(shoots.length / 2)].metadata.namespace!;
    const withItems = JSON.parse(await engineForecast(database, fleet(366), later)).items[7] as {
      namespace: string;
      name: string;
      cloudProfile: string;
    };
    const requests: ForecastRequest[] = [
      { days: 366, scope: { namespaces: [namespace] } },
      { days: 366, scope: { namespaces: [withItems.namespace], name: withItems.name } },
      { days: 366, scope: { cloudProfile: withItems.cloudProfile } },
      { days: 30, scope: { namespaces: [namespace, withItems.namespace], cloudProfile: withItems.cloudProfile } },
      { days: 30, scope: { namespaces: [] } },
    ];
    for (const request of requests) await expectEqualAt(database, request, later);
    const one = await expectEqualAt(database, requests[1], later);
    expect(one.items.length).toBeGreaterThan(0);
  });
});

// The forecast's facts computed in the background on a real job queue and PostgreSQL: seeding asks
// for a pass and a worker fills every shoot's facts (so a read computes none), a shoot written
// later is computed by the next pass, a pass computes ahead the facts the margin ends within the
// hour (once), and two workers asking for passes over and over never run two batches at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { FACTS_MARGIN_MS, FACTS_SPREAD_MS } from "../../lib/engine/forecast-facts.ts";
import { DAY_MS, MINUTE_MS } from "../../lib/engine/time-units.ts";
import { profileKeyOf } from "../../lib/gardener/profile-reference.ts";
import {
  REFRESH_AHEAD_MS,
  refreshForecastBatch,
  refreshForecasts,
  requestForecastRefresh,
  startForecastRefresh,
  type RunningRefresh,
} from "../../lib/jobs/forecast-refresh.ts";
import { type PgBoss, QUEUES, startQueue } from "../../lib/jobs/queue.ts";
import { forecastText, storedForecast } from "../../lib/server/fleet-forecast.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { cachedCloudProfiles, profilesByKey } from "../../lib/store/cloud-profiles.ts";
import { shootColumns } from "../../lib/store/shoot-columns.ts";
import { shootsWithStaleForecasts } from "../../lib/store/shoot-forecasts.ts";
import { findShoot, updateShoot } from "../../lib/store/shoots.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST, unfinishedJobs, waitUntil } from "../support/jobs.ts";

const SHOOTS = 300;
const BATCH = 100;

interface FactsRow {
  namespace: string;
  name: string;
  computed_from: Date | null;
  valid_until: Date | null;
}

const factsOf = (database: TestDatabase) =>
  database.db.$queryRaw<FactsRow[]>`
    SELECT namespace, name, forecast_computed_from AS computed_from, forecast_valid_until AS valid_until
    FROM shoots ORDER BY namespace, name`;

/** Moves a shoot's window: a write, which leaves its facts stale. */
async function writeShoot(database: TestDatabase, namespace: string, name: string, now: number) {
  const profiles = await profilesByKey(database.db);
  await database.db.$transaction(async (tx) => {
    const held = (await findShoot(tx, namespace, name, true))!;
    const shoot = {
      ...held.shoot,
      spec: {
        ...held.shoot.spec,
        maintenance: { ...held.shoot.spec.maintenance, timeWindow: { begin: "030000+0000", end: "040000+0000" } },
      },
    };
    const columns = shootColumns(shoot, profiles.get(profileKeyOf(shoot)), now, held.resourceVersion + 1, held.running);
    expect(await updateShoot(tx, shoot, columns, held.resourceVersion)).toBe(held.resourceVersion + 1);
  });
}

async function startRefreshWorker(database: TestDatabase): Promise<{ boss: PgBoss; refresh: RunningRefresh }> {
  const boss = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: true });
  const refresh = await startForecastRefresh(database.db, boss, { ...FAST, forecastRefreshBatch: BATCH });
  return { boss, refresh };
}

const noneStale = async (database: TestDatabase) =>
  (await shootsWithStaleForecasts(database.db, {}, Date.now())).length === 0;

describe("the forecast refresh on a worker", () => {
  let database: TestDatabase;
  let client: PgBoss;
  let worker: { boss: PgBoss; refresh: RunningRefresh } | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    client = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: false });
  });
  afterAll(async () => {
    worker?.refresh.stop();
    await worker?.boss.stop({ graceful: false });
    await client?.stop({ graceful: false });
    await database?.drop();
  });

  it("computes every seeded shoot's facts in batches, so that a read then finds none stale", async () => {
    const now = Date.now();
    await seedLandscape(database.db, generateLandscape({ now, shoots: SHOOTS, seed: 2 }), {
      actor: "test",
      now,
      boss: client,
    });
    // Seeding asked for a pass in its transaction; nothing computed it yet.
    expect(await unfinishedJobs(client, QUEUES.forecastRefresh)).toHaveLength(1);
    expect(await shootsWithStaleForecasts(database.db, {}, now)).toHaveLength(SHOOTS);

    worker = await startRefreshWorker(database);
    await waitUntil("every shoot's facts", () => noneStale(database));
    await waitUntil("the pass's end", async () => (await unfinishedJobs(client, QUEUES.forecastRefresh)).length === 0);
    // One job per batch, each going on after the last shoot of the one before. The worker's own
    // request at start may take the one waiting place while the seed's pass runs its first batch:
    // the pass then starts over with the shoots still stale, which leaves out the first "after".
    const jobs = await client.findJobs<{ after?: { namespace: string; name: string } }>(QUEUES.forecastRefresh);
    const afters = jobs.flatMap((j) => (j.data.after ? [`${j.data.after.namespace}/${j.data.after.name}`] : []));
    const keys = (await factsOf(database)).map((r) => `${r.namespace}/${r.name}`);
    const batchEnds = [keys[BATCH - 1], keys[2 * BATCH - 1], keys[3 * BATCH - 1]];
    expect(afters.length).toBeGreaterThanOrEqual(2);
    expect(batchEnds).toEqual(expect.arrayContaining(afters));
    expect(afters).toContain(keys[3 * BATCH - 1]);

    const readAt = Date.now();
    expect(await shootsWithStaleForecasts(database.db, {}, readAt)).toEqual([]);
    const { answer, written } = await storedForecast(database.db, { days: 366, scope: {} }, readAt);
    await written;
    expect(JSON.parse(await forecastText(answer)).items.length).toBeGreaterThan(50);
  });

  it("computes a shoot written after the pass in the next pass", async () => {
    const [, second] = await factsOf(database);
    await writeShoot(database, second.namespace, second.name, Date.now());
    const stale = await shootsWithStaleForecasts(database.db, {}, Date.now());
    expect(stale.map((s) => s.shoot.metadata.name)).toEqual([second.name]);

    await requestForecastRefresh(client);
    await waitUntil("the written shoot's facts", () => noneStale(database));
    const after = (await factsOf(database)).find((r) => r.name === second.name && r.namespace === second.namespace)!;
    expect(after.computed_from!.getTime()).toBeGreaterThan(second.computed_from!.getTime());
  });
});

describe("a pass at a given moment", () => {
  const T0 = Date.parse("2026-06-10T08:17:31.412Z");
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await seedLandscape(database.db, generateLandscape({ now: T0, shoots: SHOOTS, seed: 3 }), {
      actor: "test",
      now: T0,
    });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("computes ahead, once, the facts that the margin ends within the hour, and not those an update ends", async () => {
    expect(await refreshForecasts(database.db, T0, BATCH)).toBe(SHOOTS);
    const first = await factsOf(database);
    const lasting = (r: FactsRow) => r.valid_until!.getTime() - r.computed_from!.getTime();
    const marginBound = first.filter((r) => lasting(r) >= FACTS_MARGIN_MS - FACTS_SPREAD_MS);
    const updateBound = first.filter((r) => lasting(r) < FACTS_MARGIN_MS - FACTS_SPREAD_MS);
    expect(marginBound.length).toBeGreaterThan(30);
    expect(updateBound.length).toBeGreaterThan(30);

    // Half an hour before the first margin-bound facts expire, the pass takes those due within
    // the hour (and any already expired), and gives them a full margin from now.
    const firstExpiry = Math.min(...marginBound.map((r) => r.valid_until!.getTime()));
    const now = firstExpiry - 30 * MINUTE_MS;
    const due = marginBound.filter((r) => r.valid_until!.getTime() < now + REFRESH_AHEAD_MS);
    const expired = first.filter((r) => r.valid_until!.getTime() < now);
    expect(due.length).toBeGreaterThan(0);
    // Expiries spread out: an hour's worth is a small part of the fleet.
    expect(due.length).toBeLessThan(marginBound.length / 10);
    expect(await refreshForecasts(database.db, now, BATCH)).toBe(due.length + expired.length);
    const second = await factsOf(database);
    const at = (rows: FactsRow[], r: FactsRow) => rows.find((x) => x.namespace === r.namespace && x.name === r.name)!;
    for (const r of due) {
      expect(at(second, r).computed_from!.getTime()).toBe(now);
      expect(at(second, r).valid_until!.getTime()).toBeGreaterThan(now + 20 * DAY_MS);
    }
    // Update-bound facts still valid at `now` stay as they were, even if they end within the hour.
    for (const r of updateBound.filter((x) => x.valid_until!.getTime() >= now)) {
      expect(at(second, r).computed_from!.getTime()).toBe(T0);
    }
    // A pass at the same moment finds nothing more to do.
    expect(await refreshForecasts(database.db, now, BATCH)).toBe(0);
  });

  it("reads a pass's batches as slices of the stale shoots in key order, whichever condition made each stale", async () => {
    // Each condition is read as its own walk in key order, a batch at most from each: the batches,
    // one after another, must still be the whole stale set (never computed, written since,
    // expired, due within the hour) in order, a shoot stale by two conditions once.
    await refreshForecasts(database.db, T0, BATCH);
    const rows = await factsOf(database);
    const validUntil = rows.map((r) => r.valid_until!.getTime()).sort((a, b) => a - b);
    const now = validUntil[Math.floor(rows.length / 3)];
    for (const r of rows.filter((_, i) => i % 7 === 3)) await writeShoot(database, r.namespace, r.name, T0);
    const expiring = { until: now + 10 * DAY_MS, fullMs: FACTS_MARGIN_MS - FACTS_SPREAD_MS };
    const key = (s: { shoot: { metadata: { namespace?: string; name: string } } }) =>
      `${s.shoot.metadata.namespace}/${s.shoot.metadata.name}`;
    const whole = (await shootsWithStaleForecasts(database.db, {}, now, { limit: SHOOTS, expiring })).map(key);
    const written = rows.filter((_, i) => i % 7 === 3).length;
    expect(whole.length).toBeGreaterThan(written + 20);
    expect(whole.length).toBeLessThan(SHOOTS);
    const batched: string[] = [];
    let after: { namespace: string; name: string } | undefined;
    for (;;) {
      const batch = await shootsWithStaleForecasts(database.db, {}, now, {
        limit: 7,
        expiring,
        ...(after ? { after } : {}),
      });
      batched.push(...batch.map(key));
      if (batch.length < 7) break;
      const last = batch.at(-1)!.shoot.metadata;
      after = { namespace: last.namespace ?? "", name: last.name };
    }
    expect(batched).toEqual(whole);
    expect(new Set(whole).size).toBe(whole.length);
    // And one namespace's batches are its part of the same.
    const namespace = rows[0].namespace;
    const scoped = await shootsWithStaleForecasts(database.db, { namespaces: [namespace] }, now, {
      limit: 5,
      expiring,
    });
    expect(scoped.map(key)).toEqual(whole.filter((k) => k.startsWith(`${namespace}/`)).slice(0, 5));
  });
});

describe("two workers", () => {
  let database: TestDatabase;
  const workers: { boss: PgBoss; refresh: RunningRefresh }[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    const now = Date.now();
    await seedLandscape(database.db, generateLandscape({ now, shoots: SHOOTS, seed: 4 }), { actor: "test", now });
  });
  afterAll(async () => {
    for (const w of workers) {
      w.refresh.stop();
      await w.boss.stop({ graceful: false });
    }
    await database?.drop();
  });

  it("asking for passes over and over never run two batches at once", async () => {
    workers.push(await startRefreshWorker(database), await startRefreshWorker(database));
    // Both keep asking while the pass runs: a request while one waits is dropped.
    const requests: Promise<void>[] = [];
    for (let i = 0; i < 10; i++) {
      for (const w of workers) requests.push(requestForecastRefresh(w.boss));
      await new Promise((r) => setTimeout(r, 150));
    }
    await Promise.all(requests);
    await waitUntil("every shoot's facts", () => noneStale(database));
    await waitUntil("the passes' end", async () =>
      (await Promise.all(workers.map((w) => unfinishedJobs(w.boss, QUEUES.forecastRefresh)))).every(
        (jobs) => jobs.length === 0,
      ),
    );
    const runs = await database.db.$queryRaw<{ started_on: Date; completed_on: Date }[]>`
      SELECT started_on, completed_on FROM pgboss.job
      WHERE name = ${QUEUES.forecastRefresh} AND state = 'completed' ORDER BY started_on`;
    expect(runs.length).toBeGreaterThanOrEqual(SHOOTS / BATCH);
    for (let i = 1; i < runs.length; i++) {
      expect(runs[i].started_on.getTime()).toBeGreaterThanOrEqual(runs[i - 1].completed_on.getTime());
    }
  });
});

describe("a pass just after a cloud profile is written", () => {
  it("computes with the profiles as they are, not as a read cached them a moment before", async () => {
    const database = await createTestDatabase();
    try {
      const now = Date.now();
      await seedLandscape(database.db, generateLandscape({ now, shoots: 20, seed: 5 }), { actor: "test", now });
      // A read caches the profiles (for a few seconds); then every profile is written, as a live
      // garden's mirror writes them, which the cache hears of only later.
      await cachedCloudProfiles(database.db, now);
      await database.db.$executeRawUnsafe("UPDATE cloud_profiles SET resource_version = resource_version + 1");

      const batch = await refreshForecastBatch(database.db, now, 1_000);
      expect(batch).toMatchObject({ computed: 20, stored: 20 });
      expect(await shootsWithStaleForecasts(database.db, {}, now)).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});

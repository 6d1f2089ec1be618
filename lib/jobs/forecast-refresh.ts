// The forecast's stored facts computed in the background, so that a forecast read almost never has
// to step many shoots itself: after seeding (the demo landscape, `npm run seed`) and every few
// minutes, a pass over the fleet computes the facts of the shoots a read would find stale, and of
// those whose facts the margin alone ends within the hour, 1,000 shoots per job in (namespace,
// name) order. Each job sends the next with where it stopped; the queue's "stately" policy
// (queue.ts) keeps one pass at a time. The pass reads only the tables, which both gardens fill (a
// live garden's mirror as the simulated garden's writes), so it runs alike for both. The read path
// (lib/server/fleet-forecast.ts) still computes what is stale when it reads: the pass only spares
// it the work, and its writes are checked against the shoots' versions like the read's.
import type { Job } from "pg-boss";
import type { Db, Tx } from "../db/client.ts";
import { FACTS_MARGIN_MS, FACTS_SPREAD_MS } from "../engine/forecast-facts.ts";
import { redactSecrets } from "../engine/redact-secrets.ts";
import { HOUR_MS } from "../engine/time-units.ts";
import { logger } from "../observability/logger.ts";
import { profilesByKey } from "../store/cloud-profiles.ts";
import { shootsWithStaleForecasts, storeForecastFacts } from "../store/shoot-forecasts.ts";
import { computedForecastFacts } from "../store/stale-forecast-facts.ts";
import type { JobsConfig } from "./config.ts";
import { type PgBoss, QUEUES, sendInTx } from "./queue.ts";

/** Facts due within this long are computed ahead, so a reader does not meet them expired. */
export const REFRESH_AHEAD_MS = HOUR_MS;

/**
 * Facts valid this long after they were computed may be ended by the margin alone, which a new
 * computation moves on. Shorter ones end at a forced update or a change, the same moment whenever
 * they are computed, so computing them ahead would be work for nothing.
 */
const MARGIN_BOUND_MS = FACTS_MARGIN_MS - FACTS_SPREAD_MS;

type ShootKey = { readonly namespace: string; readonly name: string };

export interface ForecastRefreshJob {
  /** Where the pass goes on: after this shoot (absent: from the first). */
  readonly after?: ShootKey;
}

export interface RefreshedBatch {
  readonly computed: number;
  readonly stored: number;
  /** Where the next batch starts; absent when this one was the pass's last. */
  readonly next?: ShootKey;
}

/**
 * One batch of a pass at `now`: the first `limit` shoots after `after` whose facts are stale or
 * due within REFRESH_AHEAD_MS, computed and stored.
 */
export async function refreshForecastBatch(
  db: Db,
  now: number,
  limit: number,
  after?: ShootKey,
): Promise<RefreshedBatch> {
  // The profiles as they are now, not as a read cached them in the last seconds: the pass that
  // follows a live garden's first listing came within a second of the mirror writing them, computed
  // against the cached profiles of a pass before it (none yet), and kept nothing (the store checks
  // each profile's version), so the facts waited for the next pass, minutes later.
  const [profiles, stale] = await Promise.all([
    profilesByKey(db),
    shootsWithStaleForecasts(db, {}, now, {
      limit,
      ...(after ? { after } : {}),
      expiring: { until: now + REFRESH_AHEAD_MS, fullMs: MARGIN_BOUND_MS },
    }),
  ]);
  const stored = await storeForecastFacts(db, computedForecastFacts(stale, profiles, now));
  const last = stale.at(-1)?.shoot.metadata;
  return {
    computed: stale.length,
    stored: stored.size,
    ...(stale.length === limit && last ? { next: { namespace: last.namespace ?? "", name: last.name } } : {}),
  };
}

/** A whole pass in this process, batch after batch (for a script that waits for it). */
export async function refreshForecasts(
  db: Db,
  now: number,
  limit: number,
  onBatch?: (batch: RefreshedBatch, computedSoFar: number) => void,
): Promise<number> {
  let computed = 0;
  let after: ShootKey | undefined;
  do {
    const batch = await refreshForecastBatch(db, now, limit, after);
    computed += batch.computed;
    onBatch?.(batch, computed);
    after = batch.next;
  } while (after);
  return computed;
}

/** Asks for a pass from the first shoot, in `tx` when given; dropped while one already waits. */
export async function requestForecastRefresh(boss: PgBoss, tx?: Tx): Promise<void> {
  if (tx) await sendInTx(boss, tx, QUEUES.forecastRefresh, {} satisfies ForecastRefreshJob);
  else await boss.send(QUEUES.forecastRefresh, {} satisfies ForecastRefreshJob);
}

/** A job of the pass: its batch, then the job of the next one. */
export async function runForecastRefreshJob(
  db: Db,
  boss: PgBoss,
  job: Job<ForecastRefreshJob>,
  limit: number,
  now: number,
): Promise<RefreshedBatch> {
  const batch = await refreshForecastBatch(db, now, limit, job.data.after);
  // Sent while this job still runs, into the policy's one waiting place; if a new pass's request
  // holds it, that pass starts over from the first shoot and this one ends here.
  if (batch.next) await boss.send(QUEUES.forecastRefresh, { after: batch.next } satisfies ForecastRefreshJob);
  return batch;
}

export interface RunningRefresh {
  stop(): void;
}

/**
 * Works the refresh queue in this process and asks for a pass now and every
 * `forecastRefreshEveryMs`. Every process that runs background work calls it, on either garden.
 */
export async function startForecastRefresh(db: Db, boss: PgBoss, config: JobsConfig): Promise<RunningRefresh> {
  await boss.work<ForecastRefreshJob>(
    QUEUES.forecastRefresh,
    { batchSize: 1, pollingIntervalSeconds: config.pollSeconds },
    async ([job]) => {
      await runForecastRefreshJob(db, boss, job, config.forecastRefreshBatch, Date.now());
    },
  );
  const request = () =>
    requestForecastRefresh(boss).catch((error: unknown) =>
      logger().error(
        `Asking for the forecast's refresh failed: ${redactSecrets(error instanceof Error ? error.message : String(error))}`,
      ),
    );
  await request();
  const timer = setInterval(request, config.forecastRefreshEveryMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

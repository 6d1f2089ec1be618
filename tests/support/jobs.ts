// Helpers for tests of the background work: a worker in this process, due-soon windows, waiting.
import { randomUUID } from "node:crypto";
import type { Db } from "../../lib/db/client.ts";
import { crc32 } from "../../lib/engine/crc32.ts";
import type { JobsConfig } from "../../lib/jobs/config.ts";
import { type PgBoss, type QueueName, startQueue } from "../../lib/jobs/queue.ts";
import { startWorker } from "../../lib/jobs/worker.ts";

export const FAST: JobsConfig = {
  reconcileStepMs: 200,
  faultRate: 0,
  faultSeed: 1,
  reconcileRetryMs: 500,
  retryDurationMs: 12 * 60 * 60_000,
  shootRetryPeriodMs: 1_000,
  shootRetryJitterMs: 0,
  conditionThresholdMs: 1_500,
  jobExpireSeconds: 3,
  pollSeconds: 0.5,
  gardenlet: false,
  migrationStepMs: 100,
  migrationFaultRate: 0,
  migrationRetryMs: 60_000,
  migrationBackoffMs: 200,
  cleanupSecondMs: 1,
  // Rolls run at once (a held one is looked at again every 100 ms until it times out).
  nodeRollStepMs: 0,
  nodeRollHoldTimeoutMs: 1_000,
  forecastRefreshEveryMs: 60_000,
  forecastRefreshBatch: 100,
};

export async function startTestWorker(url: string, db: Db, config: Partial<JobsConfig> = {}): Promise<PgBoss> {
  const full = { ...FAST, ...config };
  const boss = await startQueue(url, { expireSeconds: full.jobExpireSeconds, supervise: true });
  await startWorker(db, boss, full);
  return boss;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A 30-minute window beginning at `at` (UTC, to the second), in Gardener's format. */
export function windowAt(at: number): { begin: string; end: string } {
  const b = new Date(at);
  const e = new Date(at + 30 * 60_000);
  const fmt = (d: Date) => `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}+0000`;
  return { begin: fmt(b), end: fmt(e) };
}

/**
 * A uid whose maintenance moment is the very beginning of a 30-minute window (Gardener spreads
 * shoots over the window's minutes by crc32(uid); this one draws minute 0).
 */
export function uidAtWindowStart(): string {
  for (;;) {
    const uid = randomUUID();
    if (crc32(uid) % 15 === 0) return uid;
  }
}

export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The jobs of `queue` whose data contains `data` that have not finished: waiting (also for a
 * later start), to be retried, or running. Only jobs change a shoot in the background, so once
 * there are none for it, whatever has not happened to it will not happen by itself.
 */
export async function unfinishedJobs(boss: PgBoss, queue: QueueName, data: object = {}) {
  const jobs = await boss.findJobs<Record<string, unknown>>(queue, { data });
  return jobs.filter((j) => j.state === "created" || j.state === "retry" || j.state === "active");
}

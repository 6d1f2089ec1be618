// The job queue: pg-boss in the same PostgreSQL (schema "pgboss"). Jobs are sent inside the
// transaction of the change that causes them (fromPrisma), so a change and its follow-up work
// commit together or not at all.
import { fromPrisma, PgBoss } from "pg-boss";
import type { Tx } from "../db/client.ts";
import { redactSecrets } from "../engine/redact-secrets.ts";
import { logger } from "../observability/logger.ts";

export const QUEUES = {
  /** A shoot's scheduled maintenance at its moment in the window: {namespace, name, dueAt}. */
  maintenance: "maintenance",
  /** "Maintain now": {namespace, name}. */
  maintainNow: "maintain-now",
  /** One step of the simulated gardenlet's reconcile: {namespace, name, generation, attempt, step}. */
  reconcile: "reconcile",
  /** A control-plane migration's next transition: {migrationId, phase, step, attempt}. */
  migration: "migration",
  /** A deletion's next cleanup step: {deletionId, phase, step}. */
  deletion: "deletion",
  /** A batch of the forecast facts' refresh: {after?: {namespace, name}}. */
  forecastRefresh: "forecast-refresh",
  /** A bulk action's next shoots (lib/server/bulk-action-job.ts): {bulkActionId}. */
  bulkAction: "bulk-action",
  /** An update run's next step (lib/server/update-run-job.ts): {runId}. */
  updateRun: "update-run",
  /** A shoot's hibernation schedules' next moment (simulated garden): {namespace, name, dueAt}. */
  hibernation: "hibernation",
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

// The forecast refresh is one pass over the fleet at a time: "stately" holds at most one job
// waiting and one running, so every process may ask for a pass (a second request while one waits
// is dropped) and no two workers ever compute a batch at once. The others keep pg-boss's default.
// stately: one job waiting and one running per singletonKey (the forecast pass; each bulk action,
// whose chain and the resume sweep then never run it twice at once).
const POLICIES: Partial<Record<QueueName, "stately">> = {
  [QUEUES.forecastRefresh]: "stately",
  [QUEUES.bulkAction]: "stately",
  [QUEUES.updateRun]: "stately",
};

export interface QueueOptions {
  readonly expireSeconds: number;
  /** Whether this process maintains the queue (expiry, retries): the worker does. */
  readonly supervise: boolean;
  /**
   * How long a connection or a query of the queue's own pool may take, in ms. The web processes
   * set it (client.ts' limit), so a request that starts the queue while the database does not
   * answer fails in seconds (503) instead of waiting for TCP.
   */
  readonly timeoutMs?: number;
}

export async function startQueue(url: string, options: QueueOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    schema: "pgboss",
    max: 4,
    supervise: options.supervise,
    // Expired jobs (their worker died) are noticed on these passes: keep them short against the expiry.
    ...(options.supervise
      ? {
          superviseIntervalSeconds: Math.max(1, Math.min(10, options.expireSeconds)),
          monitorIntervalSeconds: Math.max(1, Math.min(10, options.expireSeconds)),
        }
      : {}),
    schedule: false,
    migrate: true,
    // Passed on to node-postgres' pool, like the options pg-boss names.
    ...(options.timeoutMs ? { connectionTimeoutMillis: options.timeoutMs, query_timeout: options.timeoutMs } : {}),
  });
  boss.on("error", (error) => logger().error(`Job queue: ${redactSecrets(error.message)}`));
  try {
    await boss.start();
  } catch (error) {
    // Its pool would stay open (and reconnect) behind a queue nobody holds.
    await boss.stop({ graceful: false }).catch(() => {});
    throw error;
  }
  const settings = {
    expireInSeconds: options.expireSeconds,
    retryLimit: 20,
    retryDelay: 1,
    retryBackoff: true,
    retryDelayMax: 60,
  };
  for (const name of Object.values(QUEUES)) {
    // Settings changed since the queue was made (ALMANAC_JOB_EXPIRE_SECONDS) apply too.
    if (await boss.getQueue(name)) {
      await boss.updateQueue(name, settings);
      continue;
    }
    try {
      await boss.createQueue(name, { ...settings, ...(POLICIES[name] ? { policy: POLICIES[name] } : {}) });
    } catch (error) {
      // Another process created it at the same moment.
      if (!(await boss.getQueue(name))) throw error;
    }
  }
  return boss;
}

/** Sends a job in the transaction `tx` (it exists only if the transaction commits). */
export async function sendInTx(
  boss: PgBoss,
  tx: Tx,
  name: QueueName,
  data: object,
  options: { startAfter?: Date; singletonKey?: string } = {},
): Promise<string | null> {
  return boss.send(name, data, { ...options, db: fromPrisma(tx) });
}

/**
 * Completes the jobs in `tx`, as the very attempts this worker holds. If any was already taken
 * from us (it expired, a slow run) the transaction must not commit: another attempt does the
 * work, so this one throws and its writes roll back.
 */
export async function completeInTx(
  boss: PgBoss,
  tx: Tx,
  queue: QueueName,
  jobs: readonly { id: string; retryCount: number }[],
): Promise<void> {
  if (jobs.length === 0) return;
  const response = (await boss.complete(
    queue,
    jobs.map((j) => ({ id: j.id, retryCount: j.retryCount })),
    null,
    { db: fromPrisma(tx) },
  )) as { affected?: number };
  if (response.affected !== jobs.length) {
    throw new Error(
      `${jobs.length - (response.affected ?? 0)} of ${jobs.length} ${queue} jobs were no longer ours; their work is left to the attempt that holds them`,
    );
  }
}

export type { PgBoss };

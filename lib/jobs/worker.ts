// The background worker: scheduled maintenance, maintain-now, and the simulated gardenlet, each
// a pg-boss queue. Runs in `npm start`'s main process and in `npm run worker`; any number of
// processes may run it (pg-boss hands each job to one of them).
import type { Job } from "pg-boss";
import type { Db } from "../db/client.ts";
import { redactSecrets } from "../engine/redact-secrets.ts";
import { MINUTE_MS } from "../engine/time-units.ts";
import { logger } from "../observability/logger.ts";
import type { JobsConfig } from "./config.ts";
import { type PgBoss, QUEUES, type QueueName } from "./queue.ts";
import { reconcileStep } from "./reconcile-shoot.ts";
import { type MigrationJob, runMigrationJob } from "./run-migration.ts";
import { type DeletionJob, runDeletionJob } from "./run-deletion.ts";
import { type MaintenanceJobData, runMaintenance } from "./run-maintenance.ts";
import { requeueOverdue } from "./schedule-maintenance.ts";
import { runHibernation } from "./run-hibernation.ts";
import { type HibernationJob, requeueOverdueHibernation } from "./schedule-hibernation.ts";
import type { ReconcileJob } from "./start-reconcile.ts";

// Errors of the connection may quote its URL.
const message = (error: unknown) => redactSecrets(error instanceof Error ? error.message : String(error));

/**
 * Runs a batch; if it fails, each job on its own, so one bad shoot cannot hold up the others.
 * A job that fails alone is failed back to the queue (and retried) explicitly, because pg-boss
 * completes whatever a handler returns from.
 */
async function isolated<T extends object>(
  boss: PgBoss,
  queue: QueueName,
  what: string,
  jobs: Job<T>[],
  run: (jobs: Job<T>[]) => Promise<unknown>,
) {
  try {
    await run(jobs);
    return;
  } catch (error) {
    if (jobs.length === 1) {
      logger().error(`${what} failed (it will be retried): ${message(error)}`);
      throw error;
    }
  }
  for (const job of jobs) {
    try {
      await run([job]);
    } catch (error) {
      logger().error(`${what} of ${JSON.stringify(job.data)} failed (it will be retried): ${message(error)}`);
      await boss.fail(queue, { id: job.id, retryCount: job.retryCount }, { message: message(error) }).catch(() => {});
    }
  }
}

/**
 * A batch handler that runs each job in its own transaction; a job that fails is failed back to
 * the queue (and retried) on its own, the others complete.
 */
function oneByOne<T extends object>(boss: PgBoss, queue: QueueName, what: string, run: (job: Job<T>) => Promise<void>) {
  return async (jobs: Job<T>[]) => {
    for (const job of jobs) {
      try {
        await run(job);
      } catch (error) {
        logger().error(`${what} (${JSON.stringify(job.data)}) failed; it will be retried: ${message(error)}`);
        await boss.fail(queue, { id: job.id, retryCount: job.retryCount }, { message: message(error) }).catch(() => {});
      }
    }
  };
}

export interface RunningWorker {
  stop(): void;
}

export async function startWorker(db: Db, boss: PgBoss, config: JobsConfig): Promise<RunningWorker> {
  // Two batches at a time: one is computed while the other waits on the database.
  await boss.work<MaintenanceJobData>(
    QUEUES.maintenance,
    { batchSize: 1000, localConcurrency: 2, pollingIntervalSeconds: config.pollSeconds },
    (jobs) =>
      isolated(boss, QUEUES.maintenance, "Scheduled maintenance", jobs, (some) =>
        runMaintenance(db, boss, QUEUES.maintenance, some, "window", Date.now()),
      ),
  );
  await boss.work<MaintenanceJobData>(QUEUES.maintainNow, { batchSize: 50, pollingIntervalSeconds: 0.5 }, (jobs) =>
    isolated(boss, QUEUES.maintainNow, "Maintain now", jobs, (some) =>
      runMaintenance(db, boss, QUEUES.maintainNow, some, "maintain-now", Date.now()),
    ),
  );
  if (config.gardenlet) {
    // Each step is its own transaction; one that fails goes back to the queue on its own.
    await boss.work<ReconcileJob>(
      QUEUES.reconcile,
      { batchSize: 50, pollingIntervalSeconds: 0.5 },
      oneByOne(boss, QUEUES.reconcile, "A reconcile step", (job) => reconcileStep(db, boss, job, config, Date.now())),
    );
  }
  // Hibernation schedules' moments (Gardener's shoot hibernation controller).
  await boss.work<HibernationJob>(
    QUEUES.hibernation,
    { batchSize: 100, pollingIntervalSeconds: config.pollSeconds },
    (jobs) =>
      isolated(boss, QUEUES.hibernation, "Scheduled hibernation", jobs, (some) =>
        runHibernation(db, boss, some, Date.now()),
      ),
  );
  await boss.work<MigrationJob>(
    QUEUES.migration,
    { batchSize: 20, pollingIntervalSeconds: 0.5 },
    oneByOne(boss, QUEUES.migration, "A migration step", (job) => runMigrationJob(db, boss, job, config, Date.now())),
  );
  await boss.work<DeletionJob>(
    QUEUES.deletion,
    { batchSize: 20, pollingIntervalSeconds: 0.5 },
    oneByOne(boss, QUEUES.deletion, "A deletion step", (job) => runDeletionJob(db, boss, job, config, Date.now())),
  );
  // Schedules whose job was lost (failed for good, or deleted) are sent again; the due-time check
  // makes a duplicate harmless.
  const sweep = setInterval(() => {
    requeueOverdue(db, boss, Date.now(), config.jobExpireSeconds * 1000 * 5).catch((error) =>
      logger().error(`Re-queueing overdue maintenance failed: ${message(error)}`),
    );
    requeueOverdueHibernation(db, boss, Date.now(), config.jobExpireSeconds * 1000 * 5).catch((error) =>
      logger().error(`Re-queueing overdue hibernation moments failed: ${message(error)}`),
    );
  }, MINUTE_MS);
  sweep.unref();
  return { stop: () => clearInterval(sweep) };
}

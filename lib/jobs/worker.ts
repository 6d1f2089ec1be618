// The background worker: scheduled maintenance, maintain-now, and the simulated gardenlet, each
// a pg-boss queue. Runs in `npm start`'s main process and in `npm run worker`; any number of
// processes may run it (pg-boss hands each job to one of them).
import type { Db } from "../db/client.ts";
import type { JobsConfig } from "./config.ts";
import { type PgBoss, QUEUES } from "./queue.ts";
import { type MaintenanceJobData, runMaintenance } from "./run-maintenance.ts";
import { reconcileStep } from "./reconcile-shoot.ts";
import type { ReconcileJob } from "./start-reconcile.ts";

function logFailure(what: string) {
  return (error: unknown) => {
    console.error(`${what} failed (it will be retried): ${(error as Error).message}`);
    throw error;
  };
}

export async function startWorker(db: Db, boss: PgBoss, config: JobsConfig): Promise<void> {
  // Two batches at a time: one is computed while the other waits on the database.
  await boss.work<MaintenanceJobData>(QUEUES.maintenance, { batchSize: 500, localConcurrency: 2, pollingIntervalSeconds: config.pollSeconds },
    (jobs) => runMaintenance(db, boss, QUEUES.maintenance, jobs, "window", Date.now()).catch(logFailure("Scheduled maintenance")));
  await boss.work<MaintenanceJobData>(QUEUES.maintainNow, { batchSize: 50, pollingIntervalSeconds: 0.5 },
    (jobs) => runMaintenance(db, boss, QUEUES.maintainNow, jobs, "maintain-now", Date.now()).catch(logFailure("Maintain now")));
  if (config.gardenlet) {
    await boss.work<ReconcileJob>(QUEUES.reconcile, { batchSize: 50, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      for (const job of jobs) await reconcileStep(db, boss, job, config, Date.now()).catch(logFailure("A reconcile step"));
    });
  }
}

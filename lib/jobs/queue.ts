// The job queue: pg-boss in the same PostgreSQL (schema "pgboss"). Jobs are sent inside the
// transaction of the change that causes them (fromPrisma), so a change and its follow-up work
// commit together or not at all.
import { fromPrisma, PgBoss } from "pg-boss";
import type { Tx } from "../db/client.ts";

export const QUEUES = {
  /** A shoot's scheduled maintenance at its moment in the window: {namespace, name, dueAt}. */
  maintenance: "maintenance",
  /** "Maintain now": {namespace, name}. */
  maintainNow: "maintain-now",
  /** One step of the simulated gardenlet's reconcile: {namespace, name, generation, attempt, step}. */
  reconcile: "reconcile",
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface QueueOptions {
  readonly expireSeconds: number;
  /** Whether this process maintains the queue (expiry, retries): the worker does. */
  readonly supervise: boolean;
}

export async function startQueue(url: string, options: QueueOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    schema: "pgboss",
    max: 4,
    supervise: options.supervise,
    // Expired jobs (their worker died) are noticed on these passes: keep them short against the expiry.
    ...(options.supervise ? { superviseIntervalSeconds: Math.max(1, Math.min(10, options.expireSeconds)), monitorIntervalSeconds: Math.max(1, Math.min(10, options.expireSeconds)) } : {}),
    schedule: false,
    migrate: true,
  });
  boss.on("error", (error) => console.error(`Job queue: ${error.message}`));
  await boss.start();
  for (const name of Object.values(QUEUES)) {
    if (await boss.getQueue(name)) continue;
    try {
      await boss.createQueue(name, {
        expireInSeconds: options.expireSeconds,
        retryLimit: 20,
        retryDelay: 1,
        retryBackoff: true,
        retryDelayMax: 60,
      });
    } catch (error) {
      // Another process created it at the same moment.
      if (!(await boss.getQueue(name))) throw error;
    }
  }
  return boss;
}

/** Sends a job in the transaction `tx` (it exists only if the transaction commits). */
export async function sendInTx(boss: PgBoss, tx: Tx, name: QueueName, data: object, options: { startAfter?: Date; singletonKey?: string } = {}): Promise<string | null> {
  return boss.send(name, data, { ...options, db: fromPrisma(tx) });
}

export type { PgBoss };

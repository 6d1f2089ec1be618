// Asks the simulated gardenlet to reconcile a shoot, in the caller's transaction.
import { randomUUID } from "node:crypto";
import type { Tx } from "../db/client.ts";
import type { RunningVersions } from "../engine/running-versions.ts";
import { fromPrisma } from "pg-boss";
import { type PgBoss, QUEUES, sendInTx } from "./queue.ts";

export interface ReconcileJob {
  readonly namespace: string;
  readonly name: string;
  /** Identifies this reconcile; a newer one for the same shoot supersedes it. */
  readonly reconcileId: string;
  readonly generation: number;
  /**
   * 0 starts the operation; 1 ... are its steps; "care" looks at failing conditions; "retry" is the
   * controller-manager's retry controller looking at a shoot that failed because of rate limits.
   */
  readonly step: number | "care" | "retry";
  readonly attempt: number;
  /** For the gardenlet's own retry: the reconcile it retries (skipped if another started since). */
  readonly retryOf?: string;
  /** Step 3 while the worker nodes roll: the tick of the roll this job runs (0 starts it). */
  readonly rollTick?: number;
  /** The versions of the spec this reconcile started with (set at step 0): what it rolls out. */
  readonly rollsOut?: Omit<RunningVersions, "since">;
}

export async function startReconcileInTx(
  tx: Tx,
  boss: PgBoss,
  shoot: { namespace: string; name: string; generation: number },
  options: { startAfter?: Date; retryOf?: string } = {},
): Promise<void> {
  const job: ReconcileJob = {
    ...shoot,
    reconcileId: randomUUID(),
    step: 0,
    attempt: 1,
    ...(options.retryOf ? { retryOf: options.retryOf } : {}),
  };
  await sendInTx(boss, tx, QUEUES.reconcile, job, options.startAfter ? { startAfter: options.startAfter } : {});
}

/** Starts reconciles of many shoots (a maintenance batch) with one insert. */
export async function startReconcilesInTx(
  tx: Tx,
  boss: PgBoss,
  shoots: readonly { namespace: string; name: string; generation: number }[],
): Promise<void> {
  if (shoots.length === 0) return;
  const jobs = shoots.map((s) => ({
    data: { ...s, reconcileId: randomUUID(), step: 0, attempt: 1 } satisfies ReconcileJob,
  }));
  await boss.insert(QUEUES.reconcile, jobs, { db: fromPrisma(tx) });
}

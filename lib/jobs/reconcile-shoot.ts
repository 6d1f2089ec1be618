// The simulated gardenlet's worker: one reconcile step per job, each written with its change
// notification and the next step's job in one transaction. A reconcile whose id is no longer the
// shoot's (a newer one started) stops. Retryable faults are retried after a pause; others leave
// the shoot Failed until a user asks for a retry.
import type { Job } from "pg-boss";
import { fromPrisma } from "pg-boss";
import { notifyChange } from "../db/change-feed.ts";
import type { Db } from "../db/client.ts";
import { ANNOTATION_RECONCILE_ID, advanceReconcile, applyConditionThresholds, beginReconcile, drawFault, nextReconcileAttempt, RECONCILE_STEPS } from "../engine/reconcile-simulation.ts";
import { cachedCloudProfiles } from "../garden/embedded/cloud-profiles.ts";
import { shootColumns } from "../garden/embedded/shoot-columns.ts";
import { lockShoots, updateShoot } from "../garden/embedded/shoots.ts";
import { cloudProfileNameOf, type Shoot } from "../gardener/types.ts";
import type { JobsConfig } from "./config.ts";
import { type PgBoss, QUEUES, sendInTx } from "./queue.ts";
import { type ReconcileJob, startReconcileInTx } from "./start-reconcile.ts";

export async function reconcileStep(db: Db, boss: PgBoss, job: Job<ReconcileJob>, config: JobsConfig, now: number): Promise<void> {
  const data = job.data;
  const profiles = await cachedCloudProfiles(db, now);
  await db.$transaction(async (tx) => {
    const stored = (await lockShoots(tx, [data])).get(`${data.namespace}/${data.name}`);
    const complete = () => boss.complete(QUEUES.reconcile, { id: job.id, retryCount: job.retryCount }, null, { db: fromPrisma(tx) });
    if (!stored || stored.shoot.metadata.deletionTimestamp) return complete();
    const current = stored.shoot;
    const currentId = current.metadata.annotations?.[ANNOTATION_RECONCILE_ID];
    if (data.step !== 0 && currentId !== data.reconcileId) return complete(); // superseded

    // The attempt is counted on the shoot, so a user's retry draws afresh, repeatably.
    const attempt = data.step === 0 ? nextReconcileAttempt(current) : data.attempt;
    const generation = current.metadata.generation ?? 0;
    const fault = drawFault(config.faultSeed, current.metadata.uid ?? "", generation, attempt, config.faultRate);
    let next: Shoot;
    let follow: { step: number | "care"; after: number } | undefined;
    let retry = false;
    if (data.step === "care") {
      next = applyConditionThresholds(current, now, config.conditionThresholdMs);
    } else if (data.step === 0) {
      next = beginReconcile(current, data.reconcileId, now, attempt);
      follow = { step: 1, after: config.reconcileStepMs };
    } else {
      next = advanceReconcile(current, data.step, now, fault);
      const state = next.status?.lastOperation?.state;
      if (state === "Processing") follow = { step: data.step + 1, after: config.reconcileStepMs };
      else if (state === "Error" || state === "Failed") {
        follow = { step: "care", after: config.conditionThresholdMs };
        retry = state === "Error";
      }
    }
    if (next !== current) {
      const profile = profiles.get(cloudProfileNameOf(next) ?? "");
      await updateShoot(tx, next, shootColumns(next, profile, now, stored.resourceVersion + 1), stored.resourceVersion);
      await notifyChange(tx, { kind: "Shoot", namespace: data.namespace, name: data.name });
    }
    if (follow) {
      await sendInTx(boss, tx, QUEUES.reconcile, { ...data, generation, attempt, step: follow.step } satisfies ReconcileJob, { startAfter: new Date(now + follow.after) });
    }
    if (retry) {
      // The gardenlet retries errors it considers temporary, after a pause.
      await startReconcileInTx(tx, boss, { namespace: data.namespace, name: data.name, generation }, attempt + 1, new Date(now + config.reconcileRetryMs));
    }
    await complete();
  }, { timeout: 30_000, maxWait: 30_000 });
}

export const RECONCILE_STEP_COUNT = RECONCILE_STEPS.length;

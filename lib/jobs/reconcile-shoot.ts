// The simulated gardenlet's worker: one reconcile step per job, each written with its change
// notification and the next step's job in one transaction. A reconcile whose id is no longer the
// shoot's (a newer one started) stops. An Error is retried after a pause; a Failed shoot is left
// alone (Gardener's IsShootFailedAndUpToDate) until its generation moves: a user's retry, or the
// controller-manager's retry controller for rate limits (the "retry" step here, shoot-retry.ts).
import type { Job } from "pg-boss";
import { notifyChange } from "../db/change-feed.ts";
import type { Db, Tx } from "../db/client.ts";
import {
  ANNOTATION_RECONCILE_ID,
  advanceReconcile,
  applyConditionThresholds,
  applyNodeCheck,
  beginReconcile,
  drawFault,
  nextReconcileAttempt,
  NODE_ROLL_STEP,
} from "../engine/reconcile-simulation.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import { shootColumns } from "../store/shoot-columns.ts";
import { checkShootConstraints } from "../engine/shoot-constraints.ts";
import { caCertificatesOf } from "../engine/shoot-inventory.ts";
import { findInventory } from "../store/inventories.ts";
import { lockShoots, type StoredShoot, updateShoot } from "../store/shoots.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { crc32 } from "../engine/crc32.ts";
import { ANNOTATION_OPERATION } from "../engine/operation-annotations.ts";
import { isShootFailedAndUpToDate } from "../engine/shoot-operation.ts";
import { retryFailedShoot, retryPredicateOnUpdate } from "../engine/shoot-retry.ts";
import { hibernationIsEnabled, prepareShootForUpdate } from "../engine/shoot-strategy.ts";
import type { Shoot } from "../gardener/types.ts";
import { profileKeyOf } from "../gardener/profile-reference.ts";
import { blockingOperation } from "../engine/migration-admission.ts";
import { type RunningVersions, specVersions } from "../engine/running-versions.ts";
import type { JobsConfig } from "./config.ts";
import { nodeCheck, rollWorkerNodes } from "./roll-worker-nodes.ts";
import { completeInTx, type PgBoss, QUEUES, sendInTx } from "./queue.ts";
import { type ReconcileJob, startReconcileInTx } from "./start-reconcile.ts";

export async function reconcileStep(
  db: Db,
  boss: PgBoss,
  job: Job<ReconcileJob>,
  config: JobsConfig,
  now: number,
): Promise<void> {
  const data = job.data;
  const profiles = await cachedCloudProfiles(db, now);
  await db.$transaction(
    async (tx) => {
      // Our claim on the job first: an attempt that lost it writes nothing (no step runs twice).
      await completeInTx(boss, tx, QUEUES.reconcile, [job]);
      const stored = (await lockShoots(tx, [data])).get(`${data.namespace}/${data.name}`);
      if (!stored || stored.shoot.metadata.deletionTimestamp) return;
      const current = stored.shoot;
      const currentId = current.metadata.annotations?.[ANNOTATION_RECONCILE_ID];
      if (data.step !== 0 && currentId !== data.reconcileId) return; // superseded by a newer reconcile
      // The migration owns the shoot now (one may start while this reconcile rolls nodes: the binding
      // removes the reconcile id, and admission does not wait for a reconcile to end). A roll left
      // mid-way is finished by the migration's success (run-migration.ts, finishInterruptedRoll).
      if (blockingOperation(current)?.code === "Migrating") return;
      if (data.step === "retry") {
        await retryController(tx, boss, data, stored, config, now, profiles);
        return;
      }
      // The gardenlet leaves a shoot alone that Failed at its current generation.
      if (data.step === 0 && isShootFailedAndUpToDate(current)) return;
      // The gardenlet's own retry, unless a newer reconcile has started since.
      if (data.step === 0 && data.retryOf !== undefined && currentId !== data.retryOf) return;

      // The attempt is counted on the shoot, so a user's retry draws afresh, repeatably.
      const attempt = data.step === 0 ? nextReconcileAttempt(current) : data.attempt;
      // The generation this reconcile rolls out is the one it started with: a change made meanwhile
      // (held for the window, say) is not counted as observed.
      const generation = data.step === 0 ? (current.metadata.generation ?? 0) : data.generation;
      // Likewise its versions: a success records them even if a held change has moved the spec since.
      const rollsOut = data.step === 0 ? withoutSince(specVersions(current, "")) : data.rollsOut;
      const fault = drawFault(config.faultSeed, current.metadata.uid ?? "", generation, attempt, config.faultRate);
      let next: Shoot;
      let follow: { step: number | "care"; after: number; rollTick?: number } | undefined;
      let retry = false;
      if (data.step === "care") {
        next = applyConditionThresholds(current, now, config.conditionThresholdMs);
        // A check that has not crossed the threshold yet is looked at again.
        const waiting = next.status?.conditions?.some(
          (c) => c.status === "Progressing" && c.reason === "HealthCheckFailing",
        );
        if (waiting) follow = { step: "care", after: Math.max(100, config.conditionThresholdMs / 4) };
      } else if (data.step === 0) {
        next = beginReconcile(current, data.reconcileId, now, attempt);
        follow = { step: 1, after: config.reconcileStepMs };
      } else {
        // While the worker nodes roll, step 3 runs again tick by tick (roll-worker-nodes.ts).
        const rolling = data.step === NODE_ROLL_STEP && data.rollTick !== undefined;
        next = rolling ? current : advanceReconcile(current, data.step, now, fault, generation, config.retryDurationMs);
        let state = next.status?.lastOperation?.state;
        let nextTick: number | undefined;
        if (state === "Processing" && data.step === NODE_ROLL_STEP) {
          const tick = data.rollTick ?? 0;
          const outcome = await rollWorkerNodes(tx, data, next, stored.running, tick, config, now, rollsOut);
          next = outcome.shoot;
          state = next.status?.lastOperation?.state;
          if (outcome.kind === "rolling") nextTick = tick + 1;
        }
        if (nextTick !== undefined)
          follow = { step: NODE_ROLL_STEP, rollTick: nextTick, after: config.nodeRollStepMs || 100 };
        else if (state === "Processing") follow = { step: data.step + 1, after: config.reconcileStepMs };
        else if (state === "Error" || state === "Failed") {
          follow = { step: "care", after: config.conditionThresholdMs };
          retry = state === "Error";
        }
      }
      if (next.status?.lastOperation?.state === "Succeeded" && next !== current && !hibernationIsEnabled(next)) {
        // The care controller's look at the nodes the reconcile rolled (a hibernated shoot has none to check).
        next = applyNodeCheck(next, await nodeCheck(tx, data, next, stored.running), now);
      }
      if (next.status?.lastOperation?.state === "Succeeded" && next !== current) {
        // The care controller looks at the shoot again right after a successful reconcile (its
        // predicate): a hibernated one is not checked, an awake one by its webhooks and CAs.
        const inventory = await findInventory(tx, data.namespace, data.name);
        if (inventory) {
          const constraints = checkShootConstraints(
            next,
            {
              // The reconcile that just succeeded has deployed the API server.
              apiServerRunning: true,
              webhookConfigurations: inventory.webhookConfigurations,
              caCertificates: caCertificatesOf(inventory),
            },
            now,
          );
          next = { ...next, status: { ...next.status, constraints } };
        }
      }
      if (next !== current) {
        const profile = profiles.get(profileKeyOf(next));
        await updateShoot(
          tx,
          next,
          shootColumns(next, profile, now, stored.resourceVersion + 1, stored.running, rollsOut),
          stored.resourceVersion,
        );
        await notifyChange(tx, { kind: "Shoot", namespace: data.namespace, name: data.name });
      }
      if (follow) {
        await sendInTx(
          boss,
          tx,
          QUEUES.reconcile,
          {
            ...data,
            generation,
            attempt,
            rollsOut,
            step: follow.step,
            rollTick: follow.rollTick,
          } satisfies ReconcileJob,
          { startAfter: new Date(now + follow.after) },
        );
      }
      if (next.status?.lastOperation?.state === "Failed" && retryPredicateOnUpdate(current, next)) {
        // The controller-manager's retry controller notices a shoot failed because of rate limits
        // and looks again once the retry period has passed (plus its jitter).
        const failedAt = Date.parse(next.status.lastOperation.lastUpdateTime ?? "") || now;
        await sendInTx(
          boss,
          tx,
          QUEUES.reconcile,
          { ...data, generation, attempt, step: "retry" } satisfies ReconcileJob,
          {
            startAfter: new Date(failedAt + config.shootRetryPeriodMs + jitter(config, current, generation) + 1),
          },
        );
      }
      if (retry) {
        // The gardenlet retries errors it considers temporary, after a pause.
        await startReconcileInTx(
          tx,
          boss,
          { namespace: data.namespace, name: data.name, generation },
          { startAfter: new Date(now + config.reconcileRetryMs), retryOf: data.reconcileId },
        );
      }
    },
    { timeout: 20_000, maxWait: 10_000 },
  );
}

function withoutSince({ since: _since, ...versions }: RunningVersions): Omit<RunningVersions, "since"> {
  return versions;
}

/** The retry controller's random delay, drawn from the fault seed so that runs repeat. */
function jitter(config: JobsConfig, shoot: Shoot, generation: number): number {
  const draw = crc32(`${config.faultSeed}|${shoot.metadata.uid ?? ""}|${generation}|retry`);
  return Math.floor(((draw % 10_000) / 10_000) * config.shootRetryJitterMs);
}

/**
 * The controller-manager's retry controller on one shoot: once the retry period has passed since a
 * rate-limited shoot failed, gardener.cloud/operation=retry, which gardener-apiserver's strategy
 * consumes by raising the generation; the gardenlet then reconciles again.
 */
async function retryController(
  tx: Tx,
  boss: PgBoss,
  data: ReconcileJob,
  stored: StoredShoot,
  config: JobsConfig,
  now: number,
  profiles: Awaited<ReturnType<typeof cachedCloudProfiles>>,
): Promise<void> {
  const { shoot: current, resourceVersion } = stored;
  const generation = current.metadata.generation ?? 0;
  const { shoot: annotated, requeueAfterMs } = retryFailedShoot(
    current,
    now,
    config.shootRetryPeriodMs,
    jitter(config, current, generation),
  );
  if (!annotated) {
    if (requeueAfterMs > 0)
      await sendInTx(boss, tx, QUEUES.reconcile, data, { startAfter: new Date(now + requeueAfterMs + 1) });
    return;
  }
  const next = prepareShootForUpdate(current, annotated);
  const profile = profiles.get(profileKeyOf(next));
  await updateShoot(tx, next, shootColumns(next, profile, now, resourceVersion + 1, stored.running), resourceVersion);
  await recordAuditEvent(tx, {
    actor: "system:gardener-controller-manager",
    action: "shoot.retry",
    target: { kind: "Shoot", namespace: data.namespace, name: data.name },
    changes: [
      { field: `metadata.annotations[${ANNOTATION_OPERATION}]`, before: null, after: "retry" },
      { field: "metadata.generation", before: generation, after: next.metadata.generation ?? 0 },
    ],
  });
  await notifyChange(tx, { kind: "Shoot", namespace: data.namespace, name: data.name });
  if ((next.metadata.generation ?? 0) !== generation)
    await startReconcileInTx(tx, boss, {
      namespace: data.namespace,
      name: data.name,
      generation: next.metadata.generation ?? 0,
    });
}

// Runs a shoot's deletion one transition per job, like a migration: "begin" starts a cleanup step,
// "finish" (after the step's grace period or forced finalization) records what was deleted and
// what was left; the last step removes the shoot. Each transition commits with its job.
import type { Job } from "pg-boss";
import { notifyChange } from "../db/change-feed.ts";
import type { Db, Tx } from "../db/client.ts";
import { deletionLastOperation, describeCleanupStep } from "../engine/deletion-cleanup.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import { shootColumns } from "../store/shoot-columns.ts";
import { lockDeletion, saveDeletion } from "../store/deletions.ts";
import { lockShoots, removeShoot, updateShoot } from "../store/shoots.ts";
import { cloudProfileNameOf } from "../gardener/types.ts";
import type { JobsConfig } from "./config.ts";
import { completeInTx, type PgBoss, QUEUES, sendInTx } from "./queue.ts";

export interface DeletionJob {
  readonly deletionId: string;
  readonly phase: "begin" | "finish";
  readonly step: number;
}

export async function queueDeletionStep(tx: Tx, boss: PgBoss, job: DeletionJob, startAfter?: Date): Promise<void> {
  await sendInTx(boss, tx, QUEUES.deletion, job, startAfter ? { startAfter } : {});
}

export async function runDeletionJob(
  db: Db,
  boss: PgBoss,
  job: Job<DeletionJob>,
  config: JobsConfig,
  now: number,
): Promise<void> {
  const profiles = await cachedCloudProfiles(db, now);
  await db.$transaction(
    async (tx) => {
      await completeInTx(boss, tx, QUEUES.deletion, [job]);
      const record = await lockDeletion(tx, job.data.deletionId);
      if (!record || record.flow.state !== "Processing" || record.flow.step !== job.data.step) return; // done, or a stale job
      let d = record.flow;
      const current = d.steps[d.step];
      if (job.data.phase === "begin") {
        if (current.startedAt !== undefined) return;
        d = { ...d, steps: d.steps.map((s, i) => (i === d.step ? { ...s, startedAt: now } : s)) };
        await queueDeletionStep(
          tx,
          boss,
          { deletionId: job.data.deletionId, phase: "finish", step: d.step },
          new Date(now + current.seconds * config.cleanupSecondMs),
        );
      } else {
        if (current.startedAt === undefined || current.endedAt !== undefined) return;
        const steps = d.steps.map((s, i) =>
          i === d.step ? { ...s, endedAt: now, message: describeCleanupStep(s) } : s,
        );
        const step = d.step + 1;
        d = { ...d, steps, step, ...(step >= steps.length ? { state: "Succeeded" as const, finishedAt: now } : {}) };
        if (d.state === "Processing")
          await queueDeletionStep(tx, boss, { deletionId: job.data.deletionId, phase: "begin", step });
      }
      await saveDeletion(tx, job.data.deletionId, d);
      const shoot = (await lockShoots(tx, [record])).get(`${record.namespace}/${record.name}`);
      if (!shoot) return;
      if (d.state === "Succeeded") {
        // Schedules, runs, migrations and the inventory go with it; the audit log and this record stay.
        await removeShoot(tx, record.namespace, record.name);
        await recordAuditEvent(tx, {
          actor: "system:gardenlet",
          action: "shoot.deleted",
          target: { kind: "Shoot", namespace: record.namespace, name: record.name },
          changes: [],
        });
      } else {
        const next = {
          ...shoot.shoot,
          status: { ...shoot.shoot.status, lastOperation: deletionLastOperation(d, now) },
        };
        await updateShoot(
          tx,
          next,
          shootColumns(next, profiles.get(cloudProfileNameOf(next) ?? ""), now, shoot.resourceVersion + 1),
          shoot.resourceVersion,
        );
      }
      await notifyChange(tx, { kind: "Shoot", namespace: record.namespace, name: record.name });
    },
    { timeout: 20_000, maxWait: 10_000 },
  );
}

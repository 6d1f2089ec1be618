// Runs a shoot's deletion one transition per job, like a migration: "begin" starts an attempt at a
// cleanup step (deleting its objects on the first), "finish" records what was deleted and what was
// left once they are gone, "fail" records an attempt the task's ten-minute timeout cut short
// (Error with ERR_CLEANUP_CLUSTER_RESOURCES, or Failed after the retry duration) and begins the
// next after the gardenlet's backoff. The last step removes the shoot. Each transition commits
// with its job. The rules are the engine's (deletion-cleanup.ts, shoot-operation.ts).
import type { Job } from "pg-boss";
import { notifyChange } from "../db/change-feed.ts";
import type { Db, Tx } from "../db/client.ts";
import {
  cleanupAttemptOutcome,
  type Deletion,
  deletionFlowError,
  deletionLastOperation,
  describeCleanupStep,
} from "../engine/deletion-cleanup.ts";
import {
  cleanShootTaskError,
  patchShootStatusOperationError,
  requeueAfterErrorMs,
  updateShootStatusOperationStart,
} from "../engine/shoot-operation.ts";
import { formatTime } from "../engine/time-format.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import { shootColumns } from "../store/shoot-columns.ts";
import { lockDeletion, saveDeletion } from "../store/deletions.ts";
import { lockShoots, removeShoot, updateShoot } from "../store/shoots.ts";
import type { Shoot } from "../gardener/types.ts";
import { profileKeyOf } from "../gardener/profile-reference.ts";
import type { JobsConfig } from "./config.ts";
import { completeInTx, type PgBoss, QUEUES, sendInTx } from "./queue.ts";

export interface DeletionJob {
  readonly deletionId: string;
  readonly phase: "begin" | "finish" | "fail";
  readonly step: number;
  /** For "finish" and "fail": which attempt at the step they end. */
  readonly attempt?: number;
}

export async function queueDeletionStep(tx: Tx, boss: PgBoss, job: DeletionJob, startAfter?: Date): Promise<void> {
  await sendInTx(boss, tx, QUEUES.deletion, job, startAfter ? { startAfter } : {});
}

/** The deletion after the job's transition, the shoot's new status, and what comes next. */
interface Transition {
  readonly deletion: Deletion;
  readonly shoot?: Shoot;
  readonly next?: { readonly job: DeletionJob; readonly afterMs: number };
}

function transition(
  d: Deletion,
  job: DeletionJob,
  shoot: Shoot | undefined,
  now: number,
  config: JobsConfig,
): Transition | undefined {
  const index = d.step;
  const current = d.steps[index];
  const attempts = current.attempts ?? [];
  const open = attempts.length > 0 && attempts.at(-1)!.endedAt === undefined ? attempts.length - 1 : -1;
  const withStep = (changes: Partial<Deletion["steps"][number]>) =>
    d.steps.map((s, i) => (i === index ? { ...s, ...changes } : s));
  const seconds = (ms: number) => ms / config.cleanupSecondMs;
  const withOperation = (s: Shoot, deletion: Deletion): Shoot => ({
    ...s,
    status: { ...s.status, lastOperation: deletionLastOperation(deletion, now) },
  });

  if (job.phase === "begin") {
    if (open >= 0) return undefined; // an attempt is under way already
    const startedAt = current.startedAt ?? now;
    const outcome = cleanupAttemptOutcome(current, seconds(now - startedAt));
    const deletion: Deletion = {
      ...d,
      state: "Processing",
      steps: withStep({ startedAt, attempts: [...attempts, { startedAt: now }] }),
    };
    // After an error the flow runs again: a new Delete operation starts, in the same retry cycle.
    const started = shoot && d.state === "Error" ? updateShootStatusOperationStart(shoot, "Delete", now) : shoot;
    return {
      deletion,
      ...(started ? { shoot: withOperation(started, deletion) } : {}),
      next: {
        job: { ...job, phase: outcome.failure ? "fail" : "finish", attempt: attempts.length },
        afterMs: outcome.afterSeconds * config.cleanupSecondMs,
      },
    };
  }

  if (open < 0 || job.attempt !== open) return undefined; // a stale job
  const closed = (error?: string) =>
    attempts.map((a, i) => (i === open ? { ...a, endedAt: now, ...(error !== undefined ? { error } : {}) } : a));

  if (job.phase === "finish") {
    const ended = { ...current, endedAt: now, attempts: closed() };
    const steps = d.steps.map((s, i) => (i === index ? { ...ended, message: describeCleanupStep(ended) } : s));
    const step = index + 1;
    const done = step >= steps.length;
    const deletion: Deletion = {
      ...d,
      steps,
      step,
      state: done ? "Succeeded" : "Processing",
      ...(done ? { finishedAt: now } : {}),
    };
    const cleaned = shoot && current.task ? cleanShootTaskError(shoot, current.task) : shoot;
    return {
      deletion,
      ...(cleaned ? { shoot: withOperation(cleaned, deletion) } : {}),
      ...(done ? {} : { next: { job: { deletionId: job.deletionId, phase: "begin" as const, step }, afterMs: 0 } }),
    };
  }

  // "fail": the task's timeout (or an unreadable annotation) ended the attempt.
  const { failure } = cleanupAttemptOutcome(current, seconds(attempts[open].startedAt - (current.startedAt ?? now)));
  if (!failure) return undefined;
  const failures = (d.failures ?? 0) + 1;
  const errored = shoot
    ? patchShootStatusOperationError(
        shoot,
        deletionFlowError(failure.taskError),
        "Delete",
        [
          {
            description: failure.taskError,
            taskID: current.task ?? current.name,
            codes: [...failure.codes],
            lastUpdateTime: formatTime(now),
          },
        ],
        now,
        config.retryDurationMs,
      )
    : undefined;
  const state = errored?.status?.lastOperation?.state === "Failed" ? "Failed" : "Error";
  return {
    deletion: { ...d, state, failures, steps: withStep({ attempts: closed(failure.taskError) }) },
    ...(errored ? { shoot: errored } : {}),
    // Failed: the gardenlet gives up until someone asks for a retry.
    ...(state === "Failed"
      ? {}
      : {
          next: {
            job: { deletionId: job.deletionId, phase: "begin" as const, step: index },
            afterMs: (requeueAfterErrorMs(failures) / 1000) * config.cleanupSecondMs,
          },
        }),
  };
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
      if (!record || record.flow.step !== job.data.step) return; // a stale job
      if (record.flow.state !== "Processing" && record.flow.state !== "Error") return; // done, or Failed
      const stored = (await lockShoots(tx, [record])).get(`${record.namespace}/${record.name}`);
      const step = transition(record.flow, job.data, stored?.shoot, now, config);
      if (!step) return;
      const next = step.shoot;
      const d = step.deletion;
      await saveDeletion(tx, job.data.deletionId, d);
      if (step.next) await queueDeletionStep(tx, boss, step.next.job, new Date(now + Math.max(0, step.next.afterMs)));
      if (!stored || !next) return;
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
        await updateShoot(
          tx,
          next,
          shootColumns(next, profiles.get(profileKeyOf(next)), now, stored.resourceVersion + 1, stored.running),
          stored.resourceVersion,
        );
      }
      await notifyChange(tx, { kind: "Shoot", namespace: record.namespace, name: record.name });
    },
    { timeout: 20_000, maxWait: 10_000 },
  );
}

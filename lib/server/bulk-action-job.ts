// A bulk action runs as a chain of pg-boss jobs ("bulk-action", {bulkActionId}): each takes the
// next few unsettled shoots in order and acts on each exactly once (act-once.ts), then, in one
// transaction, sends the next job and completes itself, or ends the action when every shoot is
// settled. A worker killed mid-job leaves its job to expire and be taken again; the shoots it
// settled stay settled, and the one it was acting on is found out, never acted on twice.
import type { Job } from "pg-boss";
import type { FieldChange } from "../api/audit.ts";
import type { GardenIdentity } from "../auth/garden-identity.ts";
import type { Db } from "../db/client.ts";
import type { ShootKey, ShootWrites } from "../garden/shoot-writes.ts";
import { completeInTx, type PgBoss, QUEUES, sendInTx } from "../jobs/queue.ts";
import { logger } from "../observability/logger.ts";
import {
  bulkActionState,
  finishBulkAction,
  findBulkAction,
  holdBulkItem,
  lockBulkItem,
  moveBulkItem,
  openItems,
  unfinishedBulkActions,
} from "../store/bulk-actions.ts";
import { actOnce, maintainNowOutcome, type OnceLedger, type OnceWrite } from "./act-once.ts";
import { describeChanges, previewShoot } from "./bulk-action-preview.ts";
import { type BulkChange, bulkChangeOf } from "./bulk-action-request.ts";
import { updateShootFromPatch } from "./update-shoot.ts";
import { makerBindings, makerRefusal } from "./update-run-maker.ts";
import { shootProjects } from "../store/update-runs.ts";

export interface BulkActionJob {
  readonly bulkActionId: string;
}

/** Shoots one job acts on at most (it also stops starting new ones when its time is up). */
const PER_JOB = 200;

/**
 * Retries of a job before a shoot whose write throws without reaching the garden fails (the
 * queue's backoff makes them some seconds apart: a passing fault is outlasted).
 */
const UNTRACED_ERROR_RETRIES = 3;

/** The ledger of one bulk action's shoot: its bulk_action_items row. */
export function bulkItemLedger(bulkActionId: string, position: number): OnceLedger {
  return {
    hold: (tx) => holdBulkItem(tx, bulkActionId, position),
    lock: (tx) => lockBulkItem(tx, bulkActionId, position),
    move: (tx, from, to, outcome) => moveBulkItem(tx, bulkActionId, position, from, to, outcome),
    cancelled: async (tx) => (await bulkActionState(tx, bulkActionId)) === "Cancelled",
  };
}

/** The change on one shoot, sent as the person who started the action, through the write port. */
export function bulkShootWrite(
  db: Db,
  garden: ShootWrites,
  key: ShootKey,
  change: BulkChange,
  by: { readonly actor: string; readonly identity: GardenIdentity },
  /** Whether its maker may still change this shoot (their roles now): the refusal's words if not. */
  refused: () => string | undefined = () => undefined,
): OnceWrite {
  return {
    key,
    refusedBeforehand: async () => refused(),
    async send(requestId, alongside) {
      const now = Date.now();
      const request = { ...key, actor: by.actor, identity: by.identity, requestId, now, alongside };
      if (change.kind === "maintain") {
        return maintainNowOutcome(garden, request);
      }
      // What it changes, as the preview computes it from the shoot as it is now.
      const planned = await previewShoot(db, key, change, now);
      if (planned.outcome === "unchanged") return { state: "Succeeded", message: planned.message, changes: [] };
      await updateShootFromPatch(garden, { ...request, body: change.patch, ifMatch: null });
      const changes: readonly FieldChange[] = planned.outcome === "act" ? planned.changes : [];
      return {
        state: "Succeeded",
        message: changes.length > 0 ? `Changed ${describeChanges(changes)}.` : "Nothing to change.",
        changes,
      };
    },
    alreadyApplied: async () => (await previewShoot(db, key, change, Date.now())).outcome === "unchanged",
  };
}

/**
 * `budgetMs`: how long a job starts new shoots, well inside a job's expiry (ALMANAC_JOB_EXPIRE_SECONDS),
 * so that a live job is not taken over; the next job goes on where it stopped.
 */
export async function runBulkActionJob(
  db: Db,
  boss: PgBoss,
  garden: ShootWrites,
  job: Job<BulkActionJob>,
  budgetMs = 10_000,
) {
  const { bulkActionId } = job.data;
  const until = Date.now() + budgetMs;
  const action = await findBulkAction(db, bulkActionId);
  let busy = false;
  // A cancelled action's shoots left Acting by a worker that died are still settled here.
  if (action) {
    const change = bulkChangeOf(action.action, action.params);
    const by = { actor: action.actor, identity: action.identity as GardenIdentity };
    const open = await openItems(db, bulkActionId, PER_JOB);
    // The maker's roles as they are now (removed since the action was made: those shoots are refused).
    const [bindings, projects] = await Promise.all([
      makerBindings(db, action.actor, by.identity, Date.now()),
      shootProjects(db, open),
    ]);
    for (const { position, namespace, name } of open) {
      if (Date.now() > until) break;
      const state = await actOnce(
        db,
        bulkItemLedger(bulkActionId, position),
        bulkShootWrite(db, garden, { namespace, name }, change, by, () =>
          makerRefusal(action.actor, bindings, projects.get(`${namespace}/${name}`), "action"),
        ),
        { failUntracedErrors: job.retryCount >= UNTRACED_ERROR_RETRIES },
      );
      busy ||= state === "busy";
    }
  }
  await db.$transaction(async (tx) => {
    const open = action ? await openItems(tx, bulkActionId, 1) : [];
    if (open.length > 0) {
      // The next shoots at once; a shoot another worker holds is looked at again a moment later.
      await sendInTx(
        boss,
        tx,
        QUEUES.bulkAction,
        { bulkActionId },
        { singletonKey: bulkActionId, ...(busy ? { startAfter: new Date(Date.now() + 500) } : {}) },
      );
    } else if (action) {
      const ended = await finishBulkAction(tx, bulkActionId);
      if (ended) logger().info(`Bulk action ${bulkActionId} (${action.action}) ended ${ended}.`);
    }
    await completeInTx(boss, tx, QUEUES.bulkAction, [job]);
  });
}

/** How often a worker looks for bulk actions whose chain of jobs ended before their shoots did. */
const RESUME_EVERY_MS = 5 * 60_000;

/**
 * Sends the next job of every running bulk action that still has shoots to act on. A chain ends
 * early only when a job ran out of retries (the database or the garden away for longer than
 * they last); the job queue holds at most one waiting job per action (singletonKey), so a chain
 * that is alive is not doubled. Answers how many actions it looked at.
 */
export async function resumeBulkActions(db: Db, boss: PgBoss): Promise<number> {
  const ids = await unfinishedBulkActions(db);
  for (const bulkActionId of ids)
    await boss.send(QUEUES.bulkAction, { bulkActionId } satisfies BulkActionJob, { singletonKey: bulkActionId });
  return ids.length;
}

/** Works the bulk-action queue in this process (on either garden: the port is the garden's). */
export async function startBulkActionWorker(
  db: Db,
  boss: PgBoss,
  garden: ShootWrites,
  options: { readonly pollSeconds?: number; readonly jobExpireSeconds?: number } = {},
) {
  const budgetMs = Math.min(10_000, ((options.jobExpireSeconds ?? 60) * 1000) / 3);
  await boss.work<BulkActionJob>(
    QUEUES.bulkAction,
    { batchSize: 1, pollingIntervalSeconds: options.pollSeconds ?? 0.5 },
    async ([job]) => {
      await runBulkActionJob(db, boss, garden, job, budgetMs);
    },
  );
  const resume = () =>
    void resumeBulkActions(db, boss).catch((error: unknown) =>
      logger().warn(
        `Almanac could not look for bulk actions to go on with (tried again later): ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  resume();
  setInterval(resume, RESUME_EVERY_MS).unref();
}

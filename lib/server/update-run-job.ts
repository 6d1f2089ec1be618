// An update run is worked by "update-run" jobs ({runId}), one at a time per run (stately, with the
// run's id as singletonKey). A job loads the run's snapshot, asks lib/engine/update-run-progress.ts
// what happens next, stores that (with the run's audit events) under the run's row lock, acts on
// the shoots it names (each exactly once: act-once.ts, the update_run_items ledger), and sends the
// next job for the moment the decision names (startAfter: a window's start, a soak's end, the
// gate's next look), or none when only a person moves the run on (approval, pause) or it ended.
// A worker killed mid-job leaves its job to expire and be taken again; the resume sweep (at the
// worker's start and every minute) sends a job for every run whose chain ended early.
import type { Job } from "pg-boss";
import type { FieldChange } from "../api/audit.ts";
import type { UpdateRunTarget } from "../api/update-runs.ts";
import type { GardenIdentity } from "../auth/garden-identity.ts";
import type { Db } from "../db/client.ts";
import { type FreezePeriod } from "../engine/freezes.ts";
import { effectiveWindow } from "../engine/time-window.ts";
import { shootReadiness } from "../engine/update-run-health.ts";
import {
  nextProgress,
  type ProgressDecision,
  type ProgressStage,
  type RunSnapshot,
  type ShootHealth,
} from "../engine/update-run-progress.ts";
import { targetChangeFor } from "../engine/update-run-target.ts";
import { shootForChange } from "../garden/shoot-change-rules.ts";
import type { ShootKey, ShootWrites } from "../garden/shoot-writes.ts";
import { completeInTx, type PgBoss, QUEUES, sendInTx } from "../jobs/queue.ts";
import { logger } from "../observability/logger.ts";
import { listFreezes } from "../store/freezes.ts";
import {
  activeUpdateRuns,
  cancelPendingRunItems,
  findUpdateRun,
  holdRunItem,
  lockRunItem,
  moveRunItem,
  shootProjects,
  shootsOfRun,
  type StoredRunItem,
  type StoredRunStage,
  type StoredUpdateRun,
  updateRunItems,
  updateRunStages,
  updateRunState,
  writeRun,
  writeRunItems,
  writeRunStage,
} from "../store/update-runs.ts";
import { actOnce, maintainNowOutcome, type OnceLedger, type OnceWrite } from "./act-once.ts";
import { freezePeriod } from "./freeze-view.ts";
import { refusalError } from "./shoot-refusal.ts";
import { updateShootFromPatch } from "./update-shoot.ts";
import { recordRunEvent } from "./update-run-audit.ts";
import { makerBindings, makerRefusal } from "./update-run-maker.ts";

export interface UpdateRunJob {
  readonly runId: string;
}

/** Retries of a job before a shoot whose write throws without reaching the garden fails (as bulk actions). */
const UNTRACED_ERROR_RETRIES = 3;

/** The ledger of one shoot of a run: its update_run_items row. */
export function runItemLedger(runId: string, position: number): OnceLedger {
  return {
    hold: (tx) => holdRunItem(tx, runId, position),
    lock: (tx) => lockRunItem(tx, runId, position),
    move: (tx, from, to, outcome) => moveRunItem(tx, runId, position, from, to, outcome),
    cancelled: async (tx) => {
      const state = await updateRunState(tx, runId);
      return state === "Cancelled" || state === "Failed";
    },
  };
}

/** The target's change on one shoot, sent as the person who made the run, through the write port. */
export function runShootWrite(
  db: Db,
  garden: ShootWrites,
  key: ShootKey,
  target: UpdateRunTarget,
  by: { readonly actor: string; readonly identity: GardenIdentity },
  /** Whether the run's maker may still change this shoot (their roles now): the refusal's words if not. */
  refused: () => string | undefined = () => undefined,
): OnceWrite {
  /** What the target means for the shoot as it is now (a shoot gone or being deleted: the port's words). */
  const changeNow = async (now: number) => {
    const found = await shootForChange(db, key);
    if (found.refusal) throw refusalError(found.refusal, key, "change");
    return targetChangeFor(found.shoot, found.profile, target, now);
  };
  return {
    key,
    refusedBeforehand: async () => refused(),
    async send(requestId, alongside) {
      const now = Date.now();
      const request = { ...key, actor: by.actor, identity: by.identity, requestId, now, alongside };
      if ("action" in target) {
        return maintainNowOutcome(garden, request);
      }
      const change = await changeNow(now);
      if (change.kind === "maintain") return { state: "Succeeded", message: "Nothing to change.", changes: [] };
      if (change.kind === "unchanged") return { state: "Succeeded", message: change.reason, changes: [] };
      if (change.kind === "refused") return { state: "Refused", message: change.reason, changes: [] };
      await updateShootFromPatch(garden, { ...request, body: change.patch, ifMatch: null });
      const changes: readonly FieldChange[] = change.changes;
      return {
        state: "Succeeded",
        message: `Changed ${changes.map((c) => `${c.field}: ${String(c.before)} -> ${String(c.after)}`).join("; ")}.`,
        changes,
      };
    },
    alreadyApplied: async () => {
      if ("action" in target) return false;
      try {
        return (await changeNow(Date.now())).kind === "unchanged";
      } catch {
        return false;
      }
    },
  };
}

const time = (d: Date | null) => (d ? d.getTime() : undefined);
const keyOf = (i: { readonly namespace: string; readonly name: string }) => `${i.namespace}/${i.name}`;

/** The run as the progress function reads it; the shoots (health, windows) of the stages it may move now. */
async function snapshotOf(
  db: Db,
  run: StoredUpdateRun,
  stages: readonly StoredRunStage[],
  items: readonly StoredRunItem[],
): Promise<{ readonly snapshot: RunSnapshot; readonly health: Map<string, ShootHealth> }> {
  // The first unfinished stage and the one after it: a decision moves at most those two.
  const current = stages.findIndex((s) => !["Succeeded", "Failed", "Cancelled"].includes(s.state));
  const near = items.filter((i) => current >= 0 && (i.stage === current || i.stage === current + 1));
  const [shoots, projects] = await Promise.all([shootsOfRun(db, near), shootProjects(db, items)]);
  const health = new Map<string, ShootHealth>();
  for (const item of near) health.set(keyOf(item), shootReadiness(shoots.get(keyOf(item))?.shoot));
  const progressStages: ProgressStage[] = stages.map((s) => ({
    name: s.name,
    when: s.when,
    soakSeconds: s.soakSeconds,
    approval: s.approval,
    state: s.state,
    ...optional("startedAt", time(s.startedAt)),
    ...optional("actedAt", time(s.actedAt)),
    ...optional("gateStartedAt", time(s.gateStartedAt)),
    ...optional("soakUntil", time(s.soakUntil)),
    ...optional("finishedAt", time(s.finishedAt)),
    ...optional("approvedAt", time(s.approvedAt)),
    items: items
      .filter((i) => i.stage === s.position)
      .map((i) => {
        const found = shoots.get(keyOf(i));
        return {
          position: i.position,
          namespace: i.namespace,
          name: i.name,
          state: i.state,
          ...optional("project", projects.get(keyOf(i))),
          ...optional("dueAt", time(i.dueAt)),
          ...optional("healthySince", time(i.healthySince)),
          ...(found ? { window: effectiveWindow(found.shoot) } : {}),
        };
      }),
  }));
  // Shoots of later stages are not read each time: without their windows, the expected end
  // counts a window stage from its start.
  const snapshot: RunSnapshot = {
    state: run.state,
    healthySeconds: run.healthySeconds,
    ...optional("startedAt", time(run.startedAt)),
    stages: progressStages,
  };
  return { snapshot, health };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

const date = (ms: number | undefined | null) => (ms === undefined ? undefined : ms === null ? null : new Date(ms));

/** Stores a decision; false when the run changed meanwhile (a pause, a resume, a cancel): the caller looks again. */
async function store(db: Db, run: StoredUpdateRun, decision: ProgressDecision, now: number): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const locked = await findUpdateRun(tx, run.id, true);
    // Any write of the run since it was read (a pause and a resume leave the state as it was).
    if (!locked || locked.version !== run.version) return false;
    const r = decision.run;
    await writeRun(tx, run.id, {
      ...(r.state !== undefined ? { state: r.state } : {}),
      ...(r.message !== undefined ? { message: r.message } : {}),
      ...(r.startedAt !== undefined ? { startedAt: new Date(r.startedAt) } : {}),
      ...(r.finishedAt !== undefined ? { finishedAt: new Date(r.finishedAt) } : {}),
      ...(r.expectedEnd !== undefined ? { expectedEnd: date(r.expectedEnd) } : {}),
    });
    for (const [position, c] of decision.stages)
      await writeRunStage(tx, run.id, position, {
        ...(c.state !== undefined ? { state: c.state } : {}),
        ...(c.startedAt !== undefined ? { startedAt: new Date(c.startedAt) } : {}),
        ...(c.actedAt !== undefined ? { actedAt: new Date(c.actedAt) } : {}),
        ...(c.gateStartedAt !== undefined ? { gateStartedAt: new Date(c.gateStartedAt) } : {}),
        ...(c.soakUntil !== undefined ? { soakUntil: new Date(c.soakUntil) } : {}),
        ...(c.finishedAt !== undefined ? { finishedAt: new Date(c.finishedAt) } : {}),
        ...(c.holding !== undefined ? { holding: c.holding === null ? null : [...c.holding] } : {}),
      });
    await writeRunItems(
      tx,
      run.id,
      // One change per shoot (a later one in the same decision wins): one row each in the UPDATE.
      [...new Map(decision.items.map((c) => [c.position, c])).values()].map((c) => ({
        position: c.position,
        ...(c.dueAt !== undefined ? { dueAt: new Date(c.dueAt) } : {}),
        ...(c.healthySince !== undefined ? { healthySince: date(c.healthySince) } : {}),
        ...(c.message !== undefined ? { message: c.message } : {}),
      })),
    );
    if (decision.cancelPending)
      await cancelPendingRunItems(tx, run.id, "Not acted on: an earlier stage failed, so the run stopped.");
    const stages = await updateRunStages(tx, run.id);
    for (const event of decision.events) {
      const stage = "stage" in event ? stages[event.stage] : undefined;
      await recordRunEvent(tx, run, event, stage, decision.run.message ?? undefined, now);
    }
    return true;
  });
}

export interface StepOptions {
  /** How long it starts acting on new shoots (a job's budget, well inside its expiry). */
  readonly budgetMs?: number;
  /** Fail a shoot whose write throws without reaching the garden (the job has retried enough). */
  readonly failUntracedErrors?: boolean;
}

/**
 * One step of the run at `now`: decide, store, act. Answers when to look again (undefined: only a
 * person moves it on, or it ended). Tests call it with a controlled clock.
 */
export async function stepUpdateRun(
  db: Db,
  garden: ShootWrites,
  runId: string,
  now: number,
  options: StepOptions = {},
): Promise<{ readonly wakeAt?: number; readonly acted: number }> {
  const until = Date.now() + (options.budgetMs ?? 10_000);
  const run = await findUpdateRun(db, runId);
  if (!run) return { acted: 0 };
  const [stages, items, freezes] = await Promise.all([
    updateRunStages(db, runId),
    updateRunItems(db, runId),
    listFreezes(db, { from: new Date(now) }),
  ]);
  const { snapshot, health } = await snapshotOf(db, run, stages, items);
  const decision = nextProgress({
    run: snapshot,
    health,
    freezes: freezes.map(freezePeriod) as FreezePeriod[],
    now,
    gateGraceSeconds: gateGraceSeconds(),
  });
  if (!(await store(db, run, decision, now))) return { wakeAt: now, acted: 0 };
  if (decision.act.length === 0) return { ...optionalWake(decision.wakeAt), acted: 0 };
  const by = { actor: run.actor, identity: run.identity as GardenIdentity };
  const byPosition = new Map(items.map((i) => [i.position, i]));
  // The maker's roles as they are now (removed since the run was made: those shoots are refused).
  const [bindings, projects] = await Promise.all([
    makerBindings(db, run.actor, by.identity, now),
    shootProjects(
      db,
      decision.act.map((p) => byPosition.get(p)!),
    ),
  ]);
  let acted = 0;
  for (const position of decision.act) {
    if (Date.now() > until) break;
    // A pause or a cancel stops the run between two shoots (a cancel's items are Cancelled anyway).
    const state = await updateRunState(db, runId);
    if (state !== "Running") break;
    const item = byPosition.get(position)!;
    const outcome = await actOnce(
      db,
      runItemLedger(runId, position),
      runShootWrite(db, garden, { namespace: item.namespace, name: item.name }, run.target, by, () =>
        makerRefusal(run.actor, bindings, projects.get(keyOf(item))),
      ),
      { failUntracedErrors: options.failUntracedErrors ?? false },
    );
    if (outcome !== "busy") acted++;
  }
  // Acted: look again at once (the stage may be settled now, or have more to act on).
  return { wakeAt: now, acted };
}

const optionalWake = (wakeAt: number | undefined) => (wakeAt === undefined ? {} : { wakeAt });

let graceSeconds: () => number = () => 1800;

/** How long the gate waits past its bound's base before it pauses a run (the setting, at the worker's start). */
export const gateGraceSeconds = () => graceSeconds();
export function setGateGraceSeconds(seconds: number) {
  graceSeconds = () => seconds;
}

/**
 * The longest a run's next job waits. A job waiting for a freeze's end weeks away would otherwise
 * make every later send (an approval, a resume, the sweep) a no-op (stately: one waits per run),
 * so a freeze deleted or shortened meanwhile would not wake the run; a job that wakes early only
 * decides again and sends the next.
 */
export const MAX_JOB_WAIT_MS = 5 * 60_000;

/** Runs one job: a step at the present moment, then the next job, in one transaction with the completion. */
export async function runUpdateRunJob(
  db: Db,
  boss: PgBoss,
  garden: ShootWrites,
  job: Job<UpdateRunJob>,
  budgetMs = 10_000,
) {
  const { runId } = job.data;
  const step = await stepUpdateRun(db, garden, runId, Date.now(), {
    budgetMs,
    failUntracedErrors: job.retryCount >= UNTRACED_ERROR_RETRIES,
  });
  await db.$transaction(async (tx) => {
    if (step.wakeAt !== undefined) {
      const now = Date.now();
      const at = Math.min(step.wakeAt, now + MAX_JOB_WAIT_MS);
      await sendInTx(boss, tx, QUEUES.updateRun, { runId } satisfies UpdateRunJob, {
        singletonKey: runId,
        ...(at > now ? { startAfter: new Date(at) } : {}),
      });
    }
    await completeInTx(boss, tx, QUEUES.updateRun, [job]);
  });
}

/** Sends a run's job now (a start, an approval, a resume); dropped while one already waits. */
export async function sendUpdateRunJob(boss: PgBoss, db: Db | Parameters<typeof sendInTx>[1], runId: string) {
  await sendInTx(boss, db as Parameters<typeof sendInTx>[1], QUEUES.updateRun, { runId } satisfies UpdateRunJob, {
    singletonKey: runId,
  });
}

/** How often a worker looks for runs whose chain of jobs ended early. */
const RESUME_EVERY_MS = 60_000;

/**
 * Sends a job for every run not ended (a waiting one is kept: singletonKey). A chain ends early
 * only when a job ran out of retries or its worker died before sending the next. Paused runs and
 * those waiting for an approval are left alone (a job would find nothing to do).
 */
export async function resumeUpdateRuns(db: Db, boss: PgBoss): Promise<number> {
  const runs = await activeUpdateRuns(db);
  let sent = 0;
  for (const { id: runId, state } of runs) {
    if (state === "Paused" || state === "WaitingForApproval") continue;
    await boss.send(QUEUES.updateRun, { runId } satisfies UpdateRunJob, { singletonKey: runId });
    sent++;
  }
  return sent;
}

/** Works the update-run queue in this process (on either garden: the port is the garden's). */
export async function startUpdateRunWorker(
  db: Db,
  boss: PgBoss,
  garden: ShootWrites,
  options: {
    readonly pollSeconds?: number;
    readonly jobExpireSeconds?: number;
    readonly gateGraceSeconds?: number;
    readonly resumeEveryMs?: number;
  } = {},
) {
  if (options.gateGraceSeconds !== undefined) setGateGraceSeconds(options.gateGraceSeconds);
  const budgetMs = Math.min(10_000, ((options.jobExpireSeconds ?? 60) * 1000) / 3);
  await boss.work<UpdateRunJob>(
    QUEUES.updateRun,
    { batchSize: 1, pollingIntervalSeconds: options.pollSeconds ?? 0.5 },
    async ([job]) => {
      await runUpdateRunJob(db, boss, garden, job!, budgetMs);
    },
  );
  const resume = () =>
    void resumeUpdateRuns(db, boss).catch((error: unknown) =>
      logger().warn(
        `Almanac could not look for update runs to go on with (tried again later): ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  resume();
  setInterval(resume, options.resumeEveryMs ?? RESUME_EVERY_MS).unref();
}

// /api/v1/update-runs (issue 29, item 2): preview or make an update run, follow it, list them,
// approve the stage that waits, pause, resume, cancel. A run's shoots are chosen when it is made
// (update-run-request.ts); making, approving, pausing, resuming and cancelling one needs the
// operator role on every project it touches; reading it, the viewer role on each. The work is the
// job's (update-run-job.ts), which acts as the person who made the run.
import type {
  UpdateRunAnswer,
  UpdateRunListAnswer,
  UpdateRunRequest,
  UpdateRunStartAnswer,
  UpdateRunSummary,
} from "../api/update-runs.ts";
import { FINAL_RUN_STATES, type UpdateRunState } from "../api/update-runs.ts";
import { conflict, notFound, type Refusal } from "../api/refusal.ts";
import { allows, LANDSCAPE, type Permission } from "../api/roles.ts";
import { notAllowed } from "../auth/access-refusal.ts";
import type { GardenIdentity } from "../auth/garden-identity.ts";
import type { Db } from "../db/client.ts";
import { resumeChanges } from "../engine/update-run-progress.ts";
import { queueClient } from "../jobs/queue-client.ts";
import type { PgBoss } from "../jobs/queue.ts";
import {
  cancelPendingRunItems,
  findUpdateRun,
  holdStartLock,
  insertUpdateRun,
  listUpdateRuns as listStored,
  moveRun,
  shootProjects,
  shootsOwnedByActiveRuns,
  type StoredRunStage,
  type StoredUpdateRun,
  updateRunItems,
  updateRunStages,
  writeRunStage,
} from "../store/update-runs.ts";
import type { FleetScope } from "./fleet-scope.ts";
import { freezeBlocking } from "./freeze-blocking.ts";
import { recordRunAction } from "./update-run-audit.ts";
import { sendUpdateRunJob } from "./update-run-job.ts";
import { previewUpdateRun } from "./update-run-preview.ts";
import { type ResolvedUpdateRun, resolveUpdateRun } from "./update-run-request.ts";

export interface UpdateRunCaller {
  readonly scope: FleetScope;
  readonly actor: string;
  readonly identity: GardenIdentity;
}

/** The first project of `projects` the caller lacks `permission` on, as the refusal to throw. */
function roleRefusal(
  caller: UpdateRunCaller,
  permission: Permission,
  projects: readonly string[],
): Refusal | undefined {
  const bindings = caller.scope.principal.bindings;
  const missing = projects.find((p) => !allows(bindings, permission, p));
  if (missing === undefined) return undefined;
  return notAllowed(caller.scope.principal, permission, missing);
}

/** The projects of the run's shoots, sorted. */
async function projectsOf(db: Db, resolved: ResolvedUpdateRun): Promise<string[]> {
  const keys = resolved.stages.flatMap((s) => s.shoots);
  return [...new Set((await shootProjects(db, keys)).values())].sort();
}

export async function previewOrStartUpdateRun(
  db: Db,
  body: UpdateRunRequest,
  caller: UpdateRunCaller,
  now: number,
  boss: () => Promise<PgBoss> | PgBoss = queueClient,
): Promise<
  | { readonly dryRun: true; readonly answer: Awaited<ReturnType<typeof previewUpdateRun>> }
  | { readonly dryRun: false; readonly answer: UpdateRunStartAnswer }
> {
  const { dryRun, ...request } = body;
  const resolved = await resolveUpdateRun(db, request, caller.scope, now);
  if (dryRun) return { dryRun: true, answer: await previewUpdateRun(db, resolved, { scope: caller.scope }, now) };
  const projects = await projectsOf(db, resolved);
  const refused = roleRefusal(caller, "operate", projects);
  if (refused) throw refused;
  // A first stage that acts at once, due inside a freeze: refused now rather than made to wait.
  const first = resolved.stages[0]!;
  if (first.when === "now" && !first.approval) {
    const firstProjects = [...new Set((await shootProjects(db, first.shoots)).values())];
    const block = await freezeBlocking({ at: now, projects: firstProjects }, db);
    if (block) throw block.refusal;
  }
  const jobs = await boss();
  const keys = resolved.stages.flatMap((s) => s.shoots);
  const total = keys.length;
  const id = await db.$transaction(async (tx) => {
    await holdStartLock(tx);
    const owned = await shootsOwnedByActiveRuns(tx, keys);
    if (owned.length > 0) {
      const byRun = owned[0]!;
      const names = owned
        .filter((o) => o.runId === byRun.runId)
        .slice(0, 5)
        .map((o) => `${o.namespace}/${o.name}`);
      throw conflict(
        `Update run "${byRun.runName}" (${byRun.runId}) is still under way and owns ${names.join(", ")}${owned.length > names.length ? ", ..." : ""}; a cluster is moved by one run at a time. Wait for it to end, or cancel it.`,
        { extensions: { updateRun: { id: byRun.runId, name: byRun.runName } } },
      );
    }
    const made = await insertUpdateRun(tx, {
      name: resolved.name,
      target: resolved.target,
      healthySeconds: resolved.healthGate?.healthySeconds ?? null,
      actor: caller.actor,
      identity: caller.identity,
      projects,
      stages: resolved.stages,
    });
    await recordRunAction(tx, { id: made }, caller.actor, "create", [
      { field: "name", before: null, after: resolved.name },
      { field: "target", before: null, after: resolved.target },
      { field: "stages", before: null, after: resolved.stages.map((s) => `${s.name} (${s.shoots.length}, ${s.when})`) },
      { field: "healthGate", before: null, after: resolved.healthGate },
    ]);
    await sendUpdateRunJob(jobs, tx, made);
    return made;
  });
  return { dryRun: false, answer: { id, total } };
}

function summaryOf(stored: StoredUpdateRun): UpdateRunSummary {
  return {
    id: stored.id,
    name: stored.name,
    state: stored.state,
    target: stored.target,
    healthGate: stored.healthySeconds !== null ? { healthySeconds: stored.healthySeconds } : null,
    actor: stored.actor,
    createdAt: stored.createdAt.toISOString(),
    ...(stored.startedAt ? { startedAt: stored.startedAt.toISOString() } : {}),
    ...(stored.finishedAt ? { finishedAt: stored.finishedAt.toISOString() } : {}),
    ...(stored.message ? { message: stored.message } : {}),
    ...(stored.expectedEnd && !FINAL_RUN_STATES.includes(stored.state)
      ? { expectedEnd: stored.expectedEnd.toISOString() }
      : {}),
    total: stored.total,
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);

function stageOf(stage: StoredRunStage) {
  return {
    name: stage.name,
    when: stage.when,
    soakSeconds: stage.soakSeconds,
    approval: stage.approval,
    state: stage.state,
    ...(stage.startedAt ? { startedAt: iso(stage.startedAt)! } : {}),
    ...(stage.finishedAt ? { finishedAt: iso(stage.finishedAt)! } : {}),
    ...(stage.soakUntil && stage.state === "Soaking" ? { soakUntil: iso(stage.soakUntil)! } : {}),
    ...(stage.approvedBy ? { approvedBy: stage.approvedBy } : {}),
    ...(stage.approvedAt ? { approvedAt: iso(stage.approvedAt)! } : {}),
    ...(stage.holding && stage.holding.length > 0 ? { holding: stage.holding } : {}),
  };
}

/** A run the caller may read (the viewer role on each of its projects); else 404, as if there were none. */
async function readableRun(db: Db, id: string, caller: UpdateRunCaller): Promise<StoredUpdateRun> {
  const stored = await findUpdateRun(db, id);
  if (!stored || roleRefusal(caller, "read", stored.projects)) throw notFound(`There is no update run ${id}.`);
  return stored;
}

export async function getUpdateRun(db: Db, id: string, caller: UpdateRunCaller): Promise<UpdateRunAnswer> {
  const stored = await readableRun(db, id, caller);
  const [stages, items] = await Promise.all([updateRunStages(db, id), updateRunItems(db, id)]);
  return {
    ...summaryOf(stored),
    stages: stages.map((stage) => ({
      ...stageOf(stage),
      items: items
        .filter((i) => i.stage === stage.position)
        .map((i) => ({
          namespace: i.namespace,
          name: i.name,
          state: i.state,
          ...(i.message !== null ? { message: i.message } : {}),
          ...(i.dueAt ? { dueAt: i.dueAt.toISOString() } : {}),
          ...(i.changes.length > 0 ? { changes: i.changes } : {}),
        })),
    })),
  };
}

/** The projects the caller reads, or undefined for the whole landscape. */
function readableProjects(caller: UpdateRunCaller): string[] | undefined {
  const bindings = caller.scope.principal.bindings;
  if (allows(bindings, "read")) return undefined;
  return [...new Set(bindings.filter((b) => b.scope !== LANDSCAPE).map((b) => b.scope))].filter((p) =>
    allows(bindings, "read", p),
  );
}

export async function listUpdateRuns(
  db: Db,
  query: { readonly limit: number; readonly cursor?: string },
  caller: UpdateRunCaller,
): Promise<UpdateRunListAnswer> {
  const projects = readableProjects(caller);
  const rows = await listStored(db, {
    ...(projects ? { projects } : {}),
    ...(query.cursor !== undefined ? { beforeSeq: BigInt(query.cursor) } : {}),
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(summaryOf),
    nextCursor: rows.length > query.limit ? String(page.at(-1)!.seq) : null,
  };
}

export type RunAction = "approve" | "pause" | "resume" | "cancel";

/** The states each action may be asked in. */
const ALLOWED_FROM: Record<RunAction, readonly UpdateRunState[]> = {
  approve: ["WaitingForApproval"],
  pause: ["Pending", "Running", "WaitingForApproval"],
  resume: ["Paused"],
  cancel: ["Pending", "Running", "WaitingForApproval", "Paused"],
};

const WORDS: Record<RunAction, string> = {
  approve: "approved only while it waits for approval",
  pause: "paused only while it is under way",
  resume: "resumed only while it is paused",
  cancel: "cancelled only before it has ended",
};

/**
 * Approves the stage that waits, pauses, resumes or cancels a run: the operator role on every
 * project it touches; 409 naming the run's state when the state does not allow it. Audited.
 */
export async function actOnUpdateRun(
  db: Db,
  id: string,
  action: RunAction,
  caller: UpdateRunCaller,
  now: number,
  boss: () => Promise<PgBoss> | PgBoss = queueClient,
): Promise<UpdateRunAnswer> {
  const stored = await readableRun(db, id, caller);
  const refused = roleRefusal(caller, "operate", stored.projects);
  if (refused) throw refused;
  const jobs = await boss();
  const at = new Date(now);
  await db.$transaction(async (tx) => {
    const run = await findUpdateRun(tx, id, true);
    if (!run) throw notFound(`There is no update run ${id}.`);
    if (!ALLOWED_FROM[action].includes(run.state))
      throw conflict(`Update run "${run.name}" is ${run.state}: it can be ${WORDS[action]}.`, {
        extensions: { state: run.state },
      });
    const stages = await updateRunStages(tx, id);
    switch (action) {
      case "approve": {
        const waiting = stages.find((s) => s.state === "WaitingForApproval");
        if (!waiting) throw conflict(`Update run "${run.name}" has no stage waiting for approval.`);
        await writeRunStage(tx, id, waiting.position, { approvedBy: caller.actor, approvedAt: at });
        await moveRun(tx, id, ["WaitingForApproval"], "Running", { message: null });
        await recordRunAction(tx, run, caller.actor, "approve", [
          { field: "stage", before: null, after: waiting.name },
          { field: "approvedBy", before: null, after: caller.actor },
          { field: "approvedAt", before: null, after: at.toISOString() },
        ]);
        break;
      }
      case "pause":
        await moveRun(tx, id, ALLOWED_FROM.pause, "Paused", { message: `Paused by ${caller.actor}.` });
        await recordRunAction(tx, run, caller.actor, "pause", [{ field: "state", before: run.state, after: "Paused" }]);
        break;
      case "resume": {
        const changes = resumeChanges(stages, now);
        for (const [position, c] of changes)
          await writeRunStage(tx, id, position, {
            ...(c.gateStartedAt !== undefined ? { gateStartedAt: new Date(c.gateStartedAt) } : {}),
            ...(c.holding === null ? { holding: null } : {}),
          });
        // Paused before its first step: back to Pending, so that the step starts it (startedAt).
        const to = run.startedAt ? "Running" : "Pending";
        await moveRun(tx, id, ["Paused"], to, { message: null });
        await recordRunAction(tx, run, caller.actor, "resume", [{ field: "state", before: "Paused", after: to }]);
        break;
      }
      case "cancel":
        await moveRun(tx, id, ALLOWED_FROM.cancel, "Cancelled", {
          message: `Cancelled by ${caller.actor}.`,
          finishedAt: at,
        });
        await cancelPendingRunItems(tx, id, `Cancelled by ${caller.actor} before it was acted on.`);
        for (const s of stages)
          if (!["Succeeded", "Failed", "Cancelled"].includes(s.state))
            await writeRunStage(tx, id, s.position, { state: "Cancelled", finishedAt: at });
        await recordRunAction(tx, run, caller.actor, "cancel", [
          { field: "state", before: run.state, after: "Cancelled" },
        ]);
        break;
    }
    if (action === "approve" || action === "resume") await sendUpdateRunJob(jobs, tx, id);
  });
  return getUpdateRun(db, id, caller);
}

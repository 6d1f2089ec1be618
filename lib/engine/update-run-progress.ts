// What happens next in an update run (issue 29, item 2), decided from a snapshot of it, the health
// of its shoots, the freeze periods and the moment: pure, so that the job (lib/server/
// update-run-job.ts) only loads, calls this, acts on the shoots it names, stores what it answers and
// sends itself again for the moment it names. A run goes through its stages in order:
//   - before a stage with approval: it waits (WaitingForApproval) until someone approves it;
//   - a stage due inside a freeze period (its projects', or landscape-wide) does not start: the run
//     waits, saying so, until the freeze ends;
//   - acting: "now" acts on every shoot of the stage at once (one whose project a freeze began to
//     cover meanwhile waits for its end); "window" on each at the start of its next maintenance
//     window (a window inside a freeze moves to the first one after it; one that closed before the
//     shoot was acted on, after a pause or a late job, to the next one);
//   - a stage whose shoots were refused or failed fails the run (nothing more is acted on);
//   - the health gate (if the run has one): every shoot of the stage ready (status Healthy, last
//     operation Succeeded, its spec reconciled) without a break for healthySeconds; one that is not
//     by the gate's bound pauses the run, naming the shoots that hold it;
//   - the soak time, then the next stage; after the last one the run has Succeeded.
// Paused and ended runs are not moved here (pause, resume, approve and cancel are the people's).
import { freezeCovering, type FreezePeriod } from "./freezes.ts";
import { nextWindowOccurrence, type TimeWindow, windowContains } from "./time-window.ts";

export type RunState = "Pending" | "Running" | "WaitingForApproval" | "Paused" | "Succeeded" | "Failed" | "Cancelled";
export type StageState =
  "Pending" | "WaitingForApproval" | "Acting" | "Gating" | "Soaking" | "Succeeded" | "Failed" | "Cancelled";
export type ItemState = "Pending" | "Acting" | "Succeeded" | "Failed" | "Refused" | "Cancelled";

const FINAL_ITEM: readonly ItemState[] = ["Succeeded", "Failed", "Refused", "Cancelled"];
const FINAL_STAGE: readonly StageState[] = ["Succeeded", "Failed", "Cancelled"];
export const FINAL_RUN: readonly RunState[] = ["Succeeded", "Failed", "Cancelled"];

export interface ProgressItem {
  readonly position: number;
  readonly namespace: string;
  readonly name: string;
  /** The shoot's project (its freezes). */
  readonly project?: string;
  readonly state: ItemState;
  /** A window stage: when it is to be acted on (epoch ms). */
  readonly dueAt?: number;
  /** Since when the gate has seen it ready without a break. */
  readonly healthySince?: number;
  /** The shoot's effective maintenance window (a window stage acts at its next start). */
  readonly window?: TimeWindow;
}

export interface ProgressStage {
  readonly name: string;
  readonly when: "now" | "window";
  readonly soakSeconds: number;
  readonly approval: boolean;
  readonly state: StageState;
  readonly startedAt?: number;
  readonly actedAt?: number;
  readonly gateStartedAt?: number;
  readonly soakUntil?: number;
  readonly finishedAt?: number;
  readonly approvedAt?: number;
  readonly items: readonly ProgressItem[];
}

export interface RunSnapshot {
  readonly state: RunState;
  /** The health gate after each stage; null: none. */
  readonly healthySeconds: number | null;
  readonly startedAt?: number;
  readonly stages: readonly ProgressStage[];
}

/** What the gate reads of one shoot now: ready, or why not. */
export interface ShootHealth {
  readonly ready: boolean;
  readonly reason?: string;
}

export interface ProgressInput {
  readonly run: RunSnapshot;
  /** By "namespace/name": the shoots of the stage the gate watches (others may be left out). */
  readonly health: ReadonlyMap<string, ShootHealth>;
  readonly freezes: readonly FreezePeriod[];
  readonly now: number;
  /**
   * How long past 2 x healthySeconds plus the stage's acting time the gate waits for a shoot to
   * become ready before it pauses the run (a reconcile takes minutes on a real garden).
   */
  readonly gateGraceSeconds: number;
}

export interface StageChange {
  state?: StageState;
  startedAt?: number;
  actedAt?: number;
  gateStartedAt?: number;
  soakUntil?: number;
  finishedAt?: number;
  holding?: readonly { readonly namespace: string; readonly name: string; readonly reason: string }[] | null;
}

export interface ItemChange {
  readonly position: number;
  dueAt?: number;
  healthySince?: number | null;
  message?: string;
}

export type RunEvent =
  | { readonly kind: "stage-started"; readonly stage: number }
  | { readonly kind: "stage-finished"; readonly stage: number; readonly state: StageState }
  | { readonly kind: "gate-paused"; readonly stage: number }
  | { readonly kind: "run-finished"; readonly state: RunState };

export interface ProgressDecision {
  /** The run's new state and words (unchanged fields left out). */
  readonly run: {
    state?: RunState;
    message?: string | null;
    startedAt?: number;
    finishedAt?: number;
    expectedEnd?: number | null;
  };
  readonly stages: ReadonlyMap<number, StageChange>;
  readonly items: readonly ItemChange[];
  /** The shoots to act on now (their positions), in order. */
  readonly act: readonly number[];
  /** Pending shoots that will never be acted on (the run failed): to be cancelled. */
  readonly cancelPending: boolean;
  /** When to look again (epoch ms); undefined: only a person moves it on (approval, paused), or it ended. */
  readonly wakeAt?: number;
  readonly events: readonly RunEvent[];
}

const keyOf = (i: { readonly namespace: string; readonly name: string }) => `${i.namespace}/${i.name}`;
const SECOND = 1000;

/** How often the gate looks at its shoots: a fifth of healthySeconds, 1 to 30 s. */
export const gatePollMs = (healthySeconds: number) => Math.min(30, Math.max(1, healthySeconds / 5)) * SECOND;

/** The freeze that holds at `at` for any of the projects (landscape-wide first, then the longest). */
function freezeOver(freezes: readonly FreezePeriod[], at: number, projects: readonly (string | undefined)[]) {
  let best: FreezePeriod | undefined;
  for (const project of [undefined, ...new Set(projects)]) {
    const f = freezeCovering(freezes, at, project);
    if (f && (!best || f.end > best.end)) best = f;
  }
  return best;
}

const freezeWords = (f: FreezePeriod) =>
  `the freeze "${f.reason}"${f.project !== undefined ? ` of project ${f.project}` : " (landscape-wide)"} until ${new Date(f.end).toISOString()}`;

/** A window stage's moment for a shoot: its next window's start from `from` (now if it has none). */
export function windowStart(window: TimeWindow | undefined, from: number): number {
  return window ? nextWindowOccurrence(window, from).begin : from;
}

/** The first window start at or after the end of every freeze that would cover it. */
function windowStartOutsideFreezes(
  window: TimeWindow | undefined,
  from: number,
  freezes: readonly FreezePeriod[],
  project: string | undefined,
): { readonly at: number; readonly movedBy?: FreezePeriod } {
  let at = windowStart(window, from);
  let movedBy: FreezePeriod | undefined;
  for (let i = 0; i < 100; i++) {
    const f = freezeOver(freezes, at, [project]);
    if (!f) break;
    movedBy = f;
    at = windowStart(window, f.end);
  }
  return { at, ...(movedBy ? { movedBy } : {}) };
}

/** The moment the gate of a stage gives up and pauses the run. */
export function gateBound(stage: ProgressStage, healthySeconds: number, graceSeconds: number): number {
  const acting = Math.max(0, (stage.actedAt ?? 0) - (stage.startedAt ?? stage.actedAt ?? 0));
  const from = stage.gateStartedAt ?? stage.actedAt ?? 0;
  return from + acting + (2 * healthySeconds + graceSeconds) * SECOND;
}

/** Decides what happens next; see the file's head. */
export function nextProgress(input: ProgressInput): ProgressDecision {
  const { run, now, freezes } = input;
  const stagesOut = new Map<number, StageChange>();
  const items: ItemChange[] = [];
  const events: RunEvent[] = [];
  const act: number[] = [];
  const runOut: ProgressDecision["run"] = {};
  if (run.state === "Paused" || FINAL_RUN.includes(run.state))
    return { run: runOut, stages: stagesOut, items, act, cancelPending: false, events };

  // The stages as this decision moves them (a copy each, changed in place).
  const stages = run.stages.map((s) => ({ ...s }));
  const change = (i: number, c: StageChange) => {
    stagesOut.set(i, { ...stagesOut.get(i), ...c });
    Object.assign(stages[i]!, c);
  };
  if (run.state === "Pending") {
    runOut.state = "Running";
    runOut.startedAt = now;
  }
  let state: RunState = "Running";
  let message: string | null = null;
  let wakeAt: number | undefined;
  let cancelPending = false;
  const wake = (at: number) => (wakeAt = wakeAt === undefined ? at : Math.min(wakeAt, at));

  for (let guard = 0; guard < 4 * stages.length + 4; guard++) {
    const index = stages.findIndex((s) => !FINAL_STAGE.includes(s.state));
    if (index < 0) {
      state = stages.some((s) => s.state === "Failed") ? "Failed" : "Succeeded";
      runOut.finishedAt = now;
      events.push({ kind: "run-finished", state });
      break;
    }
    const stage = stages[index]!;
    const label = `Stage "${stage.name}"`;

    if (stage.state === "Pending" || stage.state === "WaitingForApproval") {
      if (stage.approval && stage.approvedAt === undefined) {
        if (stage.state !== "WaitingForApproval") change(index, { state: "WaitingForApproval" });
        state = "WaitingForApproval";
        message = `${label} waits for approval.`;
        break;
      }
      const frozen = freezeOver(
        freezes,
        now,
        stage.items.map((i) => i.project),
      );
      if (frozen) {
        // Approved, but frozen: it no longer waits for a person.
        if (stage.state === "WaitingForApproval") change(index, { state: "Pending" });
        message = `${label} waits for ${freezeWords(frozen)} (id ${frozen.id}).`;
        wake(frozen.end);
        break;
      }
      change(index, { state: "Acting", startedAt: now });
      events.push({ kind: "stage-started", stage: index });
      if (stage.when === "window")
        for (const item of stage.items) {
          if (FINAL_ITEM.includes(item.state)) continue;
          const due = windowStartOutsideFreezes(item.window, now, freezes, item.project);
          items.push({
            position: item.position,
            dueAt: due.at,
            ...(due.movedBy ? { message: `Its window moved past ${freezeWords(due.movedBy)}.` } : {}),
          });
        }
      continue;
    }

    if (stage.state === "Acting") {
      const dueOf = new Map(items.filter((c) => c.dueAt !== undefined).map((c) => [c.position, c.dueAt!]));
      let open = 0;
      let heldBy: FreezePeriod | undefined;
      for (const item of stage.items) {
        if (FINAL_ITEM.includes(item.state)) continue;
        open++;
        // Begun before (a worker died mid-write): finished whatever holds now, never sent twice.
        if (item.state === "Acting") {
          act.push(item.position);
          continue;
        }
        if (stage.when === "now") {
          // A freeze that began while the stage acts holds its shoots not yet acted on until it ends.
          const frozen = freezeOver(freezes, now, [item.project]);
          if (frozen) {
            if (!heldBy || frozen.end > heldBy.end) heldBy = frozen;
            wake(frozen.end);
            continue;
          }
          act.push(item.position);
          continue;
        }
        const due = dueOf.get(item.position) ?? item.dueAt ?? now;
        if (due > now) {
          wake(due);
          continue;
        }
        if (item.window && !windowContains(item.window, now)) {
          // Its window closed before it was acted on (the run was paused, or a job came late): the
          // next one, never outside it.
          const next = windowStartOutsideFreezes(item.window, now, freezes, item.project);
          items.push({
            position: item.position,
            dueAt: next.at,
            message: `Its window closed before it was acted on; moved to the next one${next.movedBy ? `, past ${freezeWords(next.movedBy)}` : ""}.`,
          });
          wake(next.at);
          continue;
        }
        const frozen = freezeOver(freezes, now, [item.project]);
        if (frozen) {
          const moved = windowStartOutsideFreezes(item.window, frozen.end, freezes, item.project);
          items.push({
            position: item.position,
            dueAt: moved.at,
            message: `Its window falls in ${freezeWords(frozen)}; moved to the first one after it.`,
          });
          wake(moved.at);
          continue;
        }
        act.push(item.position);
      }
      if (open > 0) {
        const waiting = open - act.length;
        message =
          act.length > 0
            ? `${label} acts on ${act.length} cluster(s).`
            : heldBy
              ? `${label} waits for ${freezeWords(heldBy)} (id ${heldBy.id}) to act on ${waiting} cluster(s).`
              : `${label} waits for ${waiting} cluster(s)' maintenance windows.`;
        if (act.length > 0) wake(now);
        break;
      }
      // Every shoot of the stage is settled.
      change(index, { actedAt: stage.actedAt ?? now });
      const broken = stage.items.filter((i) => i.state === "Failed" || i.state === "Refused");
      if (broken.length > 0) {
        change(index, { state: "Failed", finishedAt: now });
        events.push({ kind: "stage-finished", stage: index, state: "Failed" });
        for (let later = index + 1; later < stages.length; later++)
          change(later, { state: "Cancelled", finishedAt: now });
        cancelPending = true;
        const names = broken.slice(0, 5).map(keyOf).join(", ");
        message = `${label} failed: ${broken.length} cluster(s) refused or failed (${names}${broken.length > 5 ? ", ..." : ""}); nothing more is acted on.`;
        continue;
      }
      if (run.healthySeconds !== null) {
        change(index, { state: "Gating", gateStartedAt: now });
        continue;
      }
      finishActing(index);
      continue;
    }

    if (stage.state === "Gating") {
      const healthy = run.healthySeconds ?? 0;
      const holding: { namespace: string; name: string; reason: string }[] = [];
      let nextReady: number | undefined;
      for (const item of stage.items) {
        if (item.state !== "Succeeded") continue;
        const seen = input.health.get(keyOf(item)) ?? { ready: false, reason: "not found" };
        let since = item.healthySince;
        if (seen.ready && since === undefined) {
          since = now;
          items.push({ position: item.position, healthySince: now });
        } else if (!seen.ready && since !== undefined) {
          since = undefined;
          items.push({ position: item.position, healthySince: null });
        }
        if (since === undefined) {
          holding.push({ namespace: item.namespace, name: item.name, reason: seen.reason ?? "not ready" });
          continue;
        }
        const readyAt = since + healthy * SECOND;
        if (readyAt > now) {
          const held = Math.floor((now - since) / SECOND);
          holding.push({
            namespace: item.namespace,
            name: item.name,
            reason: `ready for ${held} s of ${healthy} s`,
          });
          nextReady = nextReady === undefined ? readyAt : Math.min(nextReady, readyAt);
        }
      }
      if (holding.length === 0) {
        change(index, { holding: null });
        finishActing(index);
        continue;
      }
      change(index, { holding });
      const bound = gateBound(stage, healthy, input.gateGraceSeconds);
      const unready = holding.filter((h) => !h.reason.startsWith("ready for"));
      if (now >= bound && unready.length > 0) {
        state = "Paused";
        events.push({ kind: "gate-paused", stage: index });
        message = `${label}'s health gate is held by ${unready.length} cluster(s): ${unready
          .slice(0, 5)
          .map((h) => `${keyOf(h)} (${h.reason})`)
          .join(
            ", ",
          )}${unready.length > 5 ? ", ..." : ""}. The run is paused; resume it once they are healthy, or cancel it.`;
        wakeAt = undefined;
        break;
      }
      message = `${label}'s health gate waits for ${holding.length} cluster(s) to be healthy for ${healthy} s.`;
      wake(Math.min(now + gatePollMs(healthy), nextReady ?? Infinity));
      break;
    }

    if (stage.state === "Soaking") {
      if ((stage.soakUntil ?? now) > now) {
        message = `${label} soaks until ${new Date(stage.soakUntil!).toISOString()}.`;
        wake(stage.soakUntil!);
        break;
      }
      change(index, { state: "Succeeded", finishedAt: now });
      events.push({ kind: "stage-finished", stage: index, state: "Succeeded" });
      continue;
    }
    break;
  }

  /** The stage's shoots are acted on (and past its gate): the soak before the next stage, or done. */
  function finishActing(index: number) {
    const stage = stages[index]!;
    const last = index === stages.length - 1;
    if (!last && stage.soakSeconds > 0)
      change(index, { state: "Soaking", soakUntil: now + stage.soakSeconds * SECOND });
    else {
      change(index, { state: "Succeeded", finishedAt: now });
      events.push({ kind: "stage-finished", stage: index, state: "Succeeded" });
    }
  }

  if (state !== run.state) runOut.state = state;
  runOut.message = message;
  runOut.expectedEnd = FINAL_RUN.includes(state)
    ? null
    : (expectedEnd(stages, run.healthySeconds, freezes, now) ?? null);
  return {
    run: runOut,
    stages: stagesOut,
    items,
    act,
    cancelPending,
    ...(wakeAt !== undefined && !FINAL_RUN.includes(state) && state !== "Paused" ? { wakeAt } : {}),
    events,
  };
}

/**
 * When the run is expected to end if nothing holds it: approvals given at once, every shoot ready
 * right after it is acted on, a stage due in a freeze started when the freeze ends, each window
 * stage ending at the last of its shoots' window starts (outside freezes).
 */
export function expectedEnd(
  stages: readonly ProgressStage[],
  healthySeconds: number | null,
  freezes: readonly FreezePeriod[],
  now: number,
): number | undefined {
  let t = now;
  const gate = (healthySeconds ?? 0) * SECOND;
  for (const [index, stage] of stages.entries()) {
    const last = index === stages.length - 1;
    const soak = last ? 0 : stage.soakSeconds * SECOND;
    if (stage.state === "Succeeded" || stage.state === "Cancelled" || stage.state === "Failed") continue;
    if (stage.state === "Soaking") {
      t = Math.max(t, stage.soakUntil ?? t);
      continue;
    }
    if (stage.state === "Gating") {
      const since = stage.items.map((i) => i.healthySince ?? now);
      t = Math.max(t, ...since.map((s) => s + gate)) + soak;
      continue;
    }
    let start = t;
    if (stage.state === "Pending" || stage.state === "WaitingForApproval") {
      for (let i = 0; i < 100; i++) {
        const f = freezeOver(
          freezes,
          start,
          stage.items.map((x) => x.project),
        );
        if (!f) break;
        start = f.end;
      }
    }
    let acted = start;
    if (stage.when === "window")
      for (const item of stage.items) {
        if (FINAL_ITEM.includes(item.state)) continue;
        const due =
          stage.state === "Acting" && item.dueAt !== undefined
            ? item.dueAt
            : windowStartOutsideFreezes(item.window, start, freezes, item.project).at;
        acted = Math.max(acted, due);
      }
    t = acted + gate + soak;
  }
  return t;
}

/** What resuming a paused run does to its stages: a gate that paused it starts watching again. */
export function resumeChanges(stages: readonly Pick<ProgressStage, "state">[], now: number): Map<number, StageChange> {
  const out = new Map<number, StageChange>();
  stages.forEach((s, i) => {
    if (s.state === "Gating") out.set(i, { gateStartedAt: now, holding: null });
  });
  return out;
}

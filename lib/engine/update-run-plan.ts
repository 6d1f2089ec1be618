// An update run's plan before it starts (issue 29, item 3): per stage and cluster the moment the
// run reaches it, what it will do there (decided elsewhere, with the single-shoot endpoints' rules
// and words), the forced update Gardener will make first anyway, the freeze its moment falls in,
// and when each stage and the run are expected to end. Pure: the server gathers the facts
// (lib/server/update-run-preview.ts), the tests feed them directly.
//
// The timeline is the run's own (lib/engine/update-run-progress.ts decides it while the run goes):
// the first stage may start at `now`. A stage with an approval waits for a person before it
// starts: from there on every moment is the earliest (approval at once), and says so. A stage due
// inside a freeze (landscape-wide, or of a project of its clusters) starts when the freeze ends. A
// "now" stage acts on all its clusters at its start; a "window" stage on each cluster at the next
// start of its maintenance window (windows are UTC offsets, so each in its own time zone), a
// window inside a freeze of its project moved to the first one after it. A cluster acted on is
// expected done `actingSeconds` later (one reconcile); the stage is done when its last one is,
// plus the health gate's healthy time; the next stage may start after the stage's soak.
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { stepShoot } from "./forecast.ts";
import { freezeAppliesTo, freezeCovering, type FreezePeriod } from "./freezes.ts";
import type { FieldChange } from "./shoot-patch.ts";
import { SECOND_MS } from "./time-units.ts";
import { effectiveWindow, type TimeWindow } from "./time-window.ts";
import { windowStart } from "./update-run-progress.ts";

export type PlanOutcome = "act" | "unchanged" | "refused";

/** What the run will do to one cluster, decided before planning (the bulk preview's rules and words). */
export interface PlanDecision {
  readonly outcome: PlanOutcome;
  readonly changes: readonly FieldChange[];
  readonly message: string;
  readonly errors?: readonly { readonly field: string; readonly type: string; readonly detail: string }[];
  /** Refused by the caller's role on its project: the run would not start at all (403). */
  readonly byRole?: boolean;
}

export interface PlanCluster {
  readonly namespace: string;
  readonly name: string;
  /** The project of its namespace (freezes are per project), if any. */
  readonly project?: string;
  /** undefined when it does not exist (its decision says so). */
  readonly shoot?: Shoot;
  /** Its cloud profile; undefined when missing (no forced update can then be forecast). */
  readonly profile?: CloudProfile;
  readonly decision: PlanDecision;
}

export interface PlanStageInput {
  readonly name: string;
  readonly when: "now" | "window";
  readonly soakSeconds: number;
  readonly approval: boolean;
  readonly clusters: readonly PlanCluster[];
}

export interface UpdateRunPlanInput {
  readonly stages: readonly PlanStageInput[];
  readonly healthGate: { readonly healthySeconds: number } | null;
  /** How long acting on one cluster is expected to take (its reconcile), in seconds. */
  readonly actingSeconds: number;
  readonly freezes: readonly FreezePeriod[];
  /** epoch ms */
  readonly now: number;
}

/** The first update Gardener's maintenance will force on a cluster before the run reaches it. */
export interface ForcedBefore {
  /** epoch ms of the maintenance moment */
  readonly at: number;
  readonly target: "controlPlane" | "worker";
  readonly worker?: string;
  readonly kind: "kubernetes" | "machineImage";
  readonly from: string;
  readonly to: string;
  /** Why it is forced (the version expired, or it is missing from the profile). */
  readonly reason: string;
  /** The forecast's sentence. */
  readonly message: string;
  /** The freeze it falls in: Gardener forces an expired version's update in a freeze all the same. */
  readonly freeze?: FreezePeriod;
}

export interface PlannedCluster extends PlanDecision {
  readonly namespace: string;
  readonly name: string;
  readonly project?: string;
  /** epoch ms: when the run reaches it (the earliest, after an approval). */
  readonly plannedAt: number;
  readonly forcedBefore?: ForcedBefore;
  /**
   * When the run acts on it: the freeze its moment fell in, which moves it (to the freeze's end,
   * or to the first window after it): Almanac starts nothing inside a freeze.
   */
  readonly freeze?: FreezePeriod;
}

export interface PlanCounts {
  readonly act: number;
  readonly unchanged: number;
  readonly refused: number;
  readonly forcedBefore: number;
  readonly inFreeze: number;
}

export interface PlannedStage {
  readonly name: string;
  readonly when: "now" | "window";
  readonly soakSeconds: number;
  readonly approval: boolean;
  /** This stage or an earlier one waits for approval: its moments are the earliest possible. */
  readonly afterApproval: boolean;
  /** epoch ms: when it starts at the earliest (after a freeze that holds it). */
  readonly earliestStart: number;
  /** The freeze it would have started in, which holds it until its end. */
  readonly heldByFreeze?: FreezePeriod;
  /** epoch ms: its last cluster acted on and done, and the health gate passed. */
  readonly expectedEnd: number;
  /** When it starts, acts and ends, in words. */
  readonly message: string;
  readonly counts: PlanCounts;
  readonly items: readonly PlannedCluster[];
}

export interface UpdateRunPlan {
  readonly stages: readonly PlannedStage[];
  /** epoch ms: the last stage's expected end (the earliest, after an approval). */
  readonly expectedEnd: number;
  readonly afterApproval: boolean;
  readonly counts: PlanCounts;
  /** What the person starting it should know first, in words. */
  readonly warnings: readonly string[];
}

/**
 * The window a "window" stage acts in, as the run's job reads it (lib/server/update-run-job.ts):
 * the shoot's effective maintenance window, as UTC times of day (its bounds carry their offset);
 * Gardener's always-open window without a valid one, whose next start is the next UTC midnight.
 */
export function runWindowOf(shoot: Pick<Shoot, "spec">): TimeWindow {
  return effectiveWindow(shoot);
}

/** When a "window" stage started at `from` acts on the shoot: the next start of its window. */
export function nextWindowStart(shoot: Pick<Shoot, "spec">, from: number): number {
  return windowStart(runWindowOf(shoot), from);
}

/** The freeze holding at `at` for any of `projects` or landscape-wide (the one lasting longest). */
function freezeOver(
  freezes: readonly FreezePeriod[],
  at: number,
  projects: readonly (string | undefined)[],
): FreezePeriod | undefined {
  let best: FreezePeriod | undefined;
  for (const project of [undefined, ...new Set(projects)]) {
    const f = freezeCovering(freezes, at, project);
    if (f && (!best || f.end > best.end)) best = f;
  }
  return best;
}

/** The first moment from `at` that no freeze of `projects` holds, and the first freeze that held it. */
function pastFreezes(
  freezes: readonly FreezePeriod[],
  at: number,
  projects: readonly (string | undefined)[],
  next: (from: number) => number = (from) => from,
): { readonly at: number; readonly heldBy?: FreezePeriod } {
  let heldBy: FreezePeriod | undefined;
  // Freezes are few and end; the bound only guards against a loop on odd input.
  for (let i = 0; i < 100; i++) {
    const f = freezeOver(freezes, at, projects);
    if (!f) break;
    heldBy ??= f;
    at = next(f.end);
  }
  return { at, ...(heldBy ? { heldBy } : {}) };
}

/** The first forced update (not stuck) Gardener's maintenance makes from `from` until before `until`. */
export function forcedBefore(
  shoot: Shoot,
  profile: CloudProfile | undefined,
  from: number,
  until: number,
): ForcedBefore | undefined {
  if (!profile || until <= from) return undefined;
  const steps = stepShoot(shoot, profile, from, until - 1);
  // Items after a failure are not what a run up to `until` would see (forecast.ts, failureAt).
  const failedFrom = steps.failures[0]?.from ?? Infinity;
  const first = steps.items.find(({ at, item }) => at < until && at < failedFrom && !item.stuck && item.to);
  if (!first) return undefined;
  const { item } = first;
  return {
    at: first.at,
    target: item.target,
    ...(item.worker !== undefined ? { worker: item.worker } : {}),
    kind: item.kind,
    from: item.from,
    to: item.to!,
    reason: item.reason,
    message: item.message,
  };
}

function countsOf(items: readonly PlannedCluster[]): PlanCounts {
  const counts = { act: 0, unchanged: 0, refused: 0, forcedBefore: 0, inFreeze: 0 };
  for (const i of items) {
    counts[i.outcome]++;
    if (i.forcedBefore) counts.forcedBefore++;
    if (i.freeze) counts.inFreeze++;
  }
  return counts;
}

function sumCounts(all: readonly PlanCounts[]): PlanCounts {
  const counts = { act: 0, unchanged: 0, refused: 0, forcedBefore: 0, inFreeze: 0 };
  for (const c of all) for (const k of Object.keys(counts) as (keyof PlanCounts)[]) counts[k] += c[k];
  return counts;
}

const clusters = (n: number) => (n === 1 ? "1 cluster" : `${n} clusters`);
const stageNames = (stages: readonly PlannedStage[]) => stages.map((s) => `"${s.name}"`).join(", ");

function warningsOf(stages: readonly PlannedStage[], counts: PlanCounts): string[] {
  const warnings: string[] = [];
  // What would stop the start itself first (lib/server/update-runs.ts refuses it).
  const byRole = stages.flatMap((s) => s.items.filter((i) => i.byRole));
  if (byRole.length > 0) {
    const projects = [...new Set(byRole.map((i) => i.project ?? i.namespace))].sort();
    warnings.push(
      `Your role does not let you change ${clusters(byRole.length)} of the run (project ${projects.join(", ")}): starting it would be refused. Leave them out.`,
    );
  }
  const first = stages[0];
  if (first?.heldByFreeze && first.when === "now" && !first.approval)
    warnings.push(
      `The first stage is due inside the freeze "${first.heldByFreeze.reason}" (until ${momentWords(first.heldByFreeze.end)}): starting the run now would be refused. Start it after the freeze, or make its first stage wait for an approval or for the clusters' windows.`,
    );
  if (counts.forcedBefore > 0) {
    const where = stages.filter((s) => s.counts.forcedBefore > 0);
    warnings.push(
      `${clusters(counts.forcedBefore)} will be force-updated by Gardener before the run reaches them (stage ${stageNames(where)}): move them to an earlier stage.`,
    );
    const frozen = where.reduce((n, s) => n + s.items.filter((i) => i.forcedBefore?.freeze).length, 0);
    if (frozen > 0)
      warnings.push(
        `${frozen} of these forced updates ${frozen === 1 ? "falls" : "fall"} inside a freeze period: Gardener cannot be stopped from forcing an expired version, freeze or not.`,
      );
  }
  if (counts.inFreeze > 0) {
    const where = stages.filter((s) => s.counts.inFreeze > 0);
    warnings.push(
      `${clusters(counts.inFreeze)} would be acted on inside a freeze period (stage ${stageNames(where)}): Almanac starts nothing in a freeze, so the run waits for its end and they move after it.`,
    );
  }
  const waiting = stages.find((s) => s.approval);
  if (waiting)
    warnings.push(
      `Stage "${waiting.name}" waits for approval: its moments, and every later one, are the earliest possible.`,
    );
  const refused = (s: PlannedStage) => s.items.filter((i) => i.outcome === "refused" && !i.byRole).length;
  const refusing = stages.find((s) => refused(s) > 0);
  if (refusing) {
    const all = stages.reduce((n, s) => n + refused(s), 0);
    const later = stages.slice(stages.indexOf(refusing) + 1).reduce((n, s) => n + s.counts.act, 0);
    warnings.push(
      `${clusters(all)} will be refused (each one's message says why). A refused cluster fails the run at its stage: it would stop at stage "${refusing.name}"${later > 0 ? `, and ${clusters(later)} of later stages would not be updated` : ""}. Leave them out, or first remove what refuses them.`,
    );
  }
  if (counts.act === 0) warnings.push("The run would change no cluster.");
  return warnings;
}

/** "2026-12-01 22:00 UTC" */
export const momentWords = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** "90 s", "15 min", "2 h", "3 d 4 h": a soak or a gate, roughly as people say it. */
export function durationWords(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86_400) return `${Math.round(seconds / 360) / 10} h`;
  const days = Math.floor(seconds / 86_400);
  const hours = Math.round((seconds - days * 86_400) / 3600);
  return hours === 0 ? `${days} d` : `${days} d ${hours} h`;
}

function stageMessage(
  stage: Pick<PlannedStage, "name" | "when" | "approval" | "afterApproval" | "earliestStart" | "expectedEnd"> & {
    readonly acted: number;
    readonly lastActAt: number;
    readonly heldBy: FreezePeriod | undefined;
  },
  before: readonly PlannedStage[],
  healthGate: UpdateRunPlanInput["healthGate"],
): string {
  const previous = before[before.length - 1];
  const approving = stage.approval ? undefined : before.find((s) => s.approval);
  const earliest = momentWords(stage.earliestStart);
  const start = stage.approval
    ? `Starts after approval, at the earliest ${earliest}`
    : approving
      ? `Starts after the approval of stage "${approving.name}", at the earliest ${earliest}`
      : previous === undefined
        ? stage.heldBy
          ? `Starts at ${earliest}`
          : `Starts at once (${earliest})`
        : `Starts at ${earliest}, after stage "${previous.name}"${previous.soakSeconds > 0 ? ` and its soak of ${durationWords(previous.soakSeconds)}` : ""}`;
  const freeze = stage.heldBy
    ? `, when the freeze "${stage.heldBy.reason}"${stage.heldBy.project !== undefined ? ` of project ${stage.heldBy.project}` : " (landscape-wide)"} ends`
    : "";
  if (stage.acted === 0) return `${start}${freeze}; it changes no cluster.`;
  const acts =
    stage.when === "now"
      ? `acts on ${clusters(stage.acted)} at once`
      : `acts on ${stage.acted === 1 ? "the cluster" : `each of ${clusters(stage.acted)}`} at the start of its next maintenance window (the last at ${momentWords(stage.lastActAt)})`;
  const gate = healthGate ? `, once they have been healthy for ${durationWords(healthGate.healthySeconds)}` : "";
  const end = `${stage.afterApproval ? "at the earliest " : ""}${momentWords(stage.expectedEnd)}`;
  return `${start}${freeze}, ${acts}; expected to end ${end}${gate}.`;
}

/** The run's plan from `input.now`: every stage's moments, changes, forced updates, freezes and ends. */
export function planUpdateRun(input: UpdateRunPlanInput): UpdateRunPlan {
  const { now, freezes, healthGate } = input;
  const actingMs = input.actingSeconds * SECOND_MS;
  const gateMs = (healthGate?.healthySeconds ?? 0) * SECOND_MS;
  const stages: PlannedStage[] = [];
  let start = now;
  let afterApproval = false;
  for (const stage of input.stages) {
    afterApproval ||= stage.approval;
    const held = pastFreezes(
      freezes,
      start,
      stage.clusters.map((c) => c.project),
    );
    const earliestStart = held.at;
    const items = stage.clusters.map((c): PlannedCluster => {
      let plannedAt = earliestStart;
      let freeze = held.heldBy && freezeAppliesTo(held.heldBy, c.project) ? held.heldBy : undefined;
      if (stage.when === "window" && c.shoot) {
        const window = runWindowOf(c.shoot);
        const moved = pastFreezes(freezes, windowStart(window, earliestStart), [c.project], (from) =>
          windowStart(window, from),
        );
        plannedAt = moved.at;
        freeze ??= moved.heldBy;
      }
      if (c.decision.outcome !== "act") freeze = undefined;
      const forced = c.shoot && forcedBefore(c.shoot, c.profile, now, plannedAt);
      const forcedInFreeze = forced && freezeCovering(freezes, forced.at, c.project);
      return {
        namespace: c.namespace,
        name: c.name,
        ...(c.project !== undefined ? { project: c.project } : {}),
        ...c.decision,
        plannedAt,
        ...(forced ? { forcedBefore: forcedInFreeze ? { ...forced, freeze: forcedInFreeze } : forced } : {}),
        ...(freeze ? { freeze } : {}),
      };
    });
    const acted = items.filter((i) => i.outcome === "act");
    const actingEnd = acted.reduce((end, i) => Math.max(end, i.plannedAt + actingMs), earliestStart);
    const expectedEnd = acted.length === 0 ? earliestStart : actingEnd + gateMs;
    const planned = { name: stage.name, when: stage.when, soakSeconds: stage.soakSeconds, approval: stage.approval };
    const lastActAt = acted.reduce((last, i) => Math.max(last, i.plannedAt), earliestStart);
    const message = stageMessage(
      { ...planned, afterApproval, earliestStart, expectedEnd, acted: acted.length, lastActAt, heldBy: held.heldBy },
      stages,
      healthGate,
    );
    const heldByFreeze = held.heldBy ? { heldByFreeze: held.heldBy } : {};
    stages.push({
      ...planned,
      afterApproval,
      earliestStart,
      ...heldByFreeze,
      expectedEnd,
      message,
      counts: countsOf(items),
      items,
    });
    start = expectedEnd + stage.soakSeconds * SECOND_MS;
  }
  const counts = sumCounts(stages.map((s) => s.counts));
  return {
    stages,
    // The soak after the last stage holds nothing back: the run ends with its last stage.
    expectedEnd: stages.length === 0 ? now : stages[stages.length - 1].expectedEnd,
    afterApproval,
    counts,
    warnings: warningsOf(stages, counts),
  };
}

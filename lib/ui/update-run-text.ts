// What the update runs' pages say, pure: each state in a word with its tone, the target in words,
// what a stage waits for ("waiting for approval", "soaking until 14:05 (13:05 UTC)", "health gate:
// 2 clusters hold it: …"), which of approve / pause / resume / cancel a run's state allows and
// why not, and how far a run has come.
import { DAY_MS, HOUR_SECONDS, MINUTE_SECONDS } from "../engine/time-units.ts";
import type { Tone } from "./status.ts";
import {
  FINAL_RUN_STATES,
  type UpdateRunAnswer,
  type UpdateRunItemState,
  type UpdateRunStageState,
  type UpdateRunState,
  type UpdateRunTarget,
} from "../api/update-runs.ts";

type Stage = UpdateRunAnswer["stages"][number];
type Item = Stage["items"][number];

export interface StateMeta {
  readonly word: string;
  readonly tone: Tone;
  /** Which icon the badge shows (components/update-runs/run-state-badge.tsx). */
  readonly icon: "clock" | "running" | "approval" | "paused" | "done" | "failed" | "cancelled" | "soak" | "gate";
}

// A Record, so that a new run state cannot be missing from the pages.
export const RUN_STATE_META: Record<UpdateRunState, StateMeta> = {
  Pending: { word: "Pending", tone: "grey", icon: "clock" },
  Running: { word: "Running", tone: "blue", icon: "running" },
  WaitingForApproval: { word: "Waiting for approval", tone: "violet", icon: "approval" },
  Paused: { word: "Paused", tone: "amber", icon: "paused" },
  Succeeded: { word: "Succeeded", tone: "green", icon: "done" },
  Failed: { word: "Failed", tone: "red", icon: "failed" },
  Cancelled: { word: "Cancelled", tone: "grey", icon: "cancelled" },
};

/** Whether a run has ended: nothing more happens, no action applies. */
export const isFinalRun = (state: UpdateRunState) => FINAL_RUN_STATES.includes(state);

// A Record each, so that a new stage or cluster state cannot be missing from the pages.
export const STAGE_STATE_META: Record<UpdateRunStageState, StateMeta> = {
  Pending: { word: "Not begun", tone: "grey", icon: "clock" },
  WaitingForApproval: { word: "Waiting for approval", tone: "violet", icon: "approval" },
  Acting: { word: "Updating", tone: "blue", icon: "running" },
  Gating: { word: "Health gate", tone: "blue", icon: "gate" },
  Soaking: { word: "Soaking", tone: "blue", icon: "soak" },
  Succeeded: { word: "Succeeded", tone: "green", icon: "done" },
  Failed: { word: "Failed", tone: "red", icon: "failed" },
  Cancelled: { word: "Cancelled", tone: "grey", icon: "cancelled" },
};

export const ITEM_STATE_META: Record<UpdateRunItemState, StateMeta> = {
  Pending: { word: "Pending", tone: "grey", icon: "clock" },
  Acting: { word: "Updating", tone: "blue", icon: "running" },
  Succeeded: { word: "Succeeded", tone: "green", icon: "done" },
  Failed: { word: "Failed", tone: "red", icon: "failed" },
  Refused: { word: "Refused", tone: "red", icon: "failed" },
  Cancelled: { word: "Cancelled", tone: "grey", icon: "cancelled" },
};

/** "InWindow" -> "In window". */
const words = (state: string) =>
  state.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/ ([A-Z])(?=[a-z])/g, (_, c: string) => ` ${c.toLowerCase()}`);

/** A stage's state: one word, one tone, one icon (a state this page does not know yet: its words). */
export function stageStateMeta(state: string): StateMeta {
  return STAGE_STATE_META[state as UpdateRunStageState] ?? { word: words(state), tone: "grey", icon: "clock" };
}

/** A cluster's state in a run: one word, one tone, one icon. */
export function itemStateMeta(state: string): StateMeta {
  return ITEM_STATE_META[state as UpdateRunItemState] ?? { word: words(state), tone: "grey", icon: "clock" };
}

/** The states in which a stage or a cluster is done with (succeeded, failed or left alone). */
const DONE_PARTS = new Set<string>(["Succeeded", "Failed", "Cancelled", "Refused"]);
export const isDonePart = (state: string) => DONE_PARTS.has(state);

/** "Kubernetes 1.33 (its latest patch)", "Kubernetes 1.33.4", "Machine image gardenlinux 1592.3", "Maintain now". */
export function targetText(target: UpdateRunTarget): string {
  if ("action" in target) return "Maintain now (the updates each cluster's maintenance would make)";
  if ("machineImage" in target) return `Machine image ${target.machineImage.name} ${target.machineImage.version}`;
  if (target.kubernetes === "latest-patch") return "Kubernetes: the latest patch of each cluster's minor";
  return /^\d+\.\d+$/.test(target.kubernetes)
    ? `Kubernetes ${target.kubernetes} (its latest patch)`
    : `Kubernetes ${target.kubernetes}`;
}

/** "Maintain now", "Kubernetes 1.33", "gardenlinux 1592.3": for a table cell. */
export function targetShort(target: UpdateRunTarget): string {
  if ("action" in target) return "Maintain now";
  if ("machineImage" in target) return `${target.machineImage.name} ${target.machineImage.version}`;
  return target.kubernetes === "latest-patch" ? "Latest patch" : `Kubernetes ${target.kubernetes}`;
}

/** "none", "45 s", "10 min", "1 h 30 min", "2 d 4 h". */
export function durationText(seconds: number): string {
  if (seconds <= 0) return "none";
  if (seconds < MINUTE_SECONDS) return `${seconds} s`;
  const days = Math.floor(seconds / (24 * HOUR_SECONDS));
  const hours = Math.floor((seconds % (24 * HOUR_SECONDS)) / HOUR_SECONDS);
  const minutes = Math.floor((seconds % HOUR_SECONDS) / MINUTE_SECONDS);
  const rest = seconds % MINUTE_SECONDS;
  const parts = [
    days > 0 ? `${days} d` : "",
    hours > 0 ? `${hours} h` : "",
    days === 0 && minutes > 0 ? `${minutes} min` : "",
    days === 0 && hours === 0 && rest > 0 ? `${rest} s` : "",
  ].filter(Boolean);
  return parts.join(" ");
}

/**
 * A moment as short as it can be said from `now`: "14:05 (13:05 UTC)" today, "Tue 1 Dec, 14:05
 * (1 Dec, 13:05 UTC)" on another day. `timeZone` is the browser's unless a test names one.
 */
export function momentText(at: string | number, now: number, timeZone?: string): string {
  const t = typeof at === "number" ? at : Date.parse(at);
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const day = (ms: number, tz: string) =>
    new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" }).format(ms);
  const time = (tz: string) =>
    new Intl.DateTimeFormat("en-GB", { timeZone: tz, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(t);
  const date = (tz: string, weekday: boolean) =>
    new Intl.DateTimeFormat("en-GB", {
      timeZone: tz,
      ...(weekday ? { weekday: "short" as const } : {}),
      day: "numeric",
      month: "short",
    })
      .format(t)
      .replace(",", "");
  const sameLocal = day(t, zone) === day(now, zone) && Math.abs(t - now) < DAY_MS;
  const sameUtc = day(t, "UTC") === day(now, "UTC") && Math.abs(t - now) < DAY_MS;
  const local = sameLocal ? time(zone) : `${date(zone, true)}, ${time(zone)}`;
  const utc = sameUtc ? `${time("UTC")} UTC` : `${date("UTC", false)}, ${time("UTC")} UTC`;
  return `${local} (${utc})`;
}

/** The clusters that hold a health gate, as "ns/name" (with the reason) for a sentence. */
const holdingList = (holding: NonNullable<Stage["holding"]>, shown: number) => {
  const named = holding.slice(0, shown).map((h) => `${h.namespace}/${h.name} (${h.reason})`);
  const more = holding.length - named.length;
  return more > 0 ? `${named.join(", ")} and ${more} more` : named.join(", ");
};

/**
 * What a stage waits for, in words, or undefined when it waits for nothing (not started, done,
 * or its clusters are being updated). The run's own state decides approval and pause; the stage's
 * moments decide soak, the gate and the windows.
 */
export function stageWaitText(
  stage: Stage,
  run: Pick<UpdateRunAnswer, "state" | "stages">,
  now: number,
  timeZone?: string,
): string | undefined {
  if (isFinalRun(run.state) || isDonePart(stage.state)) return undefined;
  const holding = stage.holding ?? [];
  if (holding.length > 0) {
    const n = holding.length;
    return `Health gate: ${n} ${n === 1 ? "cluster holds" : "clusters hold"} it: ${holdingList(holding, 3)}.`;
  }
  if (run.state === "WaitingForApproval" && (stage.state === "WaitingForApproval" || approvalStage(run) === stage))
    return "Waiting for approval before it starts.";
  if (stage.soakUntil && Date.parse(stage.soakUntil) > now)
    return `Soaking until ${momentText(stage.soakUntil, now, timeZone)}.`;
  if (stage.state === "Gating") return "Health gate: waiting for every cluster to stay healthy long enough.";
  // A stage not yet begun waits for the one before it: that one says what it waits for.
  if (stage.state !== "Acting") return undefined;
  const due = stage.items
    .filter((i) => !isDonePart(i.state) && i.dueAt !== undefined && Date.parse(i.dueAt) > now)
    .map((i) => Date.parse(i.dueAt!))
    .sort((a, b) => a - b);
  if (due.length > 0) {
    const n = due.length;
    return `Waiting for ${n === 1 ? "a cluster's maintenance window" : `${n} clusters' maintenance windows`}: the next at ${momentText(due[0]!, now, timeZone)}.`;
  }
  return undefined;
}

/** The stage a run waiting for approval waits to start: the first that needs one and has not started. */
function approvalStage(run: Pick<UpdateRunAnswer, "stages">): Stage | undefined {
  return run.stages.find((s) => s.state === "WaitingForApproval") ?? run.stages.find((s) => s.approval && !s.startedAt);
}

export type RunAction = "approve" | "pause" | "resume" | "cancel";

export interface ActionAllowance {
  readonly enabled: boolean;
  /** Why not, when the run's state does not allow it. */
  readonly reason?: string;
}

/** Which actions the run's state allows, and why not for the others. */
export function runActions(state: UpdateRunState): Record<RunAction, ActionAllowance> {
  const word = RUN_STATE_META[state].word.toLowerCase();
  if (isFinalRun(state)) {
    const over: ActionAllowance = { enabled: false, reason: `The run has ended (${word}).` };
    return { approve: over, pause: over, resume: over, cancel: over };
  }
  return {
    approve:
      state === "WaitingForApproval"
        ? { enabled: true }
        : { enabled: false, reason: `Nothing waits for approval: the run is ${word}.` },
    pause: state === "Paused" ? { enabled: false, reason: "The run is already paused." } : { enabled: true },
    resume:
      state === "Paused" ? { enabled: true } : { enabled: false, reason: `The run is not paused: it is ${word}.` },
    cancel: { enabled: true },
  };
}

/** How far the run has come: clusters done with, of all, and the stages done. */
export function runProgress(run: Pick<UpdateRunAnswer, "stages">): {
  done: number;
  total: number;
  stagesDone: number;
  failed: number;
} {
  const items: Item[] = run.stages.flatMap((s) => s.items);
  return {
    done: items.filter((i) => isDonePart(i.state)).length,
    total: items.length,
    stagesDone: run.stages.filter((s) => isDonePart(s.state)).length,
    failed: items.filter((i) => i.state === "Failed" || i.state === "Refused").length,
  };
}

/** Counts of a stage's clusters by state, in the order the states first appear. */
export function itemCounts(items: readonly Item[]): readonly { state: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.state, (counts.get(item.state) ?? 0) + 1);
  return [...counts].map(([state, count]) => ({ state, count }));
}

/** A field of a change as people say it: "Kubernetes version", "worker pool-a's image version". */
export function changeFieldText(field: string): string {
  if (field === "spec.kubernetes.version") return "Kubernetes version";
  const worker = /^spec\.provider\.workers\[(?:name=)?([^\]]+)\]\.(.+)$/.exec(field);
  if (worker) {
    const rest = worker[2]!;
    const what =
      rest === "machine.image.version" || rest === "machineImage"
        ? "image version"
        : rest === "machine.image.name"
          ? "image"
          : rest === "kubernetes.version"
            ? "Kubernetes version"
            : rest;
    return `worker ${worker[1]}: ${what}`;
  }
  return field.replace(/^spec\./, "");
}

const valueText = (value: unknown) =>
  value === null || value === undefined
    ? "none"
    : typeof value === "string" || typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : JSON.stringify(value);

/** "Kubernetes version 1.32.5 → 1.33.2". */
export function changeText(change: { field: string; before: unknown; after: unknown }): string {
  return `${changeFieldText(change.field)} ${valueText(change.before)} → ${valueText(change.after)}`;
}

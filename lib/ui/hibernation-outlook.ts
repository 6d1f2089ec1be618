// What a set of hibernation schedules means, as the editor says it while it is typed: each schedule
// in words, the next hibernate and wake-up moments, and the warnings an operator needs before
// saving: a schedule that never wakes the cluster, nights that swallow the maintenance window
// (Gardener updates a hibernated cluster's spec in the window, but the new versions run only once
// it wakes up), and a HibernationPossible constraint that keeps Gardener from hibernating it at all.
// The moments and the words are the engine's (lib/engine/hibernation-schedule.ts).
import {
  describeHibernationSchedule,
  hibernationMoments,
  neverWakes,
  nextHibernationMoments,
  scheduledHibernatedAt,
  validateHibernationSchedules,
  type HibernationSchedule,
} from "../engine/hibernation-schedule.ts";
import { blockingHibernationConstraint } from "../engine/hibernation-admission.ts";
import type { Condition } from "../gardener/types.ts";
import { nextOccurrences, type Occurrence, type StoredWindow } from "./maintenance-window.ts";

/** A schedule in words, or undefined while it does not parse (its field says why). */
export function scheduleInWords(schedule: HibernationSchedule): string | undefined {
  if (!schedule.start && !schedule.end) return undefined;
  if (validateHibernationSchedules([schedule]).length > 0) return undefined;
  try {
    return describeHibernationSchedule(schedule);
  } catch {
    return undefined;
  }
}

/** The schedules that parse (the others are left out of the moments until they are fixed). */
export const validSchedules = (schedules: readonly HibernationSchedule[]) =>
  schedules.filter((s) => (s.start || s.end) && validateHibernationSchedules([s]).length === 0);

export interface NextMoments {
  readonly hibernateAt?: Date;
  readonly wakeAt?: Date;
}

/** The next hibernate and wake-up moments at or after `now`, across the schedules that parse. */
export function nextMoments(schedules: readonly HibernationSchedule[], now: Date): NextMoments {
  const valid = validSchedules(schedules);
  return valid.length > 0 ? nextHibernationMoments(valid, now) : {};
}

export type WarningKind = "never-wakes" | "maintenance" | "constraint";

export interface ScheduleWarning {
  readonly kind: WarningKind;
  readonly text: string;
}

/** How far ahead the maintenance windows are checked: two weeks cover every weekly pattern. */
export const OVERLAP_DAYS = 14;

/**
 * The maintenance windows of the next `days` during which the schedules keep the cluster
 * hibernated (at their start, or from a moment inside them).
 */
export function windowsWhileHibernated(
  schedules: readonly HibernationSchedule[],
  window: StoredWindow,
  now: Date,
  days = OVERLAP_DAYS,
): Occurrence[] {
  const valid = validSchedules(schedules);
  if (!valid.some((s) => s.start)) return [];
  const occurrences = nextOccurrences(window, now, days);
  if (occurrences.length === 0) return [];
  const first = occurrences[0].start;
  const last = occurrences.at(-1)!.end;
  const moments = hibernationMoments(valid, first, last);
  let asleep = scheduledHibernatedAt(valid, first) === true;
  let next = 0;
  const hit: Occurrence[] = [];
  for (const o of occurrences) {
    // The state at the window's start: the last moment before it decides.
    while (next < moments.length && moments[next].at.getTime() <= o.start.getTime()) {
      asleep = moments[next].action === "hibernate";
      next++;
    }
    let during = asleep;
    let k = next;
    while (k < moments.length && moments[k].at.getTime() < o.end.getTime()) {
      if (moments[k].action === "hibernate") during = true;
      k++;
    }
    if (during) hit.push(o);
  }
  return hit;
}

const utcWindowStart = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

export interface WarningInput {
  readonly schedules: readonly HibernationSchedule[];
  readonly window?: StoredWindow;
  readonly constraints?: readonly Condition[];
  readonly now: Date;
}

/** The warnings the schedules deserve, most serious first. */
export function scheduleWarnings({ schedules, window, constraints, now }: WarningInput): ScheduleWarning[] {
  const valid = validSchedules(schedules);
  const warnings: ScheduleWarning[] = [];
  if (valid.length === 0) return warnings;
  const hibernates = valid.some((s) => s.start);
  const blocking = hibernates ? blockingHibernationConstraint(constraints) : undefined;
  if (blocking) {
    warnings.push({
      kind: "constraint",
      text:
        `Gardener will not hibernate this cluster while its HibernationPossible constraint is ${blocking.status}` +
        `${blocking.message ? ` (${blocking.message.replace(/\.$/, "")})` : ""}: the schedule has no effect until the constraint is True again. ` +
        "Webhooks that act on pods or nodes in kube-system and fail closed (or time out after more than 15 s) could keep the cluster from waking up.",
    });
  }
  if (neverWakes(valid)) {
    warnings.push({
      kind: "never-wakes",
      text: "No schedule wakes the cluster up: once hibernated it stays asleep until someone wakes it. Add a wake-up time to a schedule, or remove this one.",
    });
  }
  if (window) {
    const hit = windowsWhileHibernated(valid, window, now);
    if (hit.length > 0) {
      const first = `${utcWindowStart.format(hit[0].start)} UTC`;
      const more = hit.length > 1 ? ` and ${hit.length - 1} more of the next ${OVERLAP_DAYS} days' windows` : "";
      warnings.push({
        kind: "maintenance",
        text:
          `The cluster sleeps through its maintenance window on ${first}${more}. ` +
          "Gardener still updates its spec in the window, but a hibernated cluster runs the new versions only once it wakes up, " +
          "and an automatic etcd encryption key rotation skips it. Wake it before the window, or move the window to a time it is awake.",
      });
    }
  }
  return warnings;
}

/** Whether the schedules keep the cluster hibernated at `at` (for a planned update's mark). */
export function asleepAt(schedules: readonly HibernationSchedule[], at: Date): boolean {
  const valid = validSchedules(schedules);
  return valid.length > 0 && scheduledHibernatedAt(valid, at) === true;
}

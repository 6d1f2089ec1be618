// What Gardener's shoot hibernation controller (gardener-controller-manager,
// pkg/controllermanager/controller/shoot/hibernation) does at a moment of a shoot's schedules:
// it sets spec.hibernation.enabled as the most recent moment says (hibernate: true, wake: false)
// and status.lastHibernationTriggerTime, then waits for the next moment. It leaves a shoot being
// deleted, a shoot whose schedules are gone or invalid, and a Failed shoot that is up to date.
// The gardenlet then reconciles the new generation (the simulated garden's reconcile job) and
// status.hibernated follows. gardener-apiserver still refuses to hibernate a shoot whose
// HibernationPossible constraint is not True (the controller's patch fails; it tries again later).
import type { Shoot } from "../gardener/types.ts";
import { validateShootHibernation } from "./hibernation-admission.ts";
import {
  type HibernationSchedule,
  nextHibernationMoments,
  scheduledHibernatedAt,
  validateHibernationSchedules,
} from "./hibernation-schedule.ts";
import { isShootFailedAndUpToDate } from "./shoot-operation.ts";

export interface ScheduledHibernation {
  /** The shoot as the controller patches it, when spec.hibernation.enabled changes. */
  readonly shoot?: Shoot;
  /** Why the shoot stays as it is, when it does. */
  readonly skipped?: string;
  /** The next moment of the schedules after `now`; none when they never fire again (or are gone). */
  readonly next?: Date;
}

/** The schedules of a shoot, or none. */
export function shootHibernationSchedules(shoot: Pick<Shoot, "spec">): readonly HibernationSchedule[] {
  const schedules = shoot.spec.hibernation?.schedules;
  return Array.isArray(schedules) ? schedules : [];
}

/** The first hibernate or wake moment after `after`. */
export function nextScheduledMoment(schedules: readonly HibernationSchedule[], after: number): Date | undefined {
  const { hibernateAt, wakeAt } = nextHibernationMoments(schedules, new Date(after + 1));
  const times = [hibernateAt, wakeAt].filter((d): d is Date => d !== undefined).map((d) => d.getTime());
  return times.length > 0 ? new Date(Math.min(...times)) : undefined;
}

/** The hibernation controller's reconcile of `shoot` at `now`. */
export function scheduledHibernation(shoot: Shoot, now: number): ScheduledHibernation {
  const schedules = shootHibernationSchedules(shoot);
  if (shoot.metadata.deletionTimestamp) return { skipped: "the shoot is being deleted" };
  if (schedules.length === 0) return { skipped: "the shoot has no hibernation schedules" };
  if (validateHibernationSchedules(schedules).length > 0) return { skipped: "the hibernation schedules are invalid" };
  const next = nextScheduledMoment(schedules, now);
  const at = next ? { next } : {};
  if (isShootFailedAndUpToDate(shoot)) return { skipped: "the shoot is in a Failed state", ...at };
  const hibernate = scheduledHibernatedAt(schedules, new Date(now));
  if (hibernate === undefined) return { skipped: "no moment of the schedules has come yet", ...at };
  if ((shoot.spec.hibernation?.enabled === true) === hibernate) {
    return { skipped: hibernate ? "the shoot is hibernated already" : "the shoot is awake already", ...at };
  }
  const patched: Shoot = structuredClone(shoot);
  patched.spec.hibernation = { ...patched.spec.hibernation, enabled: hibernate };
  patched.status = { ...patched.status, lastHibernationTriggerTime: new Date(now).toISOString() };
  const refusal = validateShootHibernation(shoot, patched);
  if (refusal) return { skipped: refusal.detail, ...at };
  return { shoot: patched, ...at };
}

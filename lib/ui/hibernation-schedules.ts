// The shoot's hibernation schedules as Gardener stores them (spec.hibernation.schedules), read
// without the cron engine, so that a page can ask whether a shoot has any before it loads the code
// that computes their moments.
import type { HibernationSchedule } from "../engine/hibernation-schedule.ts";
import type { Shoot } from "./api-types.ts";

const text = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The shoot's schedules as Gardener stores them (anything else in the list is left out). */
export function schedulesOf(shoot: Pick<Shoot, "spec">): HibernationSchedule[] {
  const list = shoot.spec.hibernation?.schedules;
  if (!Array.isArray(list)) return [];
  return list
    .filter((s): s is Record<string, unknown> => typeof s === "object" && s !== null)
    .map((s) => {
      const start = text(s.start);
      const end = text(s.end);
      const location = text(s.location);
      return {
        ...(start !== undefined ? { start } : {}),
        ...(end !== undefined ? { end } : {}),
        ...(location !== undefined ? { location } : {}),
      };
    });
}

/** Whether two lists of schedules are the same (a missing zone and "UTC" differ: Gardener stores them so). */
export const sameSchedules = (a: readonly HibernationSchedule[], b: readonly HibernationSchedule[]) =>
  a.length === b.length &&
  a.every((s, i) => s.start === b[i].start && s.end === b[i].end && s.location === b[i].location);

// When a shoot's next maintenance runs: at a stable moment inside its effective window (the
// window minus its last 15 minutes), begin + crc32(uid) mod the window's minutes, as Gardener
// spreads shoots that share a window.
import type { Shoot } from "../gardener/types.ts";
import { DAY_MS, DAY_SECONDS, SECOND_MS } from "./time-units.ts";
import { effectiveWindow, randomizeWithinTimeWindow, type TimeWindow, windowDurationSeconds } from "./time-window.ts";

export interface MaintenanceMoment {
  /** epoch ms of the run */
  readonly at: number;
  /** epoch ms of the effective window occurrence that holds it */
  readonly begin: number;
  readonly end: number;
}

/** Seconds from the window's begin to the shoot's moment in it. */
function maintenanceOffsetSeconds(window: TimeWindow, uid: string): number {
  const offset = randomizeWithinTimeWindow(window, uid) - window.begin;
  return ((offset % DAY_SECONDS) + DAY_SECONDS) % DAY_SECONDS;
}

/** The first maintenance moment in `window` at `offsetSeconds` that is at or after `from`. */
function nextMomentInWindow(window: TimeWindow, offsetSeconds: number, from: number): MaintenanceMoment {
  const midnight = from - (((from % DAY_MS) + DAY_MS) % DAY_MS);
  const duration = windowDurationSeconds(window) * SECOND_MS;
  for (let day = -1; day <= 2; day++) {
    const begin = midnight + day * DAY_MS + window.begin * SECOND_MS;
    const at = begin + offsetSeconds * SECOND_MS;
    if (at >= from) return { at, begin, end: begin + duration };
  }
  throw new Error("unreachable: a window occurs every day");
}

/** The shoot's next maintenance moment at or after `from` (epoch ms). */
export function nextMaintenanceMoment(shoot: Pick<Shoot, "spec" | "metadata">, from: number): MaintenanceMoment {
  const window = effectiveWindow(shoot);
  return nextMomentInWindow(window, maintenanceOffsetSeconds(window, shoot.metadata.uid ?? ""), from);
}

/**
 * The second of the UTC day at which the shoot's maintenance runs, every day (0 to 86399): what
 * stays true of its next maintenance moment however time passes.
 */
export function maintenanceSecondOfDay(shoot: Pick<Shoot, "spec" | "metadata">): number {
  const window = effectiveWindow(shoot);
  return (window.begin + maintenanceOffsetSeconds(window, shoot.metadata.uid ?? "")) % DAY_SECONDS;
}

/** The first moment at or after `from` (epoch ms) that falls on `secondOfDay` (UTC). */
export function nextAtSecondOfDay(secondOfDay: number, from: number): number {
  const midnight = from - (((from % DAY_MS) + DAY_MS) % DAY_MS);
  const today = midnight + secondOfDay * SECOND_MS;
  return today >= from ? today : today + DAY_MS;
}

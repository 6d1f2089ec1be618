// Maintenance time windows: `HHMMSS±HHMM` bounds converted to a UTC time of day, containment,
// duration, the effective window and the next window the controller requeues for (Gardener:
// pkg/apis/utils/timewindow/timewindow.go and schedule.go; the effective window is
// EffectiveShootMaintenanceTimeWindow in pkg/utils/gardener/shoot.go).
import type { Shoot } from "../gardener/types.ts";
import { crc32 } from "./crc32.ts";
import type { FieldError } from "./field-error.ts";
import { DAY_MS, DAY_SECONDS, HOUR_MS, HOUR_SECONDS, MINUTE_SECONDS, SECOND_MS } from "./time-units.ts";

const DAY = DAY_SECONDS;

/** A bound as a UTC time of day in whole seconds (0 .. 86399). */
export type TimeOfDay = number;

export interface TimeWindow {
  readonly begin: TimeOfDay;
  readonly end: TimeOfDay;
}

// Gardener's AlwaysTimeWindow; exported for the unit tests.
export const ALWAYS_WINDOW: TimeWindow = { begin: 0, end: DAY - 1 };

/** A bound as Gardener writes it, `HHMMSS±HHMM`: hour, minute, second, sign, offset hours and minutes. */
export const WINDOW_BOUND_PATTERN = /^(\d{2})(\d{2})(\d{2})([+-])(\d{2})(\d{2})$/;

// Exported so the unit tests can tell a rejected bound from any other error.
export class TimeWindowParseError extends Error {}

/** Parses one bound like Go's time.Parse("150405-0700") and converts it to UTC. */
export function parseBound(text: string): TimeOfDay {
  const m = WINDOW_BOUND_PATTERN.exec(text);
  const layoutError = (why: string) => new TimeWindowParseError(`parsing time "${text}" as "150405-0700": ${why}`);
  if (!m) throw layoutError("expected HHMMSS followed by an offset +HHMM or -HHMM");
  const [hh, mm, ss, sign, oh, om] = [Number(m[1]), Number(m[2]), Number(m[3]), m[4], Number(m[5]), Number(m[6])];
  if (hh > 23) throw layoutError("hour out of range");
  if (mm > 59) throw layoutError("minute out of range");
  if (ss > 59) throw layoutError("second out of range");
  if (oh > 24 || om > 60) throw layoutError("time zone offset out of range");
  const offset = (sign === "+" ? 1 : -1) * (oh * HOUR_SECONDS + om * MINUTE_SECONDS);
  return mod(hh * HOUR_SECONDS + mm * MINUTE_SECONDS + ss - offset, DAY);
}

export function parseTimeWindow(begin: string, end: string): TimeWindow {
  return { begin: parseBound(begin), end: parseBound(end) };
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** `HH:MM:SS`, Gardener's String(); exported for the unit tests. */
export function formatClock(t: TimeOfDay): string {
  return `${pad(Math.floor(t / HOUR_SECONDS))}:${pad(Math.floor((t % HOUR_SECONDS) / MINUTE_SECONDS))}:${pad(t % MINUTE_SECONDS)}`;
}

/** `HHMMSS+0000`, Gardener's Formatted(). */
export function formatBound(t: TimeOfDay): string {
  return `${formatClock(t).replaceAll(":", "")}+0000`;
}

function secondOfDay(at: number): TimeOfDay {
  return Math.floor(mod(at, DAY_MS) / SECOND_MS);
}

/** Whether the window holds the moment `at` (epoch ms). Both bounds are inclusive. */
export function windowContains(w: TimeWindow, at: number): boolean {
  const t = secondOfDay(at);
  if (w.end < w.begin) return t <= w.end || t >= w.begin;
  return w.begin <= t && t <= w.end;
}

/** Length in seconds; begin == end is a whole day. */
export function windowDurationSeconds(w: TimeWindow): number {
  return w.end <= w.begin ? w.end - w.begin + DAY : w.end - w.begin;
}

/** Gardener's bounds on a window's length, in seconds (validateMaintenance: 30m0s to 6h0m0s). */
export const MIN_WINDOW_SECONDS = 30 * MINUTE_SECONDS;
export const MAX_WINDOW_SECONDS = 6 * HOUR_SECONDS;

/** Which length bound a window of `seconds` breaks, if any (the rule validateTimeWindow applies). */
export function windowLengthProblem(seconds: number): "too-long" | "too-short" | undefined {
  if (seconds > MAX_WINDOW_SECONDS) return "too-long";
  if (seconds < MIN_WINDOW_SECONDS) return "too-short";
  return undefined;
}

/**
 * Validation of `spec.maintenance.timeWindow` (Gardener: pkg/api/core/validation/shoot.go,
 * validateMaintenance).
 */
export function validateTimeWindow(
  window: { begin?: unknown; end?: unknown },
  path = "spec.maintenance.timeWindow",
): FieldError[] {
  let parsed: TimeWindow;
  try {
    if (typeof window.begin !== "string") throw new TimeWindowParseError("begin must be a string like 220000+0100");
    if (typeof window.end !== "string") throw new TimeWindowParseError("end must be a string like 230000+0100");
    parsed = parseTimeWindow(window.begin, window.end);
  } catch (e) {
    return [{ type: "Invalid", field: `${path}.begin/end`, value: window, detail: (e as Error).message }];
  }
  const length = windowLengthProblem(windowDurationSeconds(parsed));
  if (length === "too-long")
    return [{ type: "Invalid", field: path, value: window, detail: "time window must not be greater than 6h0m0s" }];
  if (length === "too-short")
    return [{ type: "Invalid", field: path, value: window, detail: "time window must not be smaller than 30m0s" }];
  return [];
}

/** The window maintenance really runs in: [begin, end - 15 min], or always without a valid window. */
export function effectiveWindow(shoot: Pick<Shoot, "spec">): TimeWindow {
  const tw = shoot.spec.maintenance?.timeWindow;
  if (!tw) return ALWAYS_WINDOW;
  try {
    const w = parseTimeWindow(tw.begin, tw.end);
    return { begin: w.begin, end: mod(w.end - 15 * MINUTE_SECONDS, DAY) };
  } catch {
    return ALWAYS_WINDOW;
  }
}

export interface WindowOccurrence {
  /** epoch ms */
  readonly begin: number;
  readonly end: number;
  /** The reference moment, moved by a day when a contained window was shifted. */
  readonly from: number;
}

/**
 * The occurrence of the window that RandomDurationUntilNext picks from `from` (Gardener:
 * pkg/apis/utils/timewindow/timewindow.go, MaintenanceTimeWindow.RandomDurationUntilNext).
 * The controller then requeues for a random moment between its begin and its end.
 */
export function nextWindowOccurrence(w: TimeWindow, from: number, shiftBeginIfContained = false): WindowOccurrence {
  const midnight = from - mod(from, DAY_MS);
  let begin = midnight + w.begin * SECOND_MS;
  let end = midnight + w.end * SECOND_MS;
  if (w.end <= w.begin) end += DAY_MS;
  const contained = windowContains(w, from);
  if (shiftBeginIfContained && contained) {
    const fromHour = Math.floor(mod(from, DAY_MS) / HOUR_MS);
    const d = fromHour < Math.floor(w.begin / HOUR_SECONDS) ? 1 : 0;
    begin = from + d * DAY_MS;
    from = from + d * DAY_MS;
  }
  if (begin < from && (contained || from > end)) {
    begin += DAY_MS;
    end += DAY_MS;
  }
  return { begin, end, from };
}

/** A stable moment in the window for a shoot: begin + crc32(uid) mod duration (in minutes). */
export function randomizeWithinTimeWindow(w: TimeWindow, uid: string): TimeOfDay {
  const minutes = Math.floor(windowDurationSeconds(w) / MINUTE_SECONDS);
  if (minutes <= 0) return w.begin;
  return mod(w.begin + (crc32(uid) % minutes) * MINUTE_SECONDS, DAY);
}

/**
 * The window Gardener gives a new shoot without one: a random hour, one hour long, in UTC. Unused
 * by the app so far (it creates no shoots); kept as the "random default" docs/architecture.md lists.
 */
export function randomDefaultWindow(random: () => number): { begin: string; end: string } {
  const hour = Math.min(22, Math.floor(random() * 23));
  return { begin: `${pad(hour)}0000+0000`, end: `${pad(hour + 1)}0000+0000` };
}

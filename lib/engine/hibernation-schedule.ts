// Hibernation schedules as Gardener reads them (spec.hibernation.schedules): each schedule has a
// cron `start` (hibernate) and/or `end` (wake up) and an IANA `location` (default UTC).
//
// Gardener parses them with robfig/cron v1.2.0's ParseStandard (pkg/utils/hibernation and
// pkg/api/core/validation ValidateHibernationSchedules). Croner walks the calendar for us, but its
// dialect is wider and its DST rules differ, so this module guards every difference:
//  - Syntax: robfig accepts exactly five fields (or a descriptor such as @daily); numbers, 3-letter
//    month/day names (any case), `*`/`?`, ranges `a-b`, steps `/n`, lists; `N/n` means `N-max/n`;
//    day of week 0-6 (7 is an error). Croner also accepts 6/7 fields, L, W, #, `+`, 7 = Sunday and
//    refuses `N/n`: we parse robfig's grammar ourselves and hand croner plain number lists.
//    `@every <duration>` (robfig only) is refused: it counts from the moment it is parsed, which
//    means nothing for a schedule read later (Gardener would take it; we answer 422).
//  - Day of month / day of week: robfig combines them with AND when either field starts with `*` or
//    `?` (even `*/2`), else with OR; croner decides by an exact `*` only. We pass domAndDow per
//    pattern so croner follows robfig.
//  - DST: robfig walks real time and compares the wall clock in the location, so a wall time that
//    does not exist (Europe/Berlin 02:30 on the spring-forward day) never fires that day, and one
//    that exists twice (02:30 on the fall-back day) fires twice, once per offset. Croner moves a
//    "fixed-time" job after a gap and runs it once in an overlap. So croner enumerates wall times
//    in UTC (no DST) and we map each wall time to every instant that reads so in the location.
import { Cron } from "croner";
import cronstrue from "cronstrue";
import type { FieldError } from "./field-error.ts";

export interface HibernationSchedule {
  readonly start?: string;
  readonly end?: string;
  readonly location?: string;
}

export type HibernationAction = "hibernate" | "wake";

export interface HibernationMoment {
  readonly at: Date;
  readonly action: HibernationAction;
  /** The index of the schedule in spec.hibernation.schedules. */
  readonly schedule: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** No zone moves its clock by more than this at once; wall-time windows are widened by it. */
const DST_MARGIN = 3 * HOUR;
const YEAR = 366 * DAY;

// ---------------------------------------------------------------------------------------------
// robfig/cron v1 standard grammar

interface FieldBounds {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const MONTH_NAMES: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
}; // prettier-ignore
const DAY_NAMES: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

const FIELDS: readonly FieldBounds[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: MONTH_NAMES },
  { name: "day of week", min: 0, max: 6, names: DAY_NAMES },
];

const DESCRIPTORS: Readonly<Record<string, string>> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

/** A cron spec parsed as robfig/cron's ParseStandard would, ready for croner. */
export interface ParsedCron {
  /** Five fields of plain number lists (or `*`), croner reads them exactly as robfig means them. */
  readonly pattern: string;
  /** robfig's rule: AND when day of month or day of week starts with `*` or `?`. */
  readonly domAndDow: boolean;
  /** The five fields as written (descriptors expanded), for words. */
  readonly written: string;
}

class CronSyntaxError extends Error {}

function parseNumber(text: string, bounds: FieldBounds): number {
  const named = bounds.names?.[text.toLowerCase()];
  if (named !== undefined) return named;
  if (!/^\d+$/.test(text)) {
    throw new CronSyntaxError(`Failed to parse int from ${text} (${bounds.name})`);
  }
  return Number(text);
}

function parseRange(expr: string, bounds: FieldBounds): { values: number[]; star: boolean } {
  const slash = expr.split("/");
  if (slash.length > 2) throw new CronSyntaxError(`Too many slashes: ${expr}`);
  const [rangeText, stepText] = slash as [string, string | undefined];
  const lowHigh = rangeText.split("-");
  let start: number;
  let end: number;
  let star = false;
  if (rangeText === "*" || rangeText === "?") {
    start = bounds.min;
    end = bounds.max;
    star = true;
  } else {
    if (lowHigh.length > 2) throw new CronSyntaxError(`Too many hyphens: ${expr}`);
    start = parseNumber(lowHigh[0]!, bounds);
    end = lowHigh.length === 2 ? parseNumber(lowHigh[1]!, bounds) : start;
  }
  let step = 1;
  if (stepText !== undefined) {
    if (!/^\d+$/.test(stepText)) throw new CronSyntaxError(`Failed to parse int from ${stepText} (${bounds.name})`);
    step = Number(stepText);
    if (step === 0) throw new CronSyntaxError(`Step of range should be a positive number: ${expr}`);
    // robfig: "N/step" means "N-max/step".
    if (!star && lowHigh.length === 1) end = bounds.max;
  }
  if (start < bounds.min)
    throw new CronSyntaxError(`Beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max) throw new CronSyntaxError(`End of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new CronSyntaxError(`Beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  const values: number[] = [];
  for (let v = start; v <= end; v += step) values.push(v);
  return { values, star };
}

function parseField(field: string, bounds: FieldBounds): { list: string; star: boolean } {
  const parts = field.split(",");
  if (parts.some((p) => p === "")) throw new CronSyntaxError(`Empty list item in ${bounds.name}: ${field}`);
  const values = new Set<number>();
  let star = false;
  for (const part of parts) {
    const range = parseRange(part, bounds);
    star ||= range.star;
    for (const v of range.values) values.add(v);
  }
  const sorted = [...values].sort((a, b) => a - b);
  const full = sorted.length === bounds.max - bounds.min + 1;
  return { list: full ? "*" : sorted.join(","), star };
}

/** Parses a cron spec as Gardener does (robfig/cron ParseStandard); throws with robfig-like words. */
export function parseHibernationCron(spec: string): ParsedCron {
  const trimmed = spec.trim();
  if (trimmed === "") throw new CronSyntaxError("Empty spec string");
  let written = trimmed;
  if (trimmed.startsWith("@")) {
    if (/^@every\s/.test(trimmed)) throw new CronSyntaxError("@every is not supported for hibernation schedules");
    const expanded = DESCRIPTORS[trimmed];
    if (!expanded) throw new CronSyntaxError(`Unrecognized descriptor: ${trimmed}`);
    written = expanded;
  }
  const fields = written.split(/\s+/);
  if (fields.length !== 5) {
    throw new CronSyntaxError(`Expected exactly 5 fields, found ${fields.length}: ${spec}`);
  }
  const parsed = fields.map((f, i) => parseField(f, FIELDS[i]!));
  const [dom, dow] = [parsed[2]!, parsed[4]!];
  return {
    pattern: parsed.map((p) => p.list).join(" "),
    domAndDow: dom.star || dow.star,
    written: fields.join(" "),
  };
}

function cronError(spec: string): string | undefined {
  try {
    parseHibernationCron(spec);
    return undefined;
  } catch (error) {
    if (error instanceof CronSyntaxError) return error.message;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Locations (Go's time.LoadLocation)

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(zone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    zoneFormats.set(zone, format);
  }
  return format;
}

/** The zone Go's time.LoadLocation would load: "" and "Local" are UTC (Gardener runs in UTC). */
function effectiveZone(location: string | undefined): string {
  return !location || location === "Local" ? "UTC" : location;
}

/** Why Go's time.LoadLocation would refuse the name, or undefined when it loads. */
function locationError(location: string): string | undefined {
  if (location === "" || location === "UTC" || location === "Local") return undefined;
  // Intl also takes offsets ("+01:00") and any letter case; the tz database (and Go) does not.
  if (/^[+-]/.test(location)) return `unknown time zone ${location}`;
  let resolved: string;
  try {
    resolved = zoneFormat(location).resolvedOptions().timeZone;
  } catch {
    return `unknown time zone ${location}`;
  }
  if (resolved !== location && resolved.toLowerCase() === location.toLowerCase()) {
    return `unknown time zone ${location}`;
  }
  return undefined;
}

/** The location's offset from UTC at the instant, in ms (local wall clock minus UTC), asking Intl. */
function exactZoneOffset(zone: string, instant: number): number {
  const whole = Math.floor(instant / 1000) * 1000;
  const parts = zoneFormat(zone).formatToParts(new Date(whole));
  const field = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(
    field("year"),
    field("month") - 1,
    field("day"),
    field("hour"),
    field("minute"),
    field("second"),
  );
  return wall - whole;
}

/** Per zone, per UTC hour: the offset through the whole hour, or null when it changes inside it. */
const hourOffsets = new Map<string, Map<number, number | null>>();
const HOUR_OFFSETS_KEPT = 100_000;

/** The location's offset from UTC at the instant, in ms (local wall clock minus UTC). Intl is
 *  slow (formatToParts per call), and schedules ask about every minute they fire, so the offset
 *  is asked once per hour: the same at the hour's first and last second means the same all hour
 *  (no zone moves its clock and back within one hour); otherwise this hour is asked per instant. */
function zoneOffset(zone: string, instant: number): number {
  if (zone === "UTC") return 0;
  let hours = hourOffsets.get(zone);
  if (!hours) {
    hours = new Map();
    hourOffsets.set(zone, hours);
  }
  const hour = Math.floor(instant / HOUR) * HOUR;
  let offset = hours.get(hour);
  if (offset === undefined) {
    const first = exactZoneOffset(zone, hour);
    offset = first === exactZoneOffset(zone, hour + HOUR - 1000) ? first : null;
    if (hours.size >= HOUR_OFFSETS_KEPT) hours.clear();
    hours.set(hour, offset);
  }
  return offset ?? exactZoneOffset(zone, instant);
}

/** Every instant whose wall clock in the zone reads `wall` (a UTC-based number): none in a DST
 *  gap, two in an overlap (earlier first), else one. */
function instantsOfWall(zone: string, wall: number): number[] {
  if (zone === "UTC") return [wall];
  const before = zoneOffset(zone, wall - DAY);
  const after = zoneOffset(zone, wall + DAY);
  const at = zoneOffset(zone, wall);
  // No clock change within a day either side: the wall time reads once, at the one offset.
  if (before === after && after === at) return [wall - at];
  const offsets = new Set([before, after, at]);
  const instants = [...offsets].map((o) => wall - o).filter((t) => zoneOffset(zone, t) === wall - t);
  return [...new Set(instants)].sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// Moments

interface ScheduleCron {
  readonly cron: Cron;
  readonly zone: string;
  readonly action: HibernationAction;
  readonly schedule: number;
  /** Gardener's order (schedule by schedule, start before end): the first wins a tie. */
  readonly order: number;
}

/** Per pattern: its cron, or null when it never fires. */
const cronCache = new Map<string, Cron | null>();

/** The cron of the wall times, or null when the spec names a day that never comes ("0 7 31 2 *":
 *  robfig parses it, so Gardener accepts it). Croner searches centuries for such a day on every
 *  call; asking once here keeps each listed row from paying that. */
function wallCron(parsed: ParsedCron): Cron | null {
  const key = `${parsed.pattern}|${parsed.domAndDow}`;
  let cron = cronCache.get(key);
  if (cron === undefined) {
    // Wall clock as UTC: croner applies no DST rule; instantsOfWall applies robfig's. A fixed
    // utcOffset of 0 means the same as timezone "UTC" but spares croner an Intl call per step.
    cron = new Cron(parsed.pattern, { utcOffset: 0, mode: "5-part", domAndDow: parsed.domAndDow });
    if (cron.nextRun(new Date(Date.UTC(2000, 0, 1))) === null) cron = null;
    if (cronCache.size > 1000) cronCache.clear();
    cronCache.set(key, cron);
  }
  return cron;
}

/**
 * The crons Gardener's hibernation controller would run (but those that never fire). Like Gardener
 * (hibernationutils.Parse), one invalid schedule means none run: the controller stops reconciling
 * the shoot.
 */
function scheduleCrons(schedules: readonly HibernationSchedule[]): ScheduleCron[] {
  // Every listed row asks again with its own copy of the schedules: validate and parse each
  // distinct list once.
  const key = JSON.stringify(schedules);
  let crons = scheduleCronsCache.get(key);
  if (!crons) {
    crons = parseScheduleCrons(schedules);
    if (scheduleCronsCache.size >= SCHEDULE_CRONS_KEPT) scheduleCronsCache.clear();
    scheduleCronsCache.set(key, crons);
  }
  return crons;
}

const scheduleCronsCache = new Map<string, ScheduleCron[]>();
const SCHEDULE_CRONS_KEPT = 1000;

function parseScheduleCrons(schedules: readonly HibernationSchedule[]): ScheduleCron[] {
  if (validateHibernationSchedules(schedules).length > 0) return [];
  const crons: ScheduleCron[] = [];
  let order = 0;
  const add = (spec: string, zone: string, action: HibernationAction, schedule: number) => {
    const cron = wallCron(parseHibernationCron(spec));
    if (cron) crons.push({ cron, zone, action, schedule, order });
    order++;
  };
  schedules.forEach((s, schedule) => {
    const zone = effectiveZone(s.location);
    if (s.start !== undefined) add(s.start, zone, "hibernate", schedule);
    if (s.end !== undefined) add(s.end, zone, "wake", schedule);
  });
  return crons;
}

// Wall times and instants: an instant t reads the wall time t + offset(t). Within DST_MARGIN the
// offset changes at most once, so over a short stretch its extremes are at the stretch's ends.

/** The earliest wall time read at or after `from`: from's own, or earlier if the clock falls
 *  back soon after (those wall times come round again). */
function firstWallFrom(zone: string, from: number): number {
  return from + Math.min(zoneOffset(zone, from), zoneOffset(zone, from + DST_MARGIN));
}

/** The latest wall time read at or before `at`: at's own, or later if the clock fell back just
 *  before (the wall time read then was ahead of at's). */
function lastWallUntil(zone: string, at: number): number {
  return at + Math.max(zoneOffset(zone, at), zoneOffset(zone, at - DST_MARGIN));
}

/** Instants of the cron in [from, to), in time order. (Walking wall times in order does not give
 *  instants in order: in a fall-back overlap 02:45 first-pass precedes 02:30 second-pass.) */
function instantsBetween(c: ScheduleCron, from: number, to: number): number[] {
  const wallFrom = firstWallFrom(c.zone, from);
  const wallTo = lastWallUntil(c.zone, to);
  const found: number[] = [];
  let cursor: Date | null = new Date(wallFrom - 1000);
  for (;;) {
    cursor = c.cron.nextRun(cursor);
    if (!cursor || cursor.getTime() > wallTo) break;
    for (const t of instantsOfWall(c.zone, cursor.getTime())) if (t >= from && t < to) found.push(t);
  }
  return found.sort((a, b) => a - b);
}

/**
 * The cron's first instant in [from, from + horizon). Croner steps from one matching wall time to
 * the next (no minute-by-minute walk); the walk stops as soon as no later wall time can read an
 * instant before the best found: a wall time w reads w - offset, and between `from` and the best
 * the offset is at most `highest`, so walls from best + highest on read nothing earlier.
 */
function firstInstantFrom(c: ScheduleCron, from: number, horizon: number): number | undefined {
  const end = from + horizon;
  const offsetFrom = zoneOffset(c.zone, from);
  let stopWall = end + Math.max(offsetFrom, zoneOffset(c.zone, end)) + DST_MARGIN;
  let best: number | undefined;
  let cursor: Date | null = new Date(firstWallFrom(c.zone, from) - 1000);
  for (;;) {
    cursor = c.cron.nextRun(cursor);
    if (!cursor || cursor.getTime() >= stopWall) break;
    for (const t of instantsOfWall(c.zone, cursor.getTime())) {
      if (t < from || t >= end || (best !== undefined && t >= best)) continue;
      best = t;
      // Over more than DST_MARGIN the offset may change and change back: allow a margin more.
      const highest = Math.max(offsetFrom, zoneOffset(c.zone, t)) + (t - from > DST_MARGIN ? DST_MARGIN : 0);
      stopWall = Math.min(stopWall, t + highest);
    }
  }
  return best;
}

/**
 * The latest instant of the cron at or before `at`, looking back about a year (the first wall
 * time more than a year back is still read, then the walk stops). Croner steps back from one
 * matching wall time to the previous; the walk stops as soon as no earlier wall time can read an
 * instant after the best found (the mirror of firstInstantFrom).
 */
function lastInstantUntil(c: ScheduleCron, at: number): number | undefined {
  const offsetAt = zoneOffset(c.zone, at);
  const limit = at - YEAR;
  let stopWall = -Infinity;
  let best: number | undefined;
  let cursor: Date | null = new Date(lastWallUntil(c.zone, at) + 1000);
  for (;;) {
    const [previous] = c.cron.previousRuns(1, cursor);
    if (!previous || previous.getTime() <= stopWall) break;
    cursor = previous;
    for (const t of instantsOfWall(c.zone, previous.getTime())) {
      if (t > at || (best !== undefined && t <= best)) continue;
      best = t;
      const lowest = Math.min(offsetAt, zoneOffset(c.zone, t)) - (at - t > DST_MARGIN ? DST_MARGIN : 0);
      stopWall = Math.max(stopWall, t + lowest);
    }
    if (best === undefined && previous.getTime() < limit) break;
  }
  return best;
}

/** The next moments at or after `from`, across all schedules (looking a year ahead). */
export function nextHibernationMoments(
  schedules: readonly HibernationSchedule[],
  from: Date,
): { hibernateAt?: Date; wakeAt?: Date } {
  let hibernateAt: number | undefined;
  let wakeAt: number | undefined;
  for (const c of scheduleCrons(schedules)) {
    const t = firstInstantFrom(c, from.getTime(), YEAR);
    if (t === undefined) continue;
    if (c.action === "hibernate") hibernateAt = hibernateAt === undefined ? t : Math.min(hibernateAt, t);
    else wakeAt = wakeAt === undefined ? t : Math.min(wakeAt, t);
  }
  return {
    ...(hibernateAt !== undefined ? { hibernateAt: new Date(hibernateAt) } : {}),
    ...(wakeAt !== undefined ? { wakeAt: new Date(wakeAt) } : {}),
  };
}

/** Every hibernate/wake moment in [from, to), in time order (Gardener's schedule order on a tie). */
export function hibernationMoments(
  schedules: readonly HibernationSchedule[],
  from: Date,
  to: Date,
): HibernationMoment[] {
  const found: { at: number; order: number; action: HibernationAction; schedule: number }[] = [];
  for (const c of scheduleCrons(schedules)) {
    for (const at of instantsBetween(c, from.getTime(), to.getTime())) {
      found.push({ at, order: c.order, action: c.action, schedule: c.schedule });
    }
  }
  found.sort((a, b) => a.at - b.at || a.order - b.order);
  return found.map((m) => ({ at: new Date(m.at), action: m.action, schedule: m.schedule }));
}

/**
 * Whether the schedules keep the shoot hibernated at `at`: the latest moment at or before `at`
 * decides, as in Gardener's getScheduleWithMostRecentTime (a tie goes to the first in schedule
 * order). Undefined when no moment precedes it within a year (or the schedules are invalid).
 */
export function scheduledHibernatedAt(schedules: readonly HibernationSchedule[], at: Date): boolean | undefined {
  let best: { at: number; action: HibernationAction } | undefined;
  for (const c of scheduleCrons(schedules)) {
    const t = lastInstantUntil(c, at.getTime());
    if (t !== undefined && (!best || t > best.at)) best = { at: t, action: c.action };
  }
  return best ? best.action === "hibernate" : undefined;
}

/** True when some schedule hibernates and no schedule ever wakes. */
export function neverWakes(schedules: readonly HibernationSchedule[]): boolean {
  const crons = scheduleCrons(schedules);
  if (!crons.some((c) => c.action === "hibernate")) return false;
  // A wake cron that names a day that never comes ("0 7 31 2 *") is not among them.
  return !crons.some((c) => c.action === "wake");
}

// ---------------------------------------------------------------------------------------------
// Validation (Gardener's ValidateHibernationSchedules)

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Gardener's validation: each schedule has start or end; each cron parses as robfig/cron's
 * standard parser; location is a tz database name (default UTC); the same cron spec twice (in any
 * schedule, start or end) is a duplicate. Errors name the field:
 * spec.hibernation.schedules[i].start|end|location (`start/end` when both are missing, as Gardener).
 */
export function validateHibernationSchedules(schedules: unknown, path = "spec.hibernation.schedules"): FieldError[] {
  if (schedules === null || schedules === undefined) return [];
  if (!Array.isArray(schedules)) {
    return [{ type: "Invalid", field: path, value: schedules, detail: "must be a list of schedules" }];
  }
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  schedules.forEach((schedule: unknown, i) => {
    const at = `${path}[${i}]`;
    if (!isRecord(schedule)) {
      errors.push({
        type: "Invalid",
        field: at,
        value: schedule,
        detail: "must be an object with start, end, location",
      });
      return;
    }
    for (const key of Object.keys(schedule)) {
      if (!["start", "end", "location"].includes(key)) {
        errors.push({ type: "NotSupported", field: `${at}.${key}`, detail: "supported fields: start, end, location" });
      }
    }
    const { start, end, location } = schedule;
    if ((start === undefined || start === null) && (end === undefined || end === null)) {
      errors.push({ type: "Required", field: `${at}.start/end`, detail: "either start or end has to be provided" });
    }
    for (const [key, spec] of [
      ["start", start],
      ["end", end],
    ] as const) {
      if (spec === undefined || spec === null) continue;
      const field = `${at}.${key}`;
      if (typeof spec !== "string") {
        errors.push({ type: "Invalid", field, value: spec, detail: "not a valid cron spec: must be a string" });
        continue;
      }
      const problem = cronError(spec);
      if (problem) errors.push({ type: "Invalid", field, value: spec, detail: `not a valid cron spec: ${problem}` });
      else if (seen.has(spec)) errors.push({ type: "Duplicate", field, value: spec, detail: "Duplicate value" });
      else seen.add(spec);
    }
    if (location !== undefined && location !== null) {
      const field = `${at}.location`;
      const problem = typeof location === "string" ? locationError(location) : "must be a string";
      if (problem) errors.push({ type: "Invalid", field, value: location, detail: `not a valid location: ${problem}` });
    }
  });
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Words

function cronInWords(spec: string): string {
  try {
    const words = cronstrue.toString(parseHibernationCron(spec).written, { verbose: false });
    return words.charAt(0).toLowerCase() + words.slice(1);
  } catch {
    return `"${spec}" (not a valid cron spec)`;
  }
}

/** A schedule in words (cronstrue), with its zone: "Hibernates at 07:00 PM, Monday through Friday;
 *  wakes at 07:00 AM, Monday through Friday (Europe/Berlin)". */
export function describeHibernationSchedule(schedule: HibernationSchedule): string {
  const parts: string[] = [];
  if (schedule.start) parts.push(`hibernates ${cronInWords(schedule.start)}`);
  if (schedule.end) parts.push(`wakes ${cronInWords(schedule.end)}`);
  const text = parts.length > 0 ? parts.join("; ") : "does nothing";
  return `${text.charAt(0).toUpperCase()}${text.slice(1)} (${schedule.location || "UTC"})`;
}

// The maintenance window as people edit it (a start, an end or a duration, on the clock of a named
// time zone) and as Gardener stores it (`HHMMSS+HHMM` begin and end with a fixed UTC offset).
// These helpers only convert, and say what will happen when daylight saving comes; the form's checks
// (the engine's rules on a window, in words) are in maintenance-form.ts.
import { DAY_MINUTES, MINUTE_MS } from "../engine/time-units.ts";
import {
  describeOffset,
  localClock,
  offsetMinutes,
  offsetShifts,
  parseGardenerTime,
  toGardenerTime,
  utcMinuteOfDay,
  type GardenerTime,
} from "./time-zones";

export interface StoredWindow {
  readonly begin: string;
  readonly end: string;
}

/** "HH:MM" (24 h clock); undefined for anything else. */
export function parseClock(text: string): number | undefined {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h < 24 && min < 60 ? h * 60 + min : undefined;
}

/** Minutes after midnight as "HH:MM" (wrapping around the day). */
export function formatClock(minuteOfDay: number): string {
  const m = ((minuteOfDay % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}

/** Minutes from start to end on a clock; an end at or before the start is on the next day. */
export function clockSpan(start: number, end: number): number {
  const span = (((end - start) % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  return span === 0 ? DAY_MINUTES : span;
}

/** "2 h", "1 h 30 min", "20 min". */
export function describeMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

export interface ClockWindow {
  /** "HH:MM" on the zone's clock. */
  readonly start: string;
  readonly end: string;
  readonly durationMinutes: number;
}

/** A stored window on the clock of `zone` as it is at `at`; undefined if it is not readable. */
export function windowOnClock(window: StoredWindow, zone: string, at: Date): ClockWindow | undefined {
  const begin = parseGardenerTime(window.begin);
  const end = parseGardenerTime(window.end);
  if (!begin || !end) return undefined;
  return {
    start: localClock(begin, zone, at),
    end: localClock(end, zone, at),
    durationMinutes: clockSpan(utcMinuteOfDay(begin), utcMinuteOfDay(end)),
  };
}

/**
 * A start and an end (or a duration) on the clock of `zone`, stored with the offset the zone has
 * at `at`. Undefined when a time is not "HH:MM" or the duration not a whole number of minutes.
 */
export function windowFromClock(
  start: string,
  until: { end: string } | { durationMinutes: number },
  zone: string,
  at: Date,
): StoredWindow | undefined {
  const startMinute = parseClock(start);
  if (startMinute === undefined) return undefined;
  let endMinute: number | undefined;
  if ("end" in until) {
    endMinute = parseClock(until.end);
  } else if (Number.isInteger(until.durationMinutes) && until.durationMinutes >= 0) {
    endMinute = startMinute + until.durationMinutes;
  }
  if (endMinute === undefined) return undefined;
  const offset = offsetMinutes(zone, at);
  return {
    begin: toGardenerTime(formatClock(startMinute), offset),
    end: toGardenerTime(formatClock(endMinute), offset),
  };
}

const utcMinute = (text: string) => {
  const t = parseGardenerTime(text);
  return t ? utcMinuteOfDay(t) + t.second / 60 : undefined;
};

/** Whether two windows cover the same time of day, however their offsets are written. */
export function sameWindow(a: StoredWindow | undefined, b: StoredWindow | undefined): boolean {
  if (!a || !b) return a === b;
  const [ab, ae, bb, be] = [utcMinute(a.begin), utcMinute(a.end), utcMinute(b.begin), utcMinute(b.end)];
  if (ab === undefined || ae === undefined || bb === undefined || be === undefined)
    return a.begin === b.begin && a.end === b.end;
  return ab === bb && ae === be;
}

export interface Occurrence {
  readonly start: Date;
  readonly end: Date;
}

/**
 * The window's next `count` occurrences: the one under way at `from` (if any) first. The window
 * repeats every UTC day at the same moments, because Gardener stores a fixed offset.
 */
export function nextOccurrences(window: StoredWindow, from: Date, count = 3): Occurrence[] {
  const begin = parseGardenerTime(window.begin);
  const end = parseGardenerTime(window.end);
  if (!begin || !end) return [];
  const beginMinute = utcMinuteOfDay(begin);
  const span = clockSpan(beginMinute, utcMinuteOfDay(end));
  const dayStart = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  const occurrences: Occurrence[] = [];
  // Start a day early: yesterday's window may still be open after midnight.
  for (let day = -1; occurrences.length < count; day++) {
    const start = dayStart + day * DAY_MINUTES * MINUTE_MS + beginMinute * MINUTE_MS + begin.second * 1000;
    const stop = start + span * MINUTE_MS;
    if (stop > from.getTime()) occurrences.push({ start: new Date(start), end: new Date(stop) });
  }
  return occurrences;
}

export interface DaylightSavingNotice {
  /** The first moment of the zone's new offset. */
  readonly at: Date;
  readonly fromOffset: number;
  readonly toOffset: number;
  /** Where the window starts and ends on the zone's clock after the change. */
  readonly startAfter: string;
  readonly endAfter: string;
  readonly message: string;
}

const dayInZone = (at: Date, zone: string) =>
  new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: zone }).format(at);

/**
 * What the next daylight saving change of `zone` (within a year of `now`) does to the window on
 * that zone's clock: Gardener keeps the UTC offset it was saved with, so the window moves.
 */
export function daylightSavingNotice(window: StoredWindow, zone: string, now: Date): DaylightSavingNotice | undefined {
  const begin = parseGardenerTime(window.begin);
  const end = parseGardenerTime(window.end);
  if (!begin || !end) return undefined;
  const shift = offsetShifts(zone, now)[0];
  if (!shift) return undefined;
  const startAfter = localClock(begin as GardenerTime, zone, shift.at);
  const endAfter = localClock(end, zone, shift.at);
  return {
    at: shift.at,
    fromOffset: shift.from,
    toOffset: shift.to,
    startAfter,
    endAfter,
    message: `${zone} moves to ${describeOffset(shift.to)} on ${dayInZone(shift.at, zone)}; Gardener stores a fixed offset, so this window will then start at ${startAfter} local time.`,
  };
}

/** "22:00" on the clock of `zone`. */
export function clockInZone(at: Date, zone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: zone,
  }).format(at);
}

/** "Tue 24 Nov" in `zone`. */
export function dayLabelInZone(at: Date, zone: string): string {
  return new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: zone })
    .format(at)
    .replace(",", "");
}

/** The zone's short name at `at` ("CET", "GMT+5:30"). */
export function zoneAbbreviation(at: Date, zone: string): string {
  return (
    new Intl.DateTimeFormat("en-GB", { timeZone: zone, timeZoneName: "short" })
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName")?.value ?? zone
  );
}

// Named time zones (IANA) for maintenance windows. Gardener stores a window as `HHMMSS+HHMM`, a
// fixed UTC offset, so a window entered as "22:00 Europe/Berlin" is stored with the offset the zone
// has now, and moves by an hour in local time when daylight saving starts or ends. These helpers
// convert both ways and find the next such shift, so the editor can warn about it.
import { DAY_MINUTES, DAY_MS } from "../engine/time-units.ts";
import { WINDOW_BOUND_PATTERN } from "../engine/time-window.ts";

// One formatter per zone: building one costs far more than using it, and a year's scan for
// daylight saving asks hundreds of times.
const offsetFormats = new Map<string, Intl.DateTimeFormat>();
function offsetFormat(zone: string): Intl.DateTimeFormat {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
    offsetFormats.set(zone, format);
  }
  return format;
}

/** Whether the browser knows `name` as a time zone (old and new IANA names alike). */
export function isTimeZone(name: string): boolean {
  if (!name.trim()) return false;
  try {
    offsetFormat(name);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at `at`, in minutes (east positive). */
export function offsetMinutes(zone: string, at: Date): number {
  const part =
    offsetFormat(zone)
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const match = /^GMT(?:([+-])(\d{1,2})(?::?(\d{2}))?)?$/.exec(part);
  if (!match || !match[1]) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === "-" ? -minutes : minutes;
}

/** "+0100", "-0530", "+0000". */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const a = Math.abs(minutes);
  return `${sign}${String(Math.floor(a / 60)).padStart(2, "0")}${String(a % 60).padStart(2, "0")}`;
}

/** "UTC+01:00" for people. */
export function describeOffset(minutes: number): string {
  const o = formatOffset(minutes);
  return `UTC${o.slice(0, 3)}:${o.slice(3)}`;
}

export interface GardenerTime {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly offsetMinutes: number;
}

/** Parses `HHMMSS+HHMM`; undefined for anything else (the server names the exact problem). */
export function parseGardenerTime(text: string): GardenerTime | undefined {
  const m = WINDOW_BOUND_PATTERN.exec(text);
  if (!m) return undefined;
  const offset = Number(m[5]) * 60 + Number(m[6]);
  return {
    hour: Number(m[1]),
    minute: Number(m[2]),
    second: Number(m[3]),
    offsetMinutes: m[4] === "-" ? -offset : offset,
  };
}

/** "HH:MM" and an offset as Gardener's `HHMMSS+HHMM`. */
export function toGardenerTime(hhmm: string, offset: number): string {
  const [h, m] = hhmm.split(":");
  return `${h.padStart(2, "0")}${(m ?? "00").padStart(2, "0")}00${formatOffset(offset)}`;
}

/** Minutes after midnight UTC of a Gardener time (0 to 1439). */
export function utcMinuteOfDay(t: GardenerTime): number {
  return (((t.hour * 60 + t.minute - t.offsetMinutes) % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
}

/** The local "HH:MM" in `zone` (at `at`) of a Gardener time. */
export function localClock(t: GardenerTime, zone: string, at: Date): string {
  const minute = (utcMinuteOfDay(t) + offsetMinutes(zone, at) + DAY_MINUTES) % DAY_MINUTES;
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

export interface OffsetShift {
  /** The first moment with the new offset. */
  readonly at: Date;
  readonly from: number;
  readonly to: number;
}

/** The zone's offset changes in the `days` after `from` (daylight saving), in order. */
export function offsetShifts(zone: string, from: Date, days = 366): OffsetShift[] {
  const shifts: OffsetShift[] = [];
  let previous = offsetMinutes(zone, from);
  let t = from.getTime();
  const end = t + days * DAY_MS;
  while (t < end) {
    const next = Math.min(t + DAY_MS, end);
    const offset = offsetMinutes(zone, new Date(next));
    if (offset !== previous) {
      // Narrow the day down to the millisecond of the change, so `at` is the exact moment.
      let lo = t;
      let hi = next;
      while (hi - lo > 1) {
        const mid = lo + Math.floor((hi - lo) / 2);
        if (offsetMinutes(zone, new Date(mid)) === previous) lo = mid;
        else hi = mid;
      }
      shifts.push({ at: new Date(hi), from: previous, to: offset });
      previous = offset;
    }
    t = next;
  }
  return shifts;
}

// ICU lists some zones under their old names (Asia/Calcutta); people look for the current ones.
const CURRENT_NAMES = [
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Asia/Yangon",
  "Asia/Ho_Chi_Minh",
  "Europe/Kyiv",
  "America/Nuuk",
  "Atlantic/Faroe",
  "Pacific/Chuuk",
  "Pacific/Pohnpei",
  "Pacific/Kanton",
];

/** Every IANA zone the browser knows, UTC first, with the current names of renamed zones. */
export function timeZoneNames(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const names = new Set(intl.supportedValuesOf?.("timeZone") ?? []);
  for (const name of CURRENT_NAMES) if (isTimeZone(name)) names.add(name);
  names.delete("UTC");
  return ["UTC", ...[...names].sort()];
}

/** The browser's own zone. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

// Zones people recognise, one or two per offset, for suggesting a name for a bare offset.
const WELL_KNOWN_ZONES = [
  "UTC",
  "Europe/London",
  "Europe/Berlin",
  "Europe/Helsinki",
  "Europe/Moscow",
  "Asia/Dubai",
  "Asia/Karachi",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Asia/Dhaka",
  "Asia/Bangkok",
  "Asia/Singapore",
  "Asia/Tokyo",
  "Australia/Adelaide",
  "Australia/Brisbane",
  "Australia/Sydney",
  "Pacific/Auckland",
  "America/Sao_Paulo",
  "America/Halifax",
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Phoenix",
  "America/Los_Angeles",
  "America/Anchorage",
  "Pacific/Honolulu",
];

/** A well-known zone whose offset at `at` is `offset` (a name for a window stored with a bare offset). */
export function zoneWithOffset(offset: number, at: Date): string | undefined {
  return WELL_KNOWN_ZONES.find((zone) => isTimeZone(zone) && offsetMinutes(zone, at) === offset);
}

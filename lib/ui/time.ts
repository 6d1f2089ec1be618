// How times read on every page: local time and UTC side by side, and relative times ("in 5 h")
// whose absolute moment is one hover away. Everything takes `now` so that it can be tested and
// so that a ticking clock re-renders with one value.
import { DAY_MS as DAY, HOUR_MS as HOUR, MINUTE_MS as MINUTE } from "../engine/time-units.ts";

export type Instant = string | number | Date;
const ms = (t: Instant) => (t instanceof Date ? t.getTime() : typeof t === "number" ? t : Date.parse(t));

const localFormat = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZoneName: "short",
});
const localShort = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
});
const utcFormat = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});
const utcShort = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});
const dateOnly = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** "Tue, 24 Nov 2026, 01:39 CET" in the browser's time zone. */
const formatLocal = (t: Instant) => localFormat.format(ms(t));
/** "Tue, 24 Nov, 01:39" in the browser's time zone. */
export const formatLocalShort = (t: Instant) => localShort.format(ms(t));
/** "Tue, 24 Nov 2026, 00:39 UTC". */
export const formatUtc = (t: Instant) => `${utcFormat.format(ms(t))} UTC`;
/** "24 Nov, 00:39 UTC". */
export const formatUtcShort = (t: Instant) => `${utcShort.format(ms(t))} UTC`;
/** "24 Nov 2026" (UTC: expiration dates are days in the cloud profile). */
export const formatDate = (t: Instant) => dateOnly.format(ms(t));
/** Both, for tooltips: "Tue, 24 Nov 2026, 01:39 CET · Tue, 24 Nov 2026, 00:39 UTC". */
export const formatBoth = (t: Instant) => `${formatLocal(t)} · ${formatUtc(t)}`;

/** A span as its two largest units: "12 d 4 h", "5 h 3 min", "4 min", "40 s". */
export function formatSpan(spanMs: number): string {
  const s = Math.abs(spanMs);
  if (s < MINUTE) return `${Math.floor(s / 1000)} s`;
  if (s < HOUR) return `${Math.floor(s / MINUTE)} min`;
  if (s < DAY) {
    const h = Math.floor(s / HOUR);
    const m = Math.floor((s % HOUR) / MINUTE);
    return m ? `${h} h ${m} min` : `${h} h`;
  }
  const d = Math.floor(s / DAY);
  const h = Math.floor((s % DAY) / HOUR);
  return h && d < 10 ? `${d} d ${h} h` : `${d} d`;
}

/** "in 5 h", "3 d ago", "now" (within a minute). */
export function formatRelative(t: Instant, now: number): string {
  const diff = ms(t) - now;
  if (Math.abs(diff) < MINUTE) return "now";
  return diff > 0 ? `in ${formatSpan(diff)}` : `${formatSpan(diff)} ago`;
}

/** One unit, rounded, for dense tables: "in 15 h", "2 d ago", "in 40 min". */
export function formatRelativeShort(t: Instant, now: number): string {
  const diff = ms(t) - now;
  const a = Math.abs(diff);
  if (a < MINUTE) return "now";
  const text =
    a < HOUR ? `${Math.round(a / MINUTE)} min` : a < 2 * DAY ? `${Math.round(a / HOUR)} h` : `${Math.round(a / DAY)} d`;
  return diff > 0 ? `in ${text}` : `${text} ago`;
}

/** A ticking countdown: "12 d 04 h 03 min", or with seconds under a day: "4 h 03 min 12 s". */
export function formatCountdown(t: Instant, now: number): string {
  const diff = Math.max(0, ms(t) - now);
  const d = Math.floor(diff / DAY);
  const h = Math.floor((diff % DAY) / HOUR);
  const m = Math.floor((diff % HOUR) / MINUTE);
  const s = Math.floor((diff % MINUTE) / 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return d > 0 ? `${d} d ${pad(h)} h ${pad(m)} min` : `${h} h ${pad(m)} min ${pad(s)} s`;
}

/** Whole days until `t` (negative once past), as the Gardener dashboard counts them. */
export const daysUntil = (t: Instant, now: number) => Math.floor((ms(t) - now) / DAY);

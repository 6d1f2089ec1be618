// The forecast by day or by week: every bucket between the forecast's start and end (empty ones
// too, so the chart's time axis is even), with its updates counted by kind and stuck apart, from
// the answer's counts per day (its summary); and the page of items it shows, grouped the same way.
// Buckets are UTC days and ISO weeks (Monday to Sunday, UTC), as maintenance windows are
// scheduled in UTC and a day must mean the same for every operator looking at it.
import { DAY_MS as DAY } from "../engine/time-units.ts";

export type Grouping = "day" | "week";

/** One UTC day's counts, as the forecast's summary gives them. */
export interface DayCounts {
  readonly start: string;
  readonly kubernetes: number;
  readonly machineImage: number;
  readonly stuck: number;
}

export interface Bucket {
  /** The bucket's first moment (UTC midnight; a Monday for weeks). */
  readonly start: number;
  readonly end: number;
  /** Updates that will happen, per kind. */
  readonly kubernetes: number;
  readonly machineImage: number;
  /** Updates that cannot happen: the cluster will be stuck. */
  readonly stuck: number;
  readonly total: number;
}

/** The start of the day or ISO week containing `at`, in UTC. */
export function bucketStart(at: number, grouping: Grouping): number {
  const day = Math.floor(at / DAY) * DAY;
  if (grouping === "day") return day;
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
  return day - weekday * DAY;
}

const bucketLength = (grouping: Grouping) => (grouping === "day" ? DAY : 7 * DAY);

/** The buckets from `from` to `to`, summing the days that fall in each. */
export function bucketDays(days: readonly DayCounts[], from: number, to: number, grouping: Grouping): Bucket[] {
  const length = bucketLength(grouping);
  const first = bucketStart(from, grouping);
  const count = Math.max(1, Math.floor((bucketStart(to, grouping) - first) / length) + 1);
  const sums = Array.from({ length: count }, () => ({ kubernetes: 0, machineImage: 0, stuck: 0 }));
  for (const day of days) {
    const index = Math.floor((bucketStart(Date.parse(day.start), grouping) - first) / length);
    if (index < 0 || index >= count) continue;
    sums[index].kubernetes += day.kubernetes;
    sums[index].machineImage += day.machineImage;
    sums[index].stuck += day.stuck;
  }
  return sums.map((sum, i) => ({
    start: first + i * length,
    end: first + (i + 1) * length,
    ...sum,
    total: sum.kubernetes + sum.machineImage + sum.stuck,
  }));
}

/** Items in time order, grouped by their day or week (only groups that have items). */
export function groupItems<T extends { readonly at: string }>(
  items: readonly T[],
  grouping: Grouping,
): { start: number; items: T[] }[] {
  const groups: { start: number; items: T[] }[] = [];
  for (const item of items) {
    const start = bucketStart(Date.parse(item.at), grouping);
    const last = groups.at(-1);
    if (last?.start === start) last.items.push(item);
    else groups.push({ start, items: [item] });
  }
  return groups;
}

const dayFormat = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const shortDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

/** "Mon, 23 Nov 2026" or "Week of 23 Nov – 29 Nov 2026" (UTC). */
export function bucketTitle(start: number, grouping: Grouping): string {
  if (grouping === "day") return dayFormat.format(start);
  const year = new Date(start + 6 * DAY).getUTCFullYear();
  return `Week of ${shortDay.format(start)} – ${shortDay.format(start + 6 * DAY)} ${year}`;
}

/** A short axis label: "23 Nov". */
export const bucketTick = (start: number) => shortDay.format(start);

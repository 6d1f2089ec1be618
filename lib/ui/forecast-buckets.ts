// The forecast by day or by week: every bucket between the forecast's start and end (empty ones
// too, so the chart's time axis is even), with its updates counted by kind and stuck apart.
// Buckets are UTC days and ISO weeks (Monday to Sunday, UTC), as maintenance windows are
// scheduled in UTC and a day must mean the same for every operator looking at it.
import { DAY_MS as DAY } from "../engine/time-units.ts";

export type Grouping = "day" | "week";

export interface BucketableItem {
  readonly at: string;
  readonly kind: "kubernetes" | "machineImage";
  readonly stuck: boolean;
}

export interface Bucket<T extends BucketableItem> {
  /** The bucket's first moment (UTC midnight; a Monday for weeks). */
  readonly start: number;
  readonly end: number;
  /** Updates that will happen, per kind. */
  readonly kubernetes: number;
  readonly machineImage: number;
  /** Updates that cannot happen: the cluster will be stuck. */
  readonly stuck: number;
  readonly items: readonly T[];
}

/** The start of the day or ISO week containing `at`, in UTC. */
export function bucketStart(at: number, grouping: Grouping): number {
  const day = Math.floor(at / DAY) * DAY;
  if (grouping === "day") return day;
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
  return day - weekday * DAY;
}

const bucketLength = (grouping: Grouping) => (grouping === "day" ? DAY : 7 * DAY);

export function bucketForecast<T extends BucketableItem>(
  items: readonly T[],
  from: number,
  to: number,
  grouping: Grouping,
): Bucket<T>[] {
  const length = bucketLength(grouping);
  const first = bucketStart(from, grouping);
  const count = Math.max(1, Math.floor((bucketStart(to, grouping) - first) / length) + 1);
  const groups: T[][] = Array.from({ length: count }, () => []);
  for (const item of items) {
    const index = Math.floor((bucketStart(Date.parse(item.at), grouping) - first) / length);
    if (index >= 0 && index < count) groups[index].push(item);
  }
  return groups.map((group, i) => ({
    start: first + i * length,
    end: first + (i + 1) * length,
    kubernetes: group.filter((x) => !x.stuck && x.kind === "kubernetes").length,
    machineImage: group.filter((x) => !x.stuck && x.kind === "machineImage").length,
    stuck: group.filter((x) => x.stuck).length,
    items: group,
  }));
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

/**
 * The first `limit` items of the non-empty buckets, still grouped (a long horizon on a large
 * fleet has thousands of updates; the page shows them a few hundred at a time).
 */
export function firstItems<T extends BucketableItem>(
  buckets: readonly Bucket<T>[],
  limit: number,
): { groups: { start: number; items: T[] }[]; hidden: number } {
  const groups: { start: number; items: T[] }[] = [];
  let left = limit;
  let hidden = 0;
  for (const b of buckets) {
    if (b.items.length === 0) continue;
    const shown = b.items.slice(0, Math.max(0, left));
    if (shown.length > 0) groups.push({ start: b.start, items: shown });
    hidden += b.items.length - shown.length;
    left -= shown.length;
  }
  return { groups, hidden };
}

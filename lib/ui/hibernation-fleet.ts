// How the fleet says a cluster sleeps: "Hibernated · wakes Mon 07:00" for one that sleeps, and
// "sleeps Tue 19:00" for an awake one whose schedule hibernates it next, from the list answer's
// `hibernation` field (the next moments the server computed from the schedules). Times are on the
// browser's clock, short, with both clocks in the title.
import { formatBoth, type Instant } from "./time.ts";

/** The list answer's hibernation field of a row (lib/api/shoot-list.ts). */
export interface RowHibernation {
  readonly enabled: boolean;
  readonly hibernateAt?: string;
  readonly wakeAt?: string;
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

const weekdayClock = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const dateClock = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** "Mon 07:00" within the coming week, "12 Dec 07:00" beyond it (local time). */
export function shortMoment(at: Instant, now: number): string {
  const t = new Date(at).getTime();
  return (t - now < WEEK_MS - 60_000 ? weekdayClock : dateClock).format(t).replace(",", "");
}

export interface FleetHibernationNote {
  /** "Hibernated", "Hibernated · wakes Mon 07:00", "sleeps Tue 19:00". */
  readonly text: string;
  readonly asleep: boolean;
  readonly title: string;
}

/**
 * The note for a row: asleep (with the wake-up when a schedule sets one), or awake with the next
 * scheduled hibernation; undefined for an awake cluster without a schedule.
 */
export function fleetHibernationNote(
  h: RowHibernation | undefined,
  hibernated: boolean,
  now: number,
): FleetHibernationNote | undefined {
  const asleep = h?.enabled ?? hibernated;
  if (asleep) {
    const wake = h?.wakeAt;
    return {
      asleep,
      text: wake ? `Hibernated · wakes ${shortMoment(wake, now)}` : "Hibernated",
      title: wake
        ? `Hibernated: worker nodes and control plane are scaled down. Its schedule wakes it up ${formatBoth(wake)}.`
        : "Hibernated: worker nodes and control plane are scaled down. No schedule wakes it up; someone has to.",
    };
  }
  if (h?.hibernateAt) {
    return {
      asleep,
      text: `sleeps ${shortMoment(h.hibernateAt, now)}`,
      title: `Awake. Its schedule hibernates it ${formatBoth(h.hibernateAt)}${h.wakeAt ? ` and wakes it up ${formatBoth(h.wakeAt)}` : ""}.`,
    };
  }
  return undefined;
}

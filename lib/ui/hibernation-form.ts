// The hibernation schedule editor's form as data: the shoot's `spec.hibernation.schedules` as rows
// of text (start and end as cron, the zone as an IANA name), the schedules the rows stand for, the
// engine's judgement of them placed at each row's fields, and the guarded merge patch that saves
// them. The list is saved whole (a JSON merge patch replaces a list), and an empty list removes it.
import { validateHibernationSchedules, type HibernationSchedule } from "../engine/hibernation-schedule.ts";
import { schedulesOf, sameSchedules } from "./hibernation-schedules.ts";

export type { HibernationSchedule } from "../engine/hibernation-schedule.ts";
export { schedulesOf, sameSchedules };

/** One schedule as typed. An empty start or end is left out; an empty zone is Gardener's default, UTC. */
export interface ScheduleRow {
  /** Stable across edits, so that React keeps each row's inputs (and focus) when one is removed. */
  readonly key: string;
  readonly start: string;
  readonly end: string;
  readonly location: string;
}

export type ScheduleField = "start" | "end" | "location";

let rowCount = 0;
const nextKey = () => `schedule-${++rowCount}`;

export const rowOf = (s: HibernationSchedule): ScheduleRow => ({
  key: nextKey(),
  start: s.start ?? "",
  end: s.end ?? "",
  location: s.location ?? "",
});

export const rowsOf = (schedules: readonly HibernationSchedule[]): ScheduleRow[] => schedules.map(rowOf);

/** A new, empty row on the browser's clock. */
export const emptyRow = (zone: string): ScheduleRow => ({ key: nextKey(), start: "", end: "", location: zone });

/** The schedule a row stands for: trimmed, with empty fields left out. */
export function scheduleOf(row: ScheduleRow): HibernationSchedule {
  const start = row.start.trim().replace(/\s+/g, " ");
  const end = row.end.trim().replace(/\s+/g, " ");
  const location = row.location.trim();
  return { ...(start ? { start } : {}), ...(end ? { end } : {}), ...(location ? { location } : {}) };
}

export const schedulesFromRows = (rows: readonly ScheduleRow[]): HibernationSchedule[] => rows.map(scheduleOf);

export interface Preset {
  readonly id: string;
  readonly label: string;
  /** What it does, in a few words, for the button's hint. */
  readonly hint: string;
  readonly start: string;
  readonly end: string;
}

// Minutes written "00" as Gardener's dashboard does; weekday ranges ("1-5") so that the words read
// "Monday through Friday".
export const PRESETS: readonly Preset[] = [
  {
    id: "weeknights",
    label: "Weeknights and weekends",
    hint: "Hibernate 19:00 Monday to Friday, wake 07:00 Monday to Friday: asleep every night and from Friday evening to Monday morning",
    start: "00 19 * * 1-5",
    end: "00 07 * * 1-5",
  },
  {
    id: "nights",
    label: "Every night",
    hint: "Hibernate 19:00 and wake 07:00 every day",
    start: "00 19 * * *",
    end: "00 07 * * *",
  },
  {
    id: "weekends",
    label: "Weekends",
    hint: "Hibernate Friday 19:00, wake Monday 07:00",
    start: "00 19 * * 5",
    end: "00 07 * * 1",
  },
];

export const presetRow = (preset: Preset, zone: string): ScheduleRow => ({
  key: nextKey(),
  start: preset.start,
  end: preset.end,
  location: zone,
});

/** Per row, the first problem of each field, and the row's own (neither start nor end, a duplicate). */
export type RowProblems = Partial<Record<ScheduleField | "row", string>>;

// "spec.hibernation.schedules[1].start"; "[1].start/end" (neither given) is the row's own problem.
const FIELD_PATH = /^spec\.hibernation\.schedules\[(\d+)\](?:\.(start|end|location)(?![\w/]))?/;

/**
 * Problems named by field path (the engine's validation, or a 422's) placed at the rows: a
 * problem of `spec.hibernation.schedules[1].start` beside the second row's start. Problems of the
 * list as a whole are returned apart.
 */
export function placeScheduleProblems(
  problems: readonly { readonly field: string; readonly detail: string }[],
  rowCount: number,
): { rows: RowProblems[]; list: string[] } {
  const rows: RowProblems[] = Array.from({ length: rowCount }, () => ({}));
  const list: string[] = [];
  for (const p of problems) {
    const m = FIELD_PATH.exec(p.field);
    const index = m ? Number(m[1]) : -1;
    if (!m || index >= rowCount) {
      list.push(p.detail);
      continue;
    }
    const field = (m[2] as ScheduleField | undefined) ?? "row";
    rows[index][field] ??= p.detail;
  }
  return { rows, list };
}

/** The engine's validation of the rows as typed, placed at their fields. */
export function rowProblems(rows: readonly ScheduleRow[]) {
  return placeScheduleProblems(validateHibernationSchedules(schedulesFromRows(rows)), rows.length);
}

export const hasRowProblems = (problems: { rows: readonly RowProblems[]; list: readonly string[] }) =>
  problems.list.length > 0 || problems.rows.some((r) => Object.keys(r).length > 0);

const FIELD_WORD: Record<ScheduleField | "row", string> = {
  start: "hibernate at",
  end: "wake up at",
  location: "time zone",
  row: "",
};

/** Why Save is off, naming the first invalid field: "Schedule 2, wake up at: expected exactly 5 fields". */
export function firstBlocker(problems: { rows: readonly RowProblems[]; list: readonly string[] }): string | undefined {
  for (const [i, row] of problems.rows.entries()) {
    for (const field of ["row", "start", "end", "location"] as const) {
      const message = row[field];
      if (message) return `Schedule ${i + 1}${FIELD_WORD[field] ? `, ${FIELD_WORD[field]}` : ""}: ${message}`;
    }
  }
  return problems.list[0];
}

/**
 * The merge patch saving `schedules` (the whole list: a merge patch replaces lists), guarded by
 * the resourceVersion the edit started from; none left removes the list.
 */
export function schedulesPatch(schedules: readonly HibernationSchedule[], resourceVersion: string | undefined) {
  return {
    ...(resourceVersion ? { metadata: { resourceVersion } } : {}),
    spec: { hibernation: { schedules: schedules.length > 0 ? schedules.map((s) => ({ ...s })) : null } },
  };
}

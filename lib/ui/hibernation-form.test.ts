import { describe, expect, it } from "vitest";
import {
  emptyRow,
  firstBlocker,
  hasRowProblems,
  placeScheduleProblems,
  presetRow,
  PRESETS,
  rowProblems,
  rowsOf,
  sameSchedules,
  schedulesFromRows,
  schedulesOf,
  schedulesPatch,
} from "./hibernation-form";
import type { Shoot } from "./api-types";

const shootWith = (hibernation: Record<string, unknown> | undefined) =>
  ({ spec: { kubernetes: { version: "1.33.4" }, hibernation } }) as Pick<Shoot, "spec">;

describe("the shoot's schedules", () => {
  it("reads spec.hibernation.schedules as stored, leaving out what is not a schedule", () => {
    expect(schedulesOf(shootWith(undefined))).toEqual([]);
    expect(schedulesOf(shootWith({ enabled: true }))).toEqual([]);
    expect(
      schedulesOf(
        shootWith({
          schedules: [
            { start: "00 19 * * 1-5", end: "00 07 * * 1-5", location: "Europe/Berlin" },
            "junk",
            { end: "0 7 * * *" },
          ],
        }),
      ),
    ).toEqual([{ start: "00 19 * * 1-5", end: "00 07 * * 1-5", location: "Europe/Berlin" }, { end: "0 7 * * *" }]);
  });

  it("gives back the stored schedules from untouched rows (no location added where none was stored)", () => {
    const stored = [{ start: "00 19 * * 1-5" }, { end: "00 07 * * 1-5", location: "Asia/Tokyo" }];
    expect(schedulesFromRows(rowsOf(stored))).toEqual(stored);
    expect(sameSchedules(schedulesFromRows(rowsOf(stored)), stored)).toBe(true);
  });

  it("trims what is typed and leaves out empty fields", () => {
    const [row] = rowsOf([{}]);
    expect(schedulesFromRows([{ ...row, start: "  0  19 * * *  ", end: " ", location: " UTC " }])).toEqual([
      { start: "0 19 * * *", location: "UTC" },
    ]);
  });

  it("gives each row its own key, so removing one keeps the others' inputs", () => {
    const rows = [...rowsOf([{ start: "0 19 * * *" }, { start: "0 20 * * *" }]), emptyRow("UTC")];
    expect(new Set(rows.map((r) => r.key)).size).toBe(3);
  });
});

describe("presets", () => {
  it("weeknights and weekends: hibernate 19:00 and wake 07:00, Monday to Friday, in the zone given", () => {
    const preset = PRESETS.find((p) => p.id === "weeknights")!;
    expect(preset.label).toBe("Weeknights and weekends");
    const row = presetRow(preset, "Europe/Berlin");
    expect(schedulesFromRows([row])).toEqual([
      { start: "00 19 * * 1-5", end: "00 07 * * 1-5", location: "Europe/Berlin" },
    ]);
    expect(hasRowProblems(rowProblems([row]))).toBe(false);
  });

  it("every preset is valid as Gardener validates schedules", () => {
    const rows = PRESETS.map((p) => presetRow(p, "UTC"));
    for (const row of rows) expect(rowProblems([row]).rows[0]).toEqual({});
  });
});

describe("problems at the fields", () => {
  it("places the engine's problems at the row and field they name", () => {
    const rows = rowsOf([
      { start: "00 19 * * 1-5", end: "00 07 * * 1-5", location: "UTC" },
      { start: "61 19 * * *", end: "00 07 * * *", location: "Mars/Olympus" },
    ]);
    const problems = rowProblems(rows);
    expect(problems.rows[0]).toEqual({});
    expect(problems.rows[1].start).toMatch(/cron/);
    expect(problems.rows[1].end).toBeUndefined();
    expect(problems.rows[1].location).toMatch(/location/);
    expect(firstBlocker(problems)).toMatch(/^Schedule 2, hibernate at: /);
  });

  it("a schedule with neither start nor end is the row's own problem, not its start's", () => {
    const problems = rowProblems([emptyRow("UTC")]);
    expect(problems.rows[0].row).toBeDefined();
    expect(problems.rows[0].start).toBeUndefined();
    expect(firstBlocker(problems)).toMatch(/^Schedule 1: /);
  });

  it("places a 422's problems the same way, and keeps those of the list as a whole apart", () => {
    const placed = placeScheduleProblems(
      [
        { field: "spec.hibernation.schedules[0].end", detail: "not a valid cron spec" },
        { field: "spec.hibernation.schedules[0].end", detail: "a second one" },
        { field: "spec.hibernation.schedules[2].location", detail: "not a valid location" },
        { field: "spec.hibernation", detail: "refused" },
      ],
      2,
    );
    expect(placed.rows).toEqual([{ end: "not a valid cron spec" }, {}]);
    expect(placed.list).toEqual(["not a valid location", "refused"]);
    expect(hasRowProblems(placed)).toBe(true);
  });
});

describe("the merge patch", () => {
  it("replaces the whole list, guarded by the resourceVersion the edit started from", () => {
    expect(schedulesPatch([{ start: "0 19 * * *", location: "UTC" }], "42")).toEqual({
      metadata: { resourceVersion: "42" },
      spec: { hibernation: { schedules: [{ start: "0 19 * * *", location: "UTC" }] } },
    });
  });

  it("removes the list when no schedule is left", () => {
    expect(schedulesPatch([], undefined)).toEqual({ spec: { hibernation: { schedules: null } } });
  });
});

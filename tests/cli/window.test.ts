// `almanac window`: parsing, UTC normalisation, validation and placement of a maintenance time
// window (Gardener: pkg/apis/utils/timewindow/timewindow.go and schedule.go).
import { describe, expect, it } from "vitest";
import { almanac, almanacFails } from "./run-almanac.ts";

interface WindowOutput {
  valid: boolean;
  errors: { type: string; field: string; detail: string }[];
  begin: string | null;
  end: string | null;
  durationSeconds: number | null;
  contains?: boolean | null;
  next?: { begin: string; end: string } | null;
}

function windowJson(begin: string, end: string, at?: string): WindowOutput {
  const args = ["window", "--begin", begin, "--end", end];
  if (at !== undefined) args.push("--at", at);
  const run = almanac(args);
  expect(run.status, run.stderr).not.toBe(2);
  return JSON.parse(run.stdout) as WindowOutput;
}

describe("window: normalisation and validation", () => {
  it("converts both bounds to UTC and prints only the window fields without --at", () => {
    expect(windowJson("220000+0100", "230000+0100")).toEqual({
      valid: true,
      errors: [],
      begin: "210000+0000",
      end: "220000+0000",
      durationSeconds: 3600,
    });
  });

  it("accepts a window crossing midnight", () => {
    expect(windowJson("233000+0000", "013000+0000")).toEqual({
      valid: true,
      errors: [],
      begin: "233000+0000",
      end: "013000+0000",
      durationSeconds: 7200,
    });
  });

  it("moves bounds across midnight by their offset (003000+0100 is 23:30 UTC)", () => {
    expect(windowJson("003000+0100", "013000+0100")).toMatchObject({
      valid: true,
      begin: "233000+0000",
      end: "003000+0000",
      durationSeconds: 3600,
    });
  });

  it("accepts begin and end with different offsets (233000-0130 is 01:00 UTC)", () => {
    expect(windowJson("220000+0100", "233000-0130")).toMatchObject({
      valid: true,
      errors: [],
      begin: "210000+0000",
      end: "010000+0000",
      durationSeconds: 4 * 3600,
    });
    expect(windowJson("093000+0530", "080000+0200")).toMatchObject({
      valid: true,
      begin: "040000+0000",
      end: "060000+0000",
      durationSeconds: 2 * 3600,
    });
  });

  it("accepts exactly 30 minutes and exactly 6 hours", () => {
    expect(windowJson("220000+0000", "223000+0000")).toMatchObject({ valid: true, errors: [], durationSeconds: 1800 });
    expect(windowJson("200000+0000", "020000+0000")).toMatchObject({ valid: true, errors: [], durationSeconds: 21600 });
  });

  it("rejects windows longer than 6h or shorter than 30m at spec.maintenance.timeWindow", () => {
    expect(windowJson("200000+0000", "020001+0000")).toEqual({
      valid: false,
      errors: [
        {
          type: "Invalid",
          field: "spec.maintenance.timeWindow",
          detail: "time window must not be greater than 6h0m0s",
        },
      ],
      begin: "200000+0000",
      end: "020001+0000",
      durationSeconds: 21601,
    });
    expect(windowJson("220000+0000", "222959+0000")).toEqual({
      valid: false,
      errors: [
        { type: "Invalid", field: "spec.maintenance.timeWindow", detail: "time window must not be smaller than 30m0s" },
      ],
      begin: "220000+0000",
      end: "222959+0000",
      durationSeconds: 1799,
    });
  });

  it("treats begin == end (also through different offsets) as a 24h window, which is invalid", () => {
    expect(windowJson("100000+0000", "110000+0100")).toMatchObject({
      valid: false,
      begin: "100000+0000",
      end: "100000+0000",
      durationSeconds: 86400,
      errors: [{ type: "Invalid", field: "spec.maintenance.timeWindow" }],
    });
  });

  it("reports unparsable bounds as Invalid spec.maintenance.timeWindow.begin/end with null values", () => {
    for (const [begin, end] of [
      ["240000+0000", "010000+0000"], // hour 24
      ["220000Z", "230000+0000"], // Z is not an offset here
      ["2200+0100", "230000+0100"], // HHMM only
      ["220000+0100", "23:00:00+01:00"],
      ["226000+0000", "230000+0000"], // minute 60
    ]) {
      const out = windowJson(begin, end);
      expect(out, `${begin} ${end}`).toMatchObject({ valid: false, begin: null, end: null, durationSeconds: null });
      expect(out.errors.map((e) => `${e.type} ${e.field}`)).toEqual(["Invalid spec.maintenance.timeWindow.begin/end"]);
    }
  });

  it("accepts an offset minute of 60, like Go's time.Parse in ParseMaintenanceTime", () => {
    expect(windowJson("220000+0060", "230000+0100")).toMatchObject({
      valid: true,
      begin: "210000+0000",
      end: "220000+0000",
    });
  });
});

describe("window --at: containment and the next maintenance window", () => {
  // Effective window of 220000+0100..230000+0100: 21:00..21:45 UTC (end minus 15 minutes).
  it("before today's window: contains false, next is today's effective window", () => {
    expect(windowJson("220000+0100", "230000+0100", "2026-11-22T20:00:00Z")).toEqual({
      valid: true,
      errors: [],
      begin: "210000+0000",
      end: "220000+0000",
      durationSeconds: 3600,
      contains: false,
      next: { begin: "2026-11-22T21:00:00Z", end: "2026-11-22T21:45:00Z" },
    });
  });

  it("exactly at the begin: contains true, and today's window is still the next one", () => {
    expect(windowJson("220000+0100", "230000+0100", "2026-11-22T21:00:00Z")).toMatchObject({
      contains: true,
      next: { begin: "2026-11-22T21:00:00Z", end: "2026-11-22T21:45:00Z" },
    });
  });

  it("inside today's window: next is tomorrow's", () => {
    expect(windowJson("220000+0100", "230000+0100", "2026-11-22T21:30:00Z")).toMatchObject({
      contains: true,
      next: { begin: "2026-11-23T21:00:00Z", end: "2026-11-23T21:45:00Z" },
    });
  });

  it("in the last 15 minutes (inside the window, after the effective end): next is tomorrow's", () => {
    expect(windowJson("220000+0100", "230000+0100", "2026-11-22T21:50:00Z")).toMatchObject({
      contains: true,
      next: { begin: "2026-11-23T21:00:00Z", end: "2026-11-23T21:45:00Z" },
    });
  });

  it("after the window: contains false, next is tomorrow's; the end bound is inclusive", () => {
    expect(windowJson("220000+0100", "230000+0100", "2026-11-22T22:00:00Z")).toMatchObject({
      contains: true,
      next: { begin: "2026-11-23T21:00:00Z" },
    });
    expect(windowJson("220000+0100", "230000+0100", "2026-11-22T22:00:01Z")).toMatchObject({
      contains: false,
      next: { begin: "2026-11-23T21:00:00Z", end: "2026-11-23T21:45:00Z" },
    });
  });

  it("reads --at with an offset and crosses the date line into the next UTC day", () => {
    // 2026-11-22T23:30:00-02:00 is 2026-11-23T01:30Z
    expect(windowJson("220000+0100", "230000+0100", "2026-11-22T23:30:00-02:00")).toMatchObject({
      contains: false,
      next: { begin: "2026-11-23T21:00:00Z", end: "2026-11-23T21:45:00Z" },
    });
  });

  describe("a window crossing midnight, 23:30..01:30 UTC (effective 23:30..01:15)", () => {
    it("from noon: tonight's window, ending the next day", () => {
      expect(windowJson("233000+0000", "013000+0000", "2026-11-22T12:00:00+05:00")).toMatchObject({
        contains: false,
        next: { begin: "2026-11-22T23:30:00Z", end: "2026-11-23T01:15:00Z" },
      });
    });

    it("from inside, before midnight: the next night's window", () => {
      expect(windowJson("233000+0000", "013000+0000", "2026-11-22T23:45:00Z")).toMatchObject({
        contains: true,
        next: { begin: "2026-11-23T23:30:00Z", end: "2026-11-24T01:15:00Z" },
      });
    });

    // As Gardener's MaintenanceTimeWindow.RandomDurationUntilNext picks it.
    it("from inside, after midnight: the window beginning this evening", () => {
      expect(windowJson("233000+0000", "013000+0000", "2026-11-23T00:30:00Z")).toMatchObject({
        contains: true,
        next: { begin: "2026-11-23T23:30:00Z", end: "2026-11-24T01:15:00Z" },
      });
    });
  });

  it("gives contains and next null for an unparsable window", () => {
    expect(windowJson("240000+0000", "010000+0000", "2026-11-22T12:00:00Z")).toMatchObject({
      valid: false,
      contains: null,
      next: null,
    });
  });

  it("exits 2 for a missing bound or an --at that is not RFC 3339", () => {
    expect(almanacFails(["window", "--end", "230000+0100"])).toMatch(/--begin/);
    expect(almanacFails(["window", "--begin", "220000+0100"])).toMatch(/--end/);
    expect(almanacFails(["window", "--begin", "220000+0100", "--end", "230000+0100", "--at", "tomorrow"])).toMatch(
      /--at.*tomorrow/,
    );
  });
});

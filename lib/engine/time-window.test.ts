// Maintenance time windows (Gardener: pkg/apis/utils/timewindow/timewindow.go and schedule.go, the
// effective window in pkg/utils/gardener/shoot.go, validation in pkg/api/core/validation/shoot.go).
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import {
  ALWAYS_WINDOW,
  effectiveWindow,
  formatBound,
  formatClock,
  nextWindowOccurrence,
  parseBound,
  parseTimeWindow,
  randomDefaultWindow,
  randomizeWithinTimeWindow,
  type TimeWindow,
  TimeWindowParseError,
  validateTimeWindow,
  windowContains,
  windowDurationSeconds,
} from "./time-window.ts";

const H = 3600;
const HOUR_MS = 3_600_000;
const hms = (h: number, m = 0, s = 0) => h * H + m * 60 + s;
const at = (iso: string) => Date.parse(iso);
const win = (begin: string, end: string) => parseTimeWindow(begin, end);
const maxPick = (max: number) => max;
const zeroPick = () => 0;

/** Gardener's MaintenanceTimeWindow.RandomDurationUntilNext, from the occurrence the engine picks. */
function randomDurationUntilNext(
  w: TimeWindow,
  from: number,
  shift: boolean,
  pickMs: (maxMs: number) => number,
): number {
  const occ = nextWindowOccurrence(w, from, shift);
  return occ.begin - occ.from + pickMs(occ.end - occ.begin);
}

function shootWith(timeWindow?: { begin: string; end: string }, withMaintenance = true): Shoot {
  return {
    metadata: { name: "s" },
    spec: {
      kubernetes: { version: "1.30.1" },
      ...(withMaintenance ? { maintenance: timeWindow ? { timeWindow } : {} } : {}),
    },
  };
}

describe("parseBound (ParseMaintenanceTime)", () => {
  it.each([
    ["220000+0100", hms(21)],
    ["003000+0100", hms(23, 30)],
    ["233000-0130", hms(1)],
    ["000000+0000", 0],
    ["235959+0000", hms(23, 59, 59)],
    ["101520-0000", hms(10, 15, 20)],
    ["120000+0530", hms(6, 30)],
    ["010000-2400", hms(1)],
  ])("converts %s to UTC time of day", (text, expected) => {
    expect(parseBound(text)).toBe(expected);
  });

  it("accepts offset minute 60 (Go quirk) and offset hour 24", () => {
    expect(parseBound("120000+0060")).toBe(hms(11));
    expect(parseBound("120000+2400")).toBe(hms(12));
    expect(parseBound("120000-0160")).toBe(hms(14));
  });

  it.each([
    ["240000+0000", "hour 24"],
    ["236000+0000", "minute 60"],
    ["235960+0000", "second 60"],
    ["120000+2500", "offset hour 25"],
    ["120000+0061", "offset minute 61"],
    ["120000Z", "Z instead of an offset"],
    ["120000Z0000", "Z prefix"],
    ["12000+0000", "five digits"],
    ["1200000+0000", "seven digits"],
    ["120000+000", "three offset digits"],
    ["120000", "no offset"],
    ["12:00:00+0000", "colons"],
    ["120000 +0000", "space"],
    ["", "empty"],
  ])("rejects %s (%s)", (text) => {
    expect(() => parseBound(text)).toThrow(TimeWindowParseError);
  });

  it("parses both bounds of a window", () => {
    expect(win("220000+0100", "230000+0100")).toEqual({ begin: hms(21), end: hms(22) });
  });
});

describe("formatting (MaintenanceTime.Formatted)", () => {
  it("String() is HH:MM:SS and Formatted() is HHMMSS+0000", () => {
    expect(formatClock(hms(1, 2, 3))).toBe("01:02:03");
    expect(formatClock(hms(23, 59, 59))).toBe("23:59:59");
    expect(formatBound(parseBound("220000+0100"))).toBe("210000+0000");
    expect(formatBound(parseBound("233000-0130"))).toBe("010000+0000");
  });

  it("the always window is 00:00:00-23:59:59", () => {
    expect(formatClock(ALWAYS_WINDOW.begin)).toBe("00:00:00");
    expect(formatClock(ALWAYS_WINDOW.end)).toBe("23:59:59");
  });
});

describe("windowContains (MaintenanceTimeWindow.Contains)", () => {
  const w = win("100000+0000", "120000+0000");

  it("includes both bounds", () => {
    expect(windowContains(w, at("2024-05-01T10:00:00Z"))).toBe(true);
    expect(windowContains(w, at("2024-05-01T12:00:00Z"))).toBe(true);
    expect(windowContains(w, at("2024-05-01T11:00:00Z"))).toBe(true);
  });

  it("excludes moments outside", () => {
    expect(windowContains(w, at("2024-05-01T09:59:59Z"))).toBe(false);
    expect(windowContains(w, at("2024-05-01T12:00:01Z"))).toBe(false);
    expect(windowContains(w, at("2024-05-01T00:00:00Z"))).toBe(false);
  });

  it("drops sub-seconds, so the last second of the window holds its whole second", () => {
    expect(windowContains(w, at("2024-05-01T12:00:00.999Z"))).toBe(true);
    expect(windowContains(w, at("2024-05-01T09:59:59.999Z"))).toBe(false);
  });

  it("ignores the date", () => {
    expect(windowContains(w, at("1999-12-31T11:30:00Z"))).toBe(true);
    expect(windowContains(w, at("2030-02-28T11:30:00Z"))).toBe(true);
  });

  it("handles windows spanning midnight", () => {
    const night = win("230000+0000", "010000+0000");
    expect(windowContains(night, at("2024-05-01T23:00:00Z"))).toBe(true);
    expect(windowContains(night, at("2024-05-01T23:59:59Z"))).toBe(true);
    expect(windowContains(night, at("2024-05-02T00:00:00Z"))).toBe(true);
    expect(windowContains(night, at("2024-05-02T01:00:00Z"))).toBe(true);
    expect(windowContains(night, at("2024-05-02T01:00:01Z"))).toBe(false);
    expect(windowContains(night, at("2024-05-01T22:59:59Z"))).toBe(false);
    expect(windowContains(night, at("2024-05-01T12:00:00Z"))).toBe(false);
  });

  it("uses the UTC conversion of offset bounds", () => {
    const w2 = win("220000+0100", "230000+0100"); // 21:00-22:00 UTC
    expect(windowContains(w2, at("2024-05-01T21:30:00Z"))).toBe(true);
    expect(windowContains(w2, at("2024-05-01T22:30:00Z"))).toBe(false);
  });

  it("begin == end is not spanning: only that exact second matches", () => {
    const point = win("120000+0000", "120000+0000");
    expect(windowContains(point, at("2024-05-01T12:00:00Z"))).toBe(true);
    expect(windowContains(point, at("2024-05-01T12:00:00.500Z"))).toBe(true);
    expect(windowContains(point, at("2024-05-01T12:00:01Z"))).toBe(false);
    expect(windowContains(point, at("2024-05-01T11:59:59Z"))).toBe(false);
    expect(windowContains(point, at("2024-05-01T00:00:00Z"))).toBe(false);
  });
});

describe("windowDurationSeconds (MaintenanceTimeWindow.Duration)", () => {
  it.each([
    ["100000+0000", "120000+0000", 2 * H],
    ["230000+0000", "000000+0000", H],
    ["230000+0000", "010000+0000", 2 * H],
    ["120000+0000", "120000+0000", 24 * H],
    ["000000+0000", "235959+0000", 24 * H - 1],
    ["120000+0000", "115959+0000", 24 * H - 1],
    ["220000+0100", "230000+0200", 0 + 24 * H], // both 21:00 UTC
  ])("%s..%s lasts %i s", (b, e, seconds) => {
    expect(windowDurationSeconds(win(b, e))).toBe(seconds);
  });
});

describe("validateTimeWindow (validateMaintenance)", () => {
  const path = "spec.maintenance.timeWindow";

  it("accepts exactly 30m and exactly 6h", () => {
    expect(validateTimeWindow({ begin: "100000+0000", end: "103000+0000" })).toEqual([]);
    expect(validateTimeWindow({ begin: "100000+0000", end: "160000+0000" })).toEqual([]);
  });

  it("rejects 29m59s with the exact detail", () => {
    const errors = validateTimeWindow({ begin: "100000+0000", end: "102959+0000" });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      type: "Invalid",
      field: path,
      detail: "time window must not be smaller than 30m0s",
    });
  });

  it("rejects 6h0m1s with the exact detail", () => {
    const errors = validateTimeWindow({ begin: "100000+0000", end: "160001+0000" });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      type: "Invalid",
      field: path,
      detail: "time window must not be greater than 6h0m0s",
    });
  });

  it("accepts windows crossing midnight", () => {
    expect(validateTimeWindow({ begin: "230000+0000", end: "010000+0000" })).toEqual([]);
    expect(validateTimeWindow({ begin: "220000+0000", end: "040000+0000" })).toEqual([]);
  });

  it("rejects a midnight crossing longer than 6h", () => {
    expect(validateTimeWindow({ begin: "220000+0000", end: "040001+0000" })).toMatchObject([
      { type: "Invalid", field: path, detail: "time window must not be greater than 6h0m0s" },
    ]);
  });

  it("rejects begin == end, which is 24h", () => {
    expect(validateTimeWindow({ begin: "120000+0000", end: "120000+0000" })).toMatchObject([
      { type: "Invalid", field: path, detail: "time window must not be greater than 6h0m0s" },
    ]);
  });

  it("allows different offsets on begin and end", () => {
    // 22:00+01:00 = 21:00 UTC, 23:00+00:00 = 23:00 UTC: two hours.
    expect(validateTimeWindow({ begin: "220000+0100", end: "230000+0000" })).toEqual([]);
    // 22:00+00:00 and 22:20-00:10 = 22:30 UTC: 30 minutes.
    expect(validateTimeWindow({ begin: "220000+0000", end: "222000-0010" })).toEqual([]);
    // 22:00+00:00 and 22:30+00:01 = 22:29 UTC: 29 minutes.
    expect(validateTimeWindow({ begin: "220000+0000", end: "223000+0001" })).toMatchObject([
      { type: "Invalid", field: path, detail: "time window must not be smaller than 30m0s" },
    ]);
    // Same offsets on both bounds that make the UTC times equal: 24h.
    expect(validateTimeWindow({ begin: "220000+0100", end: "210000+0000" })).toMatchObject([
      { type: "Invalid", field: path, detail: "time window must not be greater than 6h0m0s" },
    ]);
  });

  it("reports parse errors as Invalid at timeWindow.begin/end and nothing else", () => {
    for (const window of [
      { begin: "240000+0000", end: "010000+0000" },
      { begin: "220000+0000", end: "230000Z" },
      { begin: "22:00", end: "23:00" },
      { end: "230000+0000" },
      { begin: 220000, end: "230000+0000" },
    ]) {
      const errors = validateTimeWindow(window);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ type: "Invalid", field: `${path}.begin/end` });
    }
  });

  it("uses the given path", () => {
    expect(validateTimeWindow({ begin: "100000+0000", end: "100000+0000" }, "x.y")[0].field).toBe("x.y");
  });
});

describe("effectiveWindow (EffectiveShootMaintenanceTimeWindow)", () => {
  it("is [begin, end - 15m]", () => {
    expect(effectiveWindow(shootWith({ begin: "220000+0100", end: "230000+0100" }))).toEqual({
      begin: hms(21),
      end: hms(21, 45),
    });
  });

  it("wraps: 00:00-00:10 becomes 00:00-23:55, which spans midnight", () => {
    const w = effectiveWindow(shootWith({ begin: "000000+0000", end: "001000+0000" }));
    expect(w).toEqual({ begin: 0, end: hms(23, 55) });
    expect(windowContains(w, at("2024-05-01T12:00:00Z"))).toBe(true);
    expect(windowContains(w, at("2024-05-01T23:56:00Z"))).toBe(false);
  });

  it("wraps an end shortly after midnight into the previous day", () => {
    expect(effectiveWindow(shootWith({ begin: "230000+0000", end: "000500+0000" }))).toEqual({
      begin: hms(23),
      end: hms(23, 50),
    });
  });

  it("falls back to the always window without maintenance, without a timeWindow, or when unparsable", () => {
    expect(effectiveWindow(shootWith(undefined, false))).toEqual(ALWAYS_WINDOW);
    expect(effectiveWindow(shootWith(undefined, true))).toEqual(ALWAYS_WINDOW);
    expect(effectiveWindow(shootWith({ begin: "250000+0000", end: "010000+0000" }))).toEqual(ALWAYS_WINDOW);
    expect(effectiveWindow(shootWith({ begin: "220000Z", end: "230000Z" }))).toEqual(ALWAYS_WINDOW);
  });
});

describe("randomDurationUntilNext / nextWindowOccurrence (RandomDurationUntilNext)", () => {
  const w1619 = win("160000+0000", "190000+0000");
  const w2301 = win("230000+0000", "010000+0000");

  it("16-19 from 17:00 with random=max gives 26h (tomorrow's window)", () => {
    expect(randomDurationUntilNext(w1619, at("2024-05-01T17:00:00Z"), false, maxPick)).toBe(26 * HOUR_MS);
  });

  it("23-01 from 00:00 with random=max gives 25h", () => {
    expect(randomDurationUntilNext(w2301, at("2024-05-01T00:00:00Z"), false, maxPick)).toBe(25 * HOUR_MS);
  });

  it("16-19 from 17:00 with shift and random=max gives 2h", () => {
    expect(randomDurationUntilNext(w1619, at("2024-05-01T17:00:00Z"), true, maxPick)).toBe(2 * HOUR_MS);
  });

  it("random=0 gives the time until the start of the chosen window", () => {
    expect(randomDurationUntilNext(w1619, at("2024-05-01T10:00:00Z"), false, zeroPick)).toBe(6 * HOUR_MS);
    expect(randomDurationUntilNext(w1619, at("2024-05-01T17:00:00Z"), false, zeroPick)).toBe(23 * HOUR_MS);
    expect(randomDurationUntilNext(w1619, at("2024-05-01T20:00:00Z"), false, zeroPick)).toBe(20 * HOUR_MS);
    expect(randomDurationUntilNext(w1619, at("2024-05-01T17:00:00Z"), true, zeroPick)).toBe(0);
    expect(randomDurationUntilNext(w2301, at("2024-05-01T00:00:00Z"), false, zeroPick)).toBe(23 * HOUR_MS);
  });

  it("passes the window length as the random range", () => {
    const seen: number[] = [];
    randomDurationUntilNext(w1619, at("2024-05-01T10:00:00Z"), false, (max) => {
      seen.push(max);
      return 0;
    });
    expect(seen).toEqual([3 * HOUR_MS]);
  });

  it("before today's window picks today's window", () => {
    const occ = nextWindowOccurrence(w1619, at("2024-05-01T10:00:00Z"));
    expect(occ).toEqual({
      begin: at("2024-05-01T16:00:00Z"),
      end: at("2024-05-01T19:00:00Z"),
      from: at("2024-05-01T10:00:00Z"),
    });
  });

  it("after today's window picks tomorrow's", () => {
    const occ = nextWindowOccurrence(w1619, at("2024-05-01T20:00:00Z"));
    expect(occ.begin).toBe(at("2024-05-02T16:00:00Z"));
    expect(occ.end).toBe(at("2024-05-02T19:00:00Z"));
  });

  it("at the exact begin of the window, begin is not before from: this window", () => {
    expect(randomDurationUntilNext(w1619, at("2024-05-01T16:00:00Z"), false, maxPick)).toBe(3 * HOUR_MS);
  });

  it("a midnight window from inside its first part (23:30) moves to the next night", () => {
    const occ = nextWindowOccurrence(w2301, at("2024-05-01T23:30:00Z"));
    expect(occ.begin).toBe(at("2024-05-02T23:00:00Z"));
    expect(occ.end).toBe(at("2024-05-03T01:00:00Z"));
  });

  it("with shift, from inside the part after midnight moves begin and from by a day", () => {
    const from = at("2024-05-02T00:30:00Z");
    const occ = nextWindowOccurrence(w2301, from, true);
    expect(occ.from).toBe(from + 24 * HOUR_MS);
    expect(occ.begin).toBe(from + 24 * HOUR_MS);
    expect(occ.end).toBe(at("2024-05-03T01:00:00Z"));
    expect(randomDurationUntilNext(w2301, from, true, maxPick)).toBe(30 * 60_000);
  });

  it("without shift, a 23-01 window from 00:30 waits for tonight's window", () => {
    expect(randomDurationUntilNext(w2301, at("2024-05-02T00:30:00Z"), false, zeroPick)).toBe(22.5 * HOUR_MS);
  });

  it("shift has no effect when from is outside the window", () => {
    const from = at("2024-05-01T10:00:00Z");
    expect(nextWindowOccurrence(w1619, from, true)).toEqual(nextWindowOccurrence(w1619, from, false));
  });
});

describe("randomizeWithinTimeWindow (RandomizeWithinTimeWindow)", () => {
  const w = win("140000+0000", "220000+0000");

  it('gives 15:10 for uid "uid" on 14:00-22:00', () => {
    expect(formatClock(randomizeWithinTimeWindow(w, "uid"))).toBe("15:10:00");
  });

  it("stays within the window for any uid, and is stable", () => {
    for (const uid of ["a", "b", "0f6c9a2e-1111-2222-3333-444455556666", ""]) {
      const t = randomizeWithinTimeWindow(w, uid);
      expect(t).toBeGreaterThanOrEqual(hms(14));
      expect(t).toBeLessThan(hms(22));
      expect(t % 60).toBe(0);
      expect(randomizeWithinTimeWindow(w, uid)).toBe(t);
    }
  });

  it("wraps around midnight", () => {
    const night = win("233000+0000", "003000+0000"); // 60 minutes
    // crc32("uid") mod 60 = 10
    expect(formatClock(randomizeWithinTimeWindow(night, "uid"))).toBe("23:40:00");
  });
});

describe("randomDefaultWindow (RandomMaintenanceTimeWindow)", () => {
  it("begins at an hour from 0 to 22 and lasts one hour, in UTC", () => {
    expect(randomDefaultWindow(() => 0)).toEqual({ begin: "000000+0000", end: "010000+0000" });
    expect(randomDefaultWindow(() => 0.5)).toEqual({ begin: "110000+0000", end: "120000+0000" });
    expect(randomDefaultWindow(() => 0.999999)).toEqual({ begin: "220000+0000", end: "230000+0000" });
  });

  it("every hour 0..22 is reachable and the result is always a valid window", () => {
    const hours = new Set<number>();
    for (let i = 0; i < 23; i++) {
      const w = randomDefaultWindow(() => (i + 0.5) / 23);
      hours.add(Number(w.begin.slice(0, 2)));
      expect(validateTimeWindow(w)).toEqual([]);
      expect(windowDurationSeconds(parseTimeWindow(w.begin, w.end))).toBe(H);
    }
    expect([...hours].sort((a, b) => a - b)).toEqual(Array.from({ length: 23 }, (_, i) => i));
  });
});

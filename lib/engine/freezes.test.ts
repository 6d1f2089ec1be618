import { describe, expect, it } from "vitest";
import { type FreezePeriod, freezeCovering, freezeRequestErrors, freezesDuring, parseRfc3339 } from "./freezes.ts";
import { DAY_MS, HOUR_MS } from "./time-units.ts";

const T0 = Date.parse("2026-12-01T00:00:00Z");
const freeze = (id: string, startDays: number, endDays: number, project?: string): FreezePeriod => ({
  id,
  start: T0 + startDays * DAY_MS,
  end: T0 + endDays * DAY_MS,
  reason: `freeze ${id}`,
  ...(project !== undefined ? { project } : {}),
});

describe("freezeCovering", () => {
  const landscape = freeze("a", 10, 20);
  const dev = freeze("b", 5, 12, "dev");
  const longDev = freeze("c", 8, 30, "dev");

  it("holds from start (included) to end (excluded)", () => {
    expect(freezeCovering([landscape], landscape.start, "dev")).toBe(landscape);
    expect(freezeCovering([landscape], landscape.start - 1, "dev")).toBeUndefined();
    expect(freezeCovering([landscape], landscape.end - 1, "dev")).toBe(landscape);
    expect(freezeCovering([landscape], landscape.end, "dev")).toBeUndefined();
  });

  it("applies a project's freeze to that project only, and a landscape-wide one to every project", () => {
    expect(freezeCovering([dev], T0 + 6 * DAY_MS, "dev")).toBe(dev);
    expect(freezeCovering([dev], T0 + 6 * DAY_MS, "prod")).toBeUndefined();
    expect(freezeCovering([dev], T0 + 6 * DAY_MS, undefined)).toBeUndefined();
    expect(freezeCovering([landscape], T0 + 11 * DAY_MS, "prod")).toBe(landscape);
    expect(freezeCovering([landscape], T0 + 11 * DAY_MS, undefined)).toBe(landscape);
  });

  it("names the covering freeze that lasts longest, whatever the order it is given in", () => {
    const at = T0 + 11 * DAY_MS;
    expect(freezeCovering([landscape, dev, longDev], at, "dev")).toBe(longDev);
    expect(freezeCovering([longDev, dev, landscape], at, "dev")).toBe(longDev);
    expect(freezeCovering([dev, landscape], at, "dev")).toBe(landscape);
    const twin = { ...landscape, id: "0" };
    expect(freezeCovering([landscape, twin], at, "prod")).toBe(twin);
  });
});

describe("freezesDuring", () => {
  it("lists the freezes overlapping a range for a project, by start", () => {
    const list = [freeze("a", 10, 20), freeze("b", 5, 12, "dev"), freeze("c", 25, 30), freeze("d", 0, 5, "dev")];
    const ids = (from: number, to: number, project?: string) =>
      freezesDuring(list, T0 + from * DAY_MS, T0 + to * DAY_MS, project).map((f) => f.id);
    expect(ids(4, 11, "dev")).toEqual(["d", "b", "a"]);
    expect(ids(4, 11, "prod")).toEqual(["a"]);
    expect(ids(20, 25, "dev")).toEqual([]);
    expect(ids(0, 40)).toEqual(["a", "c"]);
  });
});

describe("parseRfc3339", () => {
  it("reads date-times with an offset, and nothing else", () => {
    expect(parseRfc3339("2026-12-20T00:00:00+01:00")).toBe(Date.parse("2026-12-19T23:00:00Z"));
    expect(parseRfc3339("2026-12-20t10:30:00.250z")).toBe(Date.parse("2026-12-20T10:30:00.250Z"));
    expect(parseRfc3339("2026-12-20 10:30:00Z")).toBe(Date.parse("2026-12-20T10:30:00Z"));
    for (const bad of [
      "2026-12-20T00:00:00",
      "2026-12-20",
      "2026-02-30T00:00:00Z",
      "2026-12-20T24:00:00Z",
      "2026-12-20T00:00:00+25:00",
      "tomorrow",
      "",
    ])
      expect(parseRfc3339(bad), bad).toBeUndefined();
  });
});

describe("freezeRequestErrors", () => {
  const now = T0;
  const ok = { start: "2026-12-20T00:00:00+01:00", end: "2027-01-02T00:00:00+01:00", reason: "year-end" };
  const fields = (request: Parameters<typeof freezeRequestErrors>[0], max = 90) =>
    freezeRequestErrors(request, now, max).map((e) => `${e.field}:${e.type}`);

  it("accepts a sane freeze, and one that has begun already", () => {
    expect(fields(ok)).toEqual([]);
    expect(fields({ ...ok, start: "2026-11-30T00:00:00Z", end: "2026-12-01T01:00:00Z" })).toEqual([]);
  });

  it("names each field that is missing, unreadable or breaks a rule", () => {
    expect(fields({ reason: "x" })).toEqual(["start:Required", "end:Required"]);
    expect(fields({ ...ok, start: "2026-12-20T00:00:00" })).toEqual(["start:Invalid"]);
    expect(fields({ ...ok, end: ok.start })).toEqual(["end:Invalid"]);
    expect(fields({ ...ok, end: "2026-12-19T00:00:00Z" })).toEqual(["end:Invalid"]);
    expect(fields({ ...ok, reason: "  " })).toEqual(["reason:Required"]);
    expect(fields({ ...ok, reason: "x".repeat(501) })).toEqual(["reason:Invalid"]);
    expect(fields({ start: "2026-11-01T00:00:00Z", end: "2026-11-30T00:00:00Z", reason: "x" })).toEqual([
      "end:Invalid",
    ]);
  });

  it("refuses a freeze longer than the maximum, saying the maximum", () => {
    const long = { ...ok, end: new Date(Date.parse("2026-12-19T23:00:00Z") + 10 * DAY_MS + HOUR_MS).toISOString() };
    const errors = freezeRequestErrors(long, now, 10);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ field: "end", type: "Invalid" });
    expect(errors[0].detail).toContain("at most 10 days");
    expect(
      fields({ ...ok, end: new Date(Date.parse("2026-12-19T23:00:00Z") + 10 * DAY_MS).toISOString() }, 10),
    ).toEqual([]);
  });
});

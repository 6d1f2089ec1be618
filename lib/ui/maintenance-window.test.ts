import { describe, expect, it } from "vitest";
import {
  clockInZone,
  clockSpan,
  dayLabelInZone,
  daylightSavingNotice,
  describeMinutes,
  formatClock,
  nextOccurrences,
  parseClock,
  sameWindow,
  windowFromClock,
  windowOnClock,
} from "./maintenance-window";

const at = (iso: string) => new Date(iso);
const WINTER = at("2026-11-23T09:00:00Z");
const SUMMER = at("2026-07-01T09:00:00Z");

describe("clock texts", () => {
  it("parses and writes HH:MM", () => {
    expect(parseClock("22:00")).toBe(1320);
    expect(parseClock("7:05")).toBe(425);
    expect(parseClock("24:00")).toBeUndefined();
    expect(parseClock("22:60")).toBeUndefined();
    expect(parseClock("2200")).toBeUndefined();
    expect(formatClock(1320 + 120)).toBe("00:00");
    expect(formatClock(-30)).toBe("23:30");
  });

  it("measures spans across midnight, a zero span being a whole day", () => {
    expect(clockSpan(1320, 0)).toBe(120);
    expect(clockSpan(60, 90)).toBe(30);
    expect(clockSpan(60, 60)).toBe(1440);
    expect(describeMinutes(120)).toBe("2 h");
    expect(describeMinutes(90)).toBe("1 h 30 min");
    expect(describeMinutes(20)).toBe("20 min");
  });
});

describe("windowFromClock", () => {
  it("stores a start and an end with the zone's offset now", () => {
    expect(windowFromClock("22:00", { end: "00:00" }, "Europe/Berlin", WINTER)).toEqual({
      begin: "220000+0100",
      end: "000000+0100",
    });
    expect(windowFromClock("22:00", { end: "00:00" }, "Europe/Berlin", SUMMER)).toEqual({
      begin: "220000+0200",
      end: "000000+0200",
    });
    expect(windowFromClock("03:00", { end: "05:30" }, "Asia/Kolkata", WINTER)).toEqual({
      begin: "030000+0530",
      end: "053000+0530",
    });
  });

  it("computes the end from a duration, across midnight", () => {
    expect(windowFromClock("23:30", { durationMinutes: 90 }, "America/New_York", WINTER)).toEqual({
      begin: "233000-0500",
      end: "010000-0500",
    });
    // A 20-minute window is written as asked; the server decides (and refuses it).
    expect(windowFromClock("22:00", { durationMinutes: 20 }, "UTC", WINTER)).toEqual({
      begin: "220000+0000",
      end: "222000+0000",
    });
  });

  it("gives nothing for unreadable input", () => {
    expect(windowFromClock("22", { end: "23:00" }, "UTC", WINTER)).toBeUndefined();
    expect(windowFromClock("22:00", { durationMinutes: 1.5 }, "UTC", WINTER)).toBeUndefined();
    expect(windowFromClock("22:00", { durationMinutes: -5 }, "UTC", WINTER)).toBeUndefined();
  });
});

describe("windowOnClock", () => {
  it("shows a stored window on another zone's clock with its length", () => {
    expect(windowOnClock({ begin: "220000+0100", end: "000000+0100" }, "Asia/Kolkata", WINTER)).toEqual({
      start: "02:30",
      end: "04:30",
      durationMinutes: 120,
    });
    expect(windowOnClock({ begin: "220000+0100", end: "000000+0100" }, "Europe/Berlin", WINTER)).toEqual({
      start: "22:00",
      end: "00:00",
      durationMinutes: 120,
    });
    expect(windowOnClock({ begin: "bad", end: "000000+0100" }, "UTC", WINTER)).toBeUndefined();
  });

  it("round-trips through windowFromClock to the same moments", () => {
    const stored = { begin: "233000-0500", end: "010000-0500" };
    const clock = windowOnClock(stored, "Europe/Berlin", WINTER)!;
    const again = windowFromClock(clock.start, { end: clock.end }, "Europe/Berlin", WINTER)!;
    expect(again).toEqual({ begin: "053000+0100", end: "070000+0100" });
    expect(sameWindow(again, stored)).toBe(true);
  });
});

describe("sameWindow", () => {
  it("compares moments, not how the offset is written", () => {
    expect(sameWindow({ begin: "220000+0100", end: "000000+0100" }, { begin: "210000+0000", end: "230000+0000" })).toBe(
      true,
    );
    expect(sameWindow({ begin: "220000+0100", end: "000000+0100" }, { begin: "220000+0000", end: "000000+0000" })).toBe(
      false,
    );
    expect(sameWindow(undefined, undefined)).toBe(true);
    expect(sameWindow({ begin: "220000+0100", end: "000000+0100" }, undefined)).toBe(false);
  });
});

describe("nextOccurrences", () => {
  it("lists the next windows in UTC, each day at the same moment", () => {
    const next = nextOccurrences({ begin: "220000+0100", end: "000000+0100" }, WINTER, 3);
    expect(next.map((o) => [o.start.toISOString(), o.end.toISOString()])).toEqual([
      ["2026-11-23T21:00:00.000Z", "2026-11-23T23:00:00.000Z"],
      ["2026-11-24T21:00:00.000Z", "2026-11-24T23:00:00.000Z"],
      ["2026-11-25T21:00:00.000Z", "2026-11-25T23:00:00.000Z"],
    ]);
  });

  it("starts with the window under way, also one that began the day before", () => {
    const next = nextOccurrences({ begin: "230000+0000", end: "020000+0000" }, at("2026-11-23T01:00:00Z"), 2);
    expect(next.map((o) => o.start.toISOString())).toEqual(["2026-11-22T23:00:00.000Z", "2026-11-23T23:00:00.000Z"]);
  });
});

describe("daylightSavingNotice", () => {
  it("says when Europe/Berlin moves and where the window then starts", () => {
    const notice = daylightSavingNotice({ begin: "220000+0100", end: "000000+0100" }, "Europe/Berlin", WINTER)!;
    expect(notice.at.toISOString()).toBe("2027-03-28T01:00:00.000Z");
    expect(notice.toOffset).toBe(120);
    expect(notice.startAfter).toBe("23:00");
    expect(notice.endAfter).toBe("01:00");
    expect(notice.message).toBe(
      "Europe/Berlin moves to UTC+02:00 on 28 Mar 2027; Gardener stores a fixed offset, so this window will then start at 23:00 local time.",
    );
  });

  it("works the other way round in summer", () => {
    const notice = daylightSavingNotice({ begin: "220000+0200", end: "000000+0200" }, "Europe/Berlin", SUMMER)!;
    expect(notice.message).toBe(
      "Europe/Berlin moves to UTC+01:00 on 25 Oct 2026; Gardener stores a fixed offset, so this window will then start at 21:00 local time.",
    );
  });

  it("says nothing for a zone without daylight saving", () => {
    expect(daylightSavingNotice({ begin: "030000+0530", end: "050000+0530" }, "Asia/Kolkata", WINTER)).toBeUndefined();
    expect(daylightSavingNotice({ begin: "030000+0000", end: "050000+0000" }, "UTC", WINTER)).toBeUndefined();
  });
});

describe("zone labels", () => {
  it("formats on the zone's clock", () => {
    expect(clockInZone(at("2026-11-23T21:00:00Z"), "Europe/Berlin")).toBe("22:00");
    expect(clockInZone(at("2026-11-23T23:00:00Z"), "UTC")).toBe("23:00");
    expect(dayLabelInZone(at("2026-11-23T23:30:00Z"), "Europe/Berlin")).toBe("Tue 24 Nov");
  });
});

import { describe, expect, it } from "vitest";
import {
  describeOffset,
  formatOffset,
  isTimeZone,
  localClock,
  offsetMinutes,
  offsetShifts,
  parseGardenerTime,
  timeZoneNames,
  toGardenerTime,
  utcMinuteOfDay,
  zoneWithOffset,
} from "./time-zones";

const at = (iso: string) => new Date(iso);

describe("offsetMinutes", () => {
  it("follows daylight saving in Europe/Berlin", () => {
    expect(offsetMinutes("Europe/Berlin", at("2026-11-23T12:00:00Z"))).toBe(60);
    expect(offsetMinutes("Europe/Berlin", at("2026-07-01T12:00:00Z"))).toBe(120);
  });

  it("knows half-hour, quarter-hour and western zones", () => {
    expect(offsetMinutes("Asia/Kolkata", at("2026-11-23T12:00:00Z"))).toBe(330);
    expect(offsetMinutes("Asia/Kathmandu", at("2026-11-23T12:00:00Z"))).toBe(345);
    expect(offsetMinutes("America/New_York", at("2026-11-23T12:00:00Z"))).toBe(-300);
    expect(offsetMinutes("UTC", at("2026-11-23T12:00:00Z"))).toBe(0);
  });
});

describe("offset texts", () => {
  it("writes Gardener's and people's forms", () => {
    expect(formatOffset(60)).toBe("+0100");
    expect(formatOffset(-330)).toBe("-0530");
    expect(formatOffset(0)).toBe("+0000");
    expect(describeOffset(345)).toBe("UTC+05:45");
    expect(describeOffset(-300)).toBe("UTC-05:00");
  });
});

describe("Gardener times", () => {
  it("round-trips HH:MM with an offset through HHMMSS+HHMM", () => {
    for (const [clock, offset] of [
      ["22:00", 60],
      ["00:30", -300],
      ["23:45", 330],
      ["05:00", 0],
    ] as const) {
      const text = toGardenerTime(clock, offset);
      const parsed = parseGardenerTime(text);
      expect(parsed).toBeDefined();
      expect(`${String(parsed!.hour).padStart(2, "0")}:${String(parsed!.minute).padStart(2, "0")}`).toBe(clock);
      expect(parsed!.offsetMinutes).toBe(offset);
      expect(toGardenerTime(clock, parsed!.offsetMinutes)).toBe(text);
    }
    expect(toGardenerTime("22:00", 60)).toBe("220000+0100");
    expect(toGardenerTime("3:05", -330)).toBe("030500-0530");
  });

  it("refuses anything that is not HHMMSS+HHMM", () => {
    expect(parseGardenerTime("22:00")).toBeUndefined();
    expect(parseGardenerTime("2200+0100")).toBeUndefined();
    expect(parseGardenerTime("220000 0100")).toBeUndefined();
  });

  it("converts to the minute of the day in UTC, across midnight", () => {
    expect(utcMinuteOfDay(parseGardenerTime("220000+0100")!)).toBe(21 * 60);
    expect(utcMinuteOfDay(parseGardenerTime("003000+0200")!)).toBe(22 * 60 + 30);
    expect(utcMinuteOfDay(parseGardenerTime("230000-0500")!)).toBe(4 * 60);
  });

  it("shows a stored time on another zone's clock", () => {
    const t = parseGardenerTime("220000+0100")!;
    expect(localClock(t, "Asia/Kolkata", at("2026-11-23T12:00:00Z"))).toBe("02:30");
    expect(localClock(t, "Europe/Berlin", at("2026-11-23T12:00:00Z"))).toBe("22:00");
    // In summer Berlin is at +02:00, so the same fixed-offset window starts an hour later there.
    expect(localClock(t, "Europe/Berlin", at("2027-07-01T12:00:00Z"))).toBe("23:00");
  });
});

describe("offsetShifts", () => {
  it("finds both daylight saving changes of Europe/Berlin to the minute", () => {
    const shifts = offsetShifts("Europe/Berlin", at("2026-06-01T00:00:00Z"));
    expect(shifts.map((s) => [s.at.toISOString(), s.from, s.to])).toEqual([
      ["2026-10-25T01:00:00.000Z", 120, 60],
      ["2027-03-28T01:00:00.000Z", 60, 120],
    ]);
  });

  it("finds none for a zone without daylight saving", () => {
    expect(offsetShifts("Asia/Kolkata", at("2026-06-01T00:00:00Z"))).toEqual([]);
    expect(offsetShifts("UTC", at("2026-06-01T00:00:00Z"))).toEqual([]);
  });

  it("limits the search to the days asked for", () => {
    expect(offsetShifts("Europe/Berlin", at("2026-11-23T00:00:00Z"), 30)).toEqual([]);
  });
});

describe("timeZoneNames", () => {
  it("lists UTC first and the IANA zones", () => {
    const names = timeZoneNames();
    expect(names[0]).toBe("UTC");
    expect(names).toContain("Europe/Berlin");
    expect(names).toContain("Asia/Kolkata");
    expect(names.filter((n) => n === "UTC")).toHaveLength(1);
  });
});

describe("isTimeZone", () => {
  it("accepts old and new IANA names and refuses others", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("Asia/Kolkata")).toBe(true);
    expect(isTimeZone("Asia/Calcutta")).toBe(true);
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });
});

describe("zoneWithOffset", () => {
  it("names a well-known zone for a bare offset, as it is at that moment", () => {
    expect(zoneWithOffset(540, at("2026-11-23T12:00:00Z"))).toBe("Asia/Tokyo");
    expect(zoneWithOffset(330, at("2026-11-23T12:00:00Z"))).toBe("Asia/Kolkata");
    expect(zoneWithOffset(-300, at("2026-11-23T12:00:00Z"))).toBe("America/New_York");
    // In July New York is at -04:00, and -05:00 is Chicago's daylight saving time.
    expect(zoneWithOffset(-300, at("2026-07-01T12:00:00Z"))).toBe("America/Chicago");
    expect(zoneWithOffset(60, at("2026-07-01T12:00:00Z"))).toBe("Europe/London");
    expect(zoneWithOffset(17, at("2026-07-01T12:00:00Z"))).toBeUndefined();
  });
});

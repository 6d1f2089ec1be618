import { describe, expect, it } from "vitest";
import { dayInZone, nextDigestMoment } from "./notification-mail-digest.ts";

const at = (iso: string) => new Date(iso);

describe("nextDigestMoment", () => {
  it("is the next 07:00 in UTC, strictly after the moment given", () => {
    expect(nextDigestMoment(at("2026-11-28T06:59:59.999Z"), "07:00", "UTC")).toEqual(at("2026-11-28T07:00:00Z"));
    expect(nextDigestMoment(at("2026-11-28T07:00:00Z"), "07:00", "UTC")).toEqual(at("2026-11-29T07:00:00Z"));
  });

  it("follows the zone's offset on each side of daylight saving", () => {
    // Europe/Berlin: CET (+1) in winter, CEST (+2) in summer.
    expect(nextDigestMoment(at("2026-03-28T12:00:00Z"), "07:00", "Europe/Berlin")).toEqual(at("2026-03-29T05:00:00Z"));
    expect(nextDigestMoment(at("2026-03-27T12:00:00Z"), "07:00", "Europe/Berlin")).toEqual(at("2026-03-28T06:00:00Z"));
    expect(nextDigestMoment(at("2026-10-24T12:00:00Z"), "07:00", "Europe/Berlin")).toEqual(at("2026-10-25T06:00:00Z"));
    // America/New_York springs forward on 2026-03-08: 07:00 EDT is 11:00 UTC, the day before 12:00 UTC.
    expect(nextDigestMoment(at("2026-03-07T13:00:00Z"), "07:00", "America/New_York")).toEqual(
      at("2026-03-08T11:00:00Z"),
    );
  });

  it("sends a time the spring change skips just after the gap, and a repeated time once", () => {
    // 2026-03-29 in Berlin has no 02:00-03:00: 02:30 becomes 03:00 CEST (01:00 UTC).
    expect(nextDigestMoment(at("2026-03-28T12:00:00Z"), "02:30", "Europe/Berlin")).toEqual(at("2026-03-29T01:00:00Z"));
    // 2026-10-25 in Berlin has 02:30 twice (00:30 and 01:30 UTC): only the first, then the next day's.
    const first = nextDigestMoment(at("2026-10-24T12:00:00Z"), "02:30", "Europe/Berlin");
    expect(first).toEqual(at("2026-10-25T00:30:00Z"));
    expect(nextDigestMoment(first, "02:30", "Europe/Berlin")).toEqual(at("2026-10-26T01:30:00Z"));
  });
});

describe("dayInZone", () => {
  it("is the calendar day where the reader is", () => {
    expect(dayInZone(at("2026-11-28T23:30:00Z"), "UTC")).toBe("2026-11-28");
    expect(dayInZone(at("2026-11-28T23:30:00Z"), "Europe/Berlin")).toBe("2026-11-29");
  });
});

import { describe, expect, it } from "vitest";
import { daysUntil, formatCountdown, formatRelative, formatRelativeShort, formatSpan, formatUtc } from "./time";

const now = Date.parse("2026-11-23T10:00:00Z");

describe("times as people read them", () => {
  it("gives spans in their two largest units", () => {
    expect(formatSpan(40_000)).toBe("40 s");
    expect(formatSpan(5 * 3_600_000 + 3 * 60_000)).toBe("5 h 3 min");
    expect(formatSpan(12 * 86_400_000 + 4 * 3_600_000)).toBe("12 d");
    expect(formatSpan(2 * 86_400_000 + 4 * 3_600_000)).toBe("2 d 4 h");
  });

  it("says in or ago, and now within a minute", () => {
    expect(formatRelative(now + 5 * 3_600_000, now)).toBe("in 5 h");
    expect(formatRelative(now - 3 * 86_400_000, now)).toBe("3 d ago");
    expect(formatRelative(now + 20_000, now)).toBe("now");
    expect(formatRelativeShort(now + 14 * 3_600_000 + 55 * 60_000, now)).toBe("in 15 h");
    expect(formatRelativeShort(now - 111 * 86_400_000, now)).toBe("111 d ago");
  });

  it("counts down with seconds under a day, never below zero", () => {
    expect(formatCountdown(now + 4 * 3_600_000 + 3 * 60_000 + 12_000, now)).toBe("4 h 03 min 12 s");
    expect(formatCountdown(now + 12 * 86_400_000 + 4 * 3_600_000 + 3 * 60_000, now)).toBe("12 d 04 h 03 min");
    expect(formatCountdown(now - 1, now)).toBe("0 h 00 min 00 s");
  });

  it("counts whole days as the Gardener dashboard does, and prints UTC", () => {
    expect(daysUntil(now + 30 * 86_400_000 - 1, now)).toBe(29);
    expect(daysUntil(now - 1, now)).toBe(-1);
    expect(formatUtc("2026-12-03T22:00:00Z")).toBe("Thu, 3 Dec 2026, 22:00 UTC");
  });
});

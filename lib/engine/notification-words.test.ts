import { describe, expect, it } from "vitest";
import { inTimeWords, utcMinute } from "./notification-words.ts";

const NOW = Date.parse("2026-11-24T03:00:00Z");
const H = 3_600_000;

describe("notification words", () => {
  it("names a moment in UTC to the minute", () => {
    expect(utcMinute(Date.parse("2026-12-01T03:00:59.999Z"))).toBe("2026-12-01 03:00 UTC");
  });

  it("says how far ahead in days, hours or minutes", () => {
    expect(inTimeWords(NOW + 7 * 24 * H, NOW)).toBe("in 7 days");
    expect(inTimeWords(NOW + 6.6 * 24 * H, NOW)).toBe("in 7 days");
    expect(inTimeWords(NOW + 24 * H, NOW)).toBe("in 1 day");
    expect(inTimeWords(NOW + 23 * H, NOW)).toBe("in 23 hours");
    expect(inTimeWords(NOW + H, NOW)).toBe("in 1 hour");
    expect(inTimeWords(NOW + 20 * 60_000, NOW)).toBe("in 20 minutes");
    expect(inTimeWords(NOW + 30_000, NOW)).toBe("now");
    expect(inTimeWords(NOW - H, NOW)).toBe("now");
  });
});

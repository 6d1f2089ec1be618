import { describe, expect, it } from "vitest";
import { forcedInsideText, freezeLength, localInputToRfc3339, rfc3339ToLocalInput } from "./freeze-text.ts";

describe("freezeLength", () => {
  it("says a freeze's length in days, hours and minutes", () => {
    expect(freezeLength("2026-12-20T00:00:00Z", "2027-01-02T00:00:00Z")).toBe("13 days");
    expect(freezeLength("2026-12-20T00:00:00Z", "2026-12-21T06:00:00Z")).toBe("1 day 6 h");
    expect(freezeLength("2026-12-20T00:00:00Z", "2026-12-20T05:30:00Z")).toBe("5 h 30 min");
    expect(freezeLength("2026-12-20T00:00:00Z", "2026-12-20T00:45:00Z")).toBe("45 min");
  });
});

describe("localInputToRfc3339", () => {
  it("reads a datetime-local value in the browser's zone, and nothing else", () => {
    const value = "2026-12-20T08:30";
    expect(localInputToRfc3339(value)).toBe(new Date(2026, 11, 20, 8, 30).toISOString());
    expect(rfc3339ToLocalInput(Date.parse(localInputToRfc3339(value)!))).toBe(value);
    expect(localInputToRfc3339("")).toBeUndefined();
    expect(localInputToRfc3339("20.12.2026")).toBeUndefined();
  });
});

describe("forcedInsideText", () => {
  it("counts updates and clusters", () => {
    expect(forcedInsideText(0, 0)).toBe("Gardener forces no update inside this freeze.");
    expect(forcedInsideText(1, 1)).toContain("1 update on 1 cluster inside");
    expect(forcedInsideText(3, 2)).toContain("3 updates on 2 clusters inside");
  });
});

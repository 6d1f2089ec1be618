import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.ts";
import { outlived } from "./session-lifetime.ts";

const sessionMaxMs = (env: Record<string, string>) => loadConfig(env).signIn.sessionMaxMs;

const HOUR = 3_600_000;

describe("the absolute session lifetime (ALMANAC_SESSION_MAX_HOURS)", () => {
  it("is 12 hours unless set, and takes 1 to 720 hours", () => {
    expect(sessionMaxMs({})).toBe(12 * HOUR);
    expect(sessionMaxMs({ ALMANAC_SESSION_MAX_HOURS: "24" })).toBe(24 * HOUR);
    expect(sessionMaxMs({ ALMANAC_SESSION_MAX_HOURS: "1.5" })).toBe(1.5 * HOUR);
    for (const bad of ["0", "721", "-3", "twelve", "12h"])
      expect(() => sessionMaxMs({ ALMANAC_SESSION_MAX_HOURS: bad }), bad).toThrow(/ALMANAC_SESSION_MAX_HOURS/);
  });

  it("ends a session counted from its sign-in, however recently it was used", () => {
    const signedIn = new Date(0);
    expect(outlived(signedIn, new Date(12 * HOUR - 1), 12 * HOUR)).toBe(false);
    expect(outlived(signedIn, new Date(12 * HOUR), 12 * HOUR)).toBe(true);
  });
});

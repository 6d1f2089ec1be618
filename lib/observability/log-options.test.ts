import { describe, expect, it } from "vitest";
import { logOptions } from "./log-options.ts";

describe("logOptions", () => {
  it("writes JSON lines for a collector and pretty ones for a person, unless told", () => {
    expect(logOptions({}, false)).toEqual({ level: "info", pretty: false });
    expect(logOptions({ NODE_ENV: "production" }, false)).toEqual({ level: "info", pretty: false });
    expect(logOptions({}, true)).toEqual({ level: "info", pretty: true });
    expect(logOptions({ NODE_ENV: "development" }, false).pretty).toBe(true);
    expect(logOptions({ ALMANAC_LOG_FORMAT: "json" }, true).pretty).toBe(false);
    expect(logOptions({ ALMANAC_LOG_FORMAT: "Pretty", NODE_ENV: "production" }, false).pretty).toBe(true);
  });

  it("takes pino's levels and refuses anything else, naming the variable", () => {
    expect(logOptions({ ALMANAC_LOG_LEVEL: "DEBUG" }, false).level).toBe("debug");
    expect(logOptions({ ALMANAC_LOG_LEVEL: " " }, false).level).toBe("info");
    expect(() => logOptions({ ALMANAC_LOG_LEVEL: "verbose" }, false)).toThrow(/ALMANAC_LOG_LEVEL must be one of/);
    expect(() => logOptions({ ALMANAC_LOG_FORMAT: "xml" }, false)).toThrow(/ALMANAC_LOG_FORMAT must be "json"/);
  });
});

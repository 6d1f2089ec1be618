import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.ts";
import { logOptions as optionsOf } from "./log-options.ts";

const logOptions = (env: Record<string, string>, terminal: boolean) => optionsOf(loadConfig(env), terminal);

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
    expect(() => logOptions({ ALMANAC_LOG_LEVEL: "verbose" }, false)).toThrow(
      /ALMANAC_LOG_LEVEL is "verbose", expected one of/,
    );
    expect(() => logOptions({ ALMANAC_LOG_FORMAT: "xml" }, false)).toThrow(
      /ALMANAC_LOG_FORMAT is "xml", expected one of "json", "pretty"/,
    );
  });
});

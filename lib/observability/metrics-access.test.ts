import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.ts";
import { mayScrapeFrom } from "./metrics-access.ts";

const metricsAllowList = (env: Record<string, string>) => loadConfig(env).observability.metricsAllow;

describe("ALMANAC_METRICS_ALLOW", () => {
  it("lets listed addresses and ranges scrape, IPv4-mapped peers included, and nobody when unset", () => {
    const list = metricsAllowList({ ALMANAC_METRICS_ALLOW: "127.0.0.1, 10.0.0.0/8,fd00::/64" });
    expect(mayScrapeFrom(list, "127.0.0.1")).toBe(true);
    expect(mayScrapeFrom(list, "::ffff:127.0.0.1")).toBe(true);
    expect(mayScrapeFrom(list, "10.20.30.40")).toBe(true);
    expect(mayScrapeFrom(list, "fd00::5")).toBe(true);
    expect(mayScrapeFrom(list, "127.0.0.2")).toBe(false);
    expect(mayScrapeFrom(list, "fd01::5")).toBe(false);
    expect(mayScrapeFrom(list, undefined)).toBe(false);
    expect(mayScrapeFrom(list, "not an address")).toBe(false);
    expect(metricsAllowList({})).toEqual([]);
    expect(mayScrapeFrom(metricsAllowList({ ALMANAC_METRICS_ALLOW: "" }), "127.0.0.1")).toBe(false);
  });

  it("refuses malformed entries and /0, naming the entry", () => {
    for (const [value, message] of [
      ["localhost", 'entry "localhost": it must be an IP address'],
      ["10.0.0.0/33", 'entry "10.0.0.0/33": the prefix length must be a number from 1 to 32'],
      ["0.0.0.0/0", 'entry "0.0.0.0/0": the prefix length must be a number from 1 to 32'],
      ["::/0", 'entry "::/0": the prefix length must be a number from 1 to 128'],
      ["10.0.0.1,,10.0.0.2", 'ALMANAC_METRICS_ALLOW is "10.0.0.1,,10.0.0.2" (an empty entry)'],
    ]) {
      expect(() => metricsAllowList({ ALMANAC_METRICS_ALLOW: value }), value).toThrow(message);
    }
  });
});

// A malformed log or metrics setting stops `npm start` at once with exit code 2 and a message
// naming the setting, before the database or the web servers start (a web process would otherwise
// log at a level nobody chose, or refuse every scraper).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const start = path.resolve(import.meta.dirname, "../../scripts/start.mjs");

describe("npm start with a malformed observability setting", () => {
  it.each([
    [
      { ALMANAC_METRICS_ALLOW: "prometheus.local" },
      'ALMANAC_METRICS_ALLOW is "prometheus.local" (entry "prometheus.local": it must be',
    ],
    [
      { ALMANAC_METRICS_ALLOW: "0.0.0.0/0" },
      'ALMANAC_METRICS_ALLOW is "0.0.0.0/0" (entry "0.0.0.0/0": the prefix length',
    ],
    [
      { ALMANAC_LOG_LEVEL: "loud" },
      'ALMANAC_LOG_LEVEL is "loud", expected one of "fatal", "error", "warn", "info", "debug", "trace", "silent"',
    ],
    [{ ALMANAC_LOG_FORMAT: "xml" }, 'ALMANAC_LOG_FORMAT is "xml", expected one of "json", "pretty"'],
  ])("%j stops it with exit code 2, naming the setting", (env, message) => {
    const run = spawnSync(process.execPath, [start], {
      env: { ...process.env, ALMANAC_ADMIN_TOKEN: "", ...env },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(`${run.stdout}${run.stderr}`).toContain(`Almanac cannot start: ${message}`);
    expect(run.status).toBe(2);
  });
});

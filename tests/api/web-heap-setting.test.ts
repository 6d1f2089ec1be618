// A malformed heap cap for the web processes stops `npm start` at once with exit code 2 and a
// message naming the setting, before the database or the web servers start.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const start = path.resolve(import.meta.dirname, "../../scripts/start.mjs");

describe("npm start with a malformed ALMANAC_WEB_HEAP_MB", () => {
  it.each(["64", "half"])("%j stops it with exit code 2, naming the setting", (mb) => {
    const run = spawnSync(process.execPath, [start], {
      env: { ...process.env, ALMANAC_ADMIN_TOKEN: "", ALMANAC_WEB_HEAP_MB: mb },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(`${run.stdout}${run.stderr}`).toContain(
      `Almanac cannot start: ALMANAC_WEB_HEAP_MB is "${mb}", expected a whole number of megabytes at least 192.`,
    );
    expect(run.status).toBe(2);
  });
});

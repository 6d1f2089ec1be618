// A server started with `next start` (no scripts/web-worker.mjs in front) checks the settings too,
// in Next's instrumentation hook: a wrong one stops it with exit code 2, naming it, before it
// answers anything. Needs the build, as every test that starts Next does.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../support/app-server.ts";

const root = path.resolve(import.meta.dirname, "../..");
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

describe("next start with a wrong setting", () => {
  it("stops with exit code 2, naming it", async () => {
    const port = await freePort();
    const run = spawnSync(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
      cwd: root,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ALMANAC_ADMIN_TOKEN: "", ALMANAC_DB_TIMEOUT_MS: "soon" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(`${run.stdout}${run.stderr}`).toContain(
      'Almanac cannot start: ALMANAC_DB_TIMEOUT_MS is "soon", expected a whole number of milliseconds at least 0.',
    );
    expect(run.status).toBe(2);
  });
});

// Every process reads the configuration before anything else: a wrong value stops `npm start`
// (before it builds, so no build is needed here), `npm run worker` and a web process on its own
// with exit code 2 and a line naming the variable, its value and what is expected. A value once
// silently ignored (ALMANAC_WEB_WORKERS=abc ran one web process per CPU) now stops them too.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const scripts = path.resolve(import.meta.dirname, "../../scripts");

function run(script: string, env: Record<string, string>) {
  const result = spawnSync(process.execPath, [path.join(scripts, script)], {
    env: { ...process.env, ALMANAC_ADMIN_TOKEN: "", ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("a wrong setting", () => {
  it.each(["start.mjs", "worker.ts", "web-worker.mjs"])("stops %s with exit code 2, naming it", (script) => {
    const { status, output } = run(script, { ALMANAC_WEB_WORKERS: "abc", ALMANAC_GARDENLET: "sometimes" });
    expect(output).toContain(
      'Almanac cannot start: ALMANAC_WEB_WORKERS is "abc", expected a whole number from 1 to 64.',
    );
    expect(output).toContain('Almanac cannot start: ALMANAC_GARDENLET is "sometimes", expected "on" or "off".');
    expect(status).toBe(2);
  });

  it("shows a secret only as set", () => {
    const { status, output } = run("start.mjs", { ALMANAC_ADMIN_TOKEN: "not-long-enough" });
    expect(output).toContain("ALMANAC_ADMIN_TOKEN is set (15 characters, not shown)");
    expect(output).not.toContain("not-long-enough");
    expect(status).toBe(2);
  });
});

// Settings are read in one place: no module of lib/ or scripts/ reads an environment variable
// itself (passing the environment on to a child process is not reading it), and modules take
// their values from the configuration object, so a test can hand them one of its own.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { groupRoles } from "../auth/group-roles.ts";
import { trustedProxyEnabled } from "../auth/trusted-proxy.ts";
import { jobsConfig } from "../jobs/config.ts";
import { loadConfig, useConfig } from "./load-config.ts";

const root = path.resolve(import.meta.dirname, "../..");
// Not Almanac's settings: the engine benchmark's own arguments, Next's telemetry switch set for a
// build, and Node's compile cache set for the processes the tests start (scripts/test.mjs).
const ALLOWED = [
  "process.env.BENCH_SHOOTS",
  "process.env.BENCH_ROUNDS",
  "process.env.NEXT_TELEMETRY_DISABLED ??=",
  "process.env.NODE_COMPILE_CACHE ??=",
];

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(ts|tsx|mjs)$/.test(file) && !file.endsWith(".test.ts"))
    .map((file) => path.join(dir, file))
    .filter(
      (file) => !file.startsWith(path.join("lib", "db", "generated")) && !file.startsWith(path.join("lib", "config")),
    );
}

describe("environment variables", () => {
  it("are read only by lib/config", () => {
    const reads = ["lib", "scripts", "app"].flatMap(sources).flatMap((file) =>
      readFileSync(path.join(root, file), "utf8")
        .split("\n")
        .filter((line) => /process\.env(\.|\[)/.test(line) && !ALLOWED.some((allowed) => line.includes(allowed)))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(reads).toEqual([]);
  });
});

describe("modules", () => {
  afterEach(() => useConfig(undefined));

  it("read the configuration object they are handed", () => {
    useConfig(
      loadConfig({
        ALMANAC_GROUP_ROLES: "ops=operator",
        ALMANAC_TRUSTED_PROXY_ADDRESSES: "10.0.0.1",
        ALMANAC_RECONCILE_STEP_MS: "5",
      }),
    );
    expect(groupRoles()).toEqual([{ group: "ops", role: "operator", scope: "*" }]);
    expect(trustedProxyEnabled()).toBe(true);
    expect(jobsConfig().reconcileStepMs).toBe(5);
  });
});

// A malformed sign-in setting stops `npm start` at once with exit code 2 and a message naming the
// setting, before the database or the web servers start.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const start = path.resolve(import.meta.dirname, "../../scripts/start.mjs");

function startWith(env: Record<string, string>) {
  const run = spawnSync(process.execPath, [start], {
    env: { ...process.env, ALMANAC_ADMIN_TOKEN: "", ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("npm start with a malformed sign-in setting", () => {
  it.each([
    [
      { ALMANAC_ADMIN_TOKEN: "too-short" },
      "ALMANAC_ADMIN_TOKEN is set (9 characters, not shown), expected at least 16 characters.",
    ],
    [
      { ALMANAC_GROUP_ROLES: "ops=owner" },
      'ALMANAC_GROUP_ROLES is "ops=owner" (entry "ops=owner": "owner" is not a role',
    ],
    [{ ALMANAC_OIDC_ISSUER: "https://login.example.com" }, "ALMANAC_OIDC_CLIENT_ID is not set: it must be set"],
  ])("%j stops it with exit code 2, naming the setting", (env, message) => {
    const { status, output } = startWith(env);
    expect(output).toContain(`Almanac cannot start: ${message}`);
    expect(status).toBe(2);
  });
});

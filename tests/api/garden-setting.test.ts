// A live garden that is no garden stops `npm start` with exit code 2 and a message naming the
// setting, before the database or the web servers start: an API server that does not serve
// Gardener's API. (A token file that is missing does not stop it: tests/api/garden-token-readiness.test.ts.)
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStandInGarden, type StandInGarden } from "../support/stand-in-garden.ts";

const start = path.resolve(import.meta.dirname, "../../scripts/start.mjs");
let garden: StandInGarden;
let directory: string;

beforeAll(async () => {
  garden = await startStandInGarden();
  directory = fs.mkdtempSync(path.join(os.tmpdir(), "garden-setting-"));
});
afterAll(async () => {
  await garden?.close();
  fs.rmSync(directory, { recursive: true, force: true });
});

/** Runs `npm start` (asynchronously: the stand-in garden answers from this process). */
function startWith(env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [start], {
      env: { ...process.env, ALMANAC_ADMIN_TOKEN: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

describe("npm start with a live garden that is no garden", () => {
  it("stops with exit code 2 when the API server does not serve core.gardener.cloud, pointing to the token kubeconfig", async () => {
    const file = garden.writeKubeconfig({ file: path.join(directory, "not-a-garden") });
    // The same credentials against a path where nothing serves Gardener's API.
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(garden.url, `${garden.url}/elsewhere`));
    const { status, output } = await startWith({ GARDEN_KUBECONFIG: file });
    expect(output).toContain(
      `Almanac cannot start: GARDEN_KUBECONFIG (${file}): the API server ${garden.url}/elsewhere`,
    );
    expect(output).toContain("does not serve core.gardener.cloud");
    expect(output).toContain("token kubeconfig");
    expect(status).toBe(2);
  });
});

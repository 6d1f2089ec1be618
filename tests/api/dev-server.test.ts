// `npm run dev` as a new contributor runs it, with no setting: on an empty data folder it starts
// the embedded PostgreSQL, migrates, makes the demo landscape and serves it from `next dev`; Ctrl-C
// (SIGINT) stops it all, the database last.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, TEST_ADMIN_TOKEN } from "../support/api-client.ts";
import { freePort, waitFor } from "../support/app-server.ts";

const root = path.resolve(import.meta.dirname, "../..");
// The database, the migrations and the seeding, then `next dev` compiling the API route on its
// first request: minutes on a busy machine.
const DEV_TIMEOUT_MS = 300_000;

const dataDir = mkdtempSync(path.join(os.tmpdir(), "almanac-dev-"));
let dev: ChildProcess | undefined;
afterAll(() => {
  // Whatever a failed run left behind (next dev's own server process among it).
  if (dev?.pid && processGroupAlive(dev.pid)) process.kill(-dev.pid, "SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

/** Whether any process of the group is left (next dev's server, the worker, PostgreSQL). */
function processGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("npm run dev", () => {
  it(
    "serves the demo landscape from the embedded database with no setting, and stops it with itself",
    async () => {
      const port = await freePort();
      // next dev rewrites tsconfig.json when it lacks an include it wants: that would fail the
      // format check and make every later start rebuild the production app.
      const tsconfig = readFileSync(path.join(root, "tsconfig.json"), "utf8");
      let output = "";
      // npm's own script line, as a contributor types it; its own process group, for the clean-up.
      dev = spawn("npm", ["run", "dev"], {
        cwd: root,
        detached: true,
        env: {
          ...process.env,
          DATABASE_URL: "",
          ALMANAC_DATA_DIR: dataDir,
          PORT: String(port),
          ALMANAC_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      dev.stdout?.on("data", (d) => (output += d));
      dev.stderr?.on("data", (d) => (output += d));
      const baseUrl = `http://127.0.0.1:${port}`;
      await waitFor(`${baseUrl}/healthz`, DEV_TIMEOUT_MS, dev, () => output);

      const list = await call(baseUrl, "/api/v1/shoots?limit=1");
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(list.body.total).toBeGreaterThanOrEqual(60);
      expect(output).toContain(`embedded PostgreSQL in ${path.join(dataDir, "postgres")}`);
      expect(output).toContain("/setup?token=");

      // Ctrl-C at a terminal: SIGINT to the whole foreground process group. npm then ends by the
      // signal itself, once its script has ended.
      const exited = new Promise((resolve) => dev!.once("exit", resolve));
      process.kill(-dev.pid!, "SIGINT");
      await exited;
      expect(processGroupAlive(dev.pid!), output).toBe(false);
      // The database was stopped with it.
      expect(existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);
      expect(readFileSync(path.join(root, "tsconfig.json"), "utf8")).toBe(tsconfig);
    },
    DEV_TIMEOUT_MS + 60_000,
  );
});

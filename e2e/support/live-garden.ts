// A live-garden Almanac for the journeys that need one: the stand-in Kubernetes API server
// (tests/support/stand-in-garden.ts) in the test process with a small landscape, and `npm start`
// (scripts/start.mjs) pointed at it by GARDEN_KUBECONFIG, on a free port and a data folder of its
// own. The shared webServer of playwright.config.ts runs the simulated garden; this one runs beside.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, waitFor } from "../../tests/support/app-server.ts";
import { putLandscape } from "../../tests/support/garden-landscape.ts";
import { smallLandscape } from "../../tests/support/small-landscape.ts";
import { type StandInGarden, startStandInGarden } from "../../tests/support/stand-in-garden.ts";

const root = path.resolve(import.meta.dirname, "../..");

export interface LiveGarden {
  readonly garden: StandInGarden;
  /** http://127.0.0.1:PORT of the live-garden Almanac. */
  readonly baseURL: string;
  /** The kubeconfig context, which the navigation names. */
  readonly context: string;
  /** What Almanac printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Waits until GET /api/v1/shoots lists exactly the garden's shoots (the mirror's first sync is in). */
async function waitForMirror(baseURL: string, adminToken: string, garden: StandInGarden, output: () => string) {
  const expected = JSON.stringify(
    garden
      .list("Shoot")
      .map((s) => String(s.metadata.uid))
      .sort(),
  );
  const until = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(`${baseURL}/api/v1/shoots?limit=100`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const listed = response.ok
      ? ((await response.json()) as { items: { uid: string }[] }).items.map((s) => s.uid).sort()
      : [];
    if (JSON.stringify(listed) === expected) return;
    if (Date.now() > until)
      throw new Error(`Almanac did not list the garden's shoots within 60 s:\n${output().slice(-4_000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The stand-in garden with `shootCount` shoots of smallLandscape (garden-dev/cluster-0…), and
 * Almanac following it, once /readyz answers and the API lists the garden's shoots.
 */
export async function startLiveGarden(adminToken: string, shootCount = 4): Promise<LiveGarden> {
  const garden = await startStandInGarden({ bookmarkIntervalMs: 200 });
  const landscape = smallLandscape(Date.now(), shootCount);
  putLandscape(garden, landscape);

  const context = "e2e-garden";
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "almanac-e2e-live-"));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(root, "scripts", "start.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: "", // the embedded PostgreSQL in the data folder, never a shared database
      PORT: String(port),
      NEXT_TELEMETRY_DISABLED: "1",
      GARDEN_KUBECONFIG: garden.writeKubeconfig({ context }),
      ALMANAC_DATA_DIR: dataDir,
      ALMANAC_ADMIN_TOKEN: adminToken,
      ALMANAC_GARDEN_LEASE_SECONDS: "2",
      ALMANAC_WEB_WORKERS: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  child.stdout?.on("data", (d) => (text += d));
  child.stderr?.on("data", (d) => (text += d));
  const output = () => text;
  const stop = async () => {
    await stopProcess(child);
    await garden.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(`${baseURL}/readyz`, 120_000, child, output);
    await waitForMirror(baseURL, adminToken, garden, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { garden, baseURL, context, output, stop };
}

// Failover between replicas: two `npm run worker` processes on one database follow one garden (the
// stand-in Kubernetes API server); exactly one holds the lease. Killed without a chance to let go
// (SIGKILL), the other takes the lease over once it expires and goes on mirroring.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { putLandscape } from "../support/garden-landscape.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { type StandInGarden, startStandInGarden } from "../support/stand-in-garden.ts";

let garden: StandInGarden;
let database: TestDatabase;
const workers: { child: ChildProcess; output: () => string }[] = [];

function startWorker(kubeconfig: string) {
  const child = spawn(process.execPath, [path.join(process.cwd(), "scripts", "worker.ts")], {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      GARDEN_KUBECONFIG: kubeconfig,
      ALMANAC_GARDEN_LEASE_SECONDS: "2",
      ALMANAC_MIRROR_HEAP_MB: "200",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  child.stdout?.on("data", (d) => (text += d));
  child.stderr?.on("data", (d) => (text += d));
  const worker = { child, output: () => text };
  workers.push(worker);
  return worker;
}

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const labelOf = async (name: string) => {
  const row = await database.db.shoot.findUnique({ where: { namespace_name: { namespace: "garden-dev", name } } });
  return (row?.metadata as { labels?: Record<string, string> } | undefined)?.labels?.step;
};

beforeAll(async () => {
  garden = await startStandInGarden({ bookmarkIntervalMs: 200 });
  database = await createTestDatabase();
  const landscape = smallLandscape(Date.now(), 3);

  putLandscape(garden, landscape);
});

afterAll(async () => {
  for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
  await database?.drop();
  await garden?.close();
});

test("the second replica takes over the garden within seconds when the first is killed", async () => {
  const kubeconfig = garden.writeKubeconfig();
  const a = startWorker(kubeconfig);
  const b = startWorker(kubeconfig);
  const leading = () => workers.filter((w) => /Following the garden/.test(w.output()));
  await eventually(() => leading().length === 1, 30_000, "one replica following the garden");
  await eventually(async () => (await database.db.shoot.count()) === 3, 10_000, "the first sync");
  // The other stays a standby: it never follows while the first renews.
  await new Promise((r) => setTimeout(r, 2_500));
  expect(leading()).toHaveLength(1);
  // Each runs with the mirror's heap cap (it started over with it: the same pid).
  for (const { child } of [a, b])
    expect(fs.readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0")).toContain("--max-old-space-size=200");

  const [leader] = leading();
  const standby = leader === a ? b : a;
  leader.child.kill("SIGKILL");
  garden.update("Shoot", "garden-dev", "cluster-1", (s) => {
    s.metadata.labels = { ...s.metadata.labels, step: "after-failover" };
  });
  await eventually(async () => (await labelOf("cluster-1")) === "after-failover", 15_000, "the change mirrored");
  expect(standby.output()).toMatch(/Following the garden/);
});

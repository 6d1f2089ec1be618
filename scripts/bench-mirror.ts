// `npm run bench:mirror -- --shoots N`: the live-garden mirror against a generated garden of N
// shoots of ~16 KB (each with ~12 KB of managedFields; tests/support/generated-garden.ts, in its
// own process) into a throwaway PostgreSQL. Measures the first sync, the largest resident memory
// of the mirror's process, the garden's and PostgreSQL's (each process apart), the sustained rate
// of watch events written (a burst of status updates, faster than the mirror takes them), the lag
// of other shoots' events while a cloud profile change rewrites half the shoots, and how often
// the lease lapsed. It runs with the mirror's heap cap (ALMANAC_MIRROR_HEAP_MB), and prints what
// the process held at its peak (process.memoryUsage) and the load average. Prints a JSON last
// line. Options: --shoots N (default 10000), --burst N (events in the burst, default 20000),
// --rate N (the burst's events per second, default 5000).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { parseArgs } from "node:util";
import { KubeConfig } from "@kubernetes/client-node";
import { config } from "../lib/config/load-config.ts";
import { createDb } from "../lib/db/client.ts";
import { startTemporaryPostgres } from "../lib/db/embedded-postgres.ts";
import { migrate } from "../lib/db/migrate.ts";
import { startGardenMirror } from "../lib/garden/kubernetes/garden-mirror.ts";
import { mirrorHeapOptions, relaunchWithHeap } from "../lib/server/mirror-heap.ts";

// Measured as it runs: with the heap cap of a process that runs the mirror (ALMANAC_MIRROR_HEAP_MB).
const heap = mirrorHeapOptions(config());
relaunchWithHeap(heap);

const { values } = parseArgs({
  options: {
    shoots: { type: "string", default: "10000" },
    burst: { type: "string", default: "20000" },
    rate: { type: "string", default: "5000" },
  },
});
const shoots = Number(values.shoots);
const burst = Number(values.burst);
const rate = Number(values.rate);
const log = (line: string) => console.error(`[${new Date().toISOString()}] ${line}`);

/** The resident memory of a process in MB, from /proc (0 when it is gone). */
function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/** PostgreSQL's processes: the postmaster of `dataDir` and its children. */
function postgresPids(dataDir: string): number[] {
  const pidFile = [path.join(dataDir, "postgres", "postmaster.pid"), path.join(dataDir, "postmaster.pid")].find((f) =>
    fs.existsSync(f),
  );
  if (!pidFile) return [];
  const postmaster = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
  const children = fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return Number(fs.readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1].split(" ")[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

async function startGarden(count: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, "../tests/support/generated-garden.ts"), "--shoots", String(count)],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const first = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the generated garden exited (${code})`)));
  });
  return { child, url: (JSON.parse(first) as { url: string }).url };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

const garden = await startGarden(shoots);
const postgres = await startTemporaryPostgres();
await migrate(postgres.url);
const db = createDb(postgres.url, 8);
const peaks = { mirror: 0, postgres: 0 };
// What the mirror's process held when it peaked (MB): V8's heap, memory outside it (Buffers), the rest.
let atPeak: Record<string, number> = {};
const sampler = setInterval(() => {
  const rss = rssMb(process.pid);
  if (rss > peaks.mirror) {
    const usage = process.memoryUsage();
    atPeak = Object.fromEntries(Object.entries(usage).map(([k, v]) => [k, Math.round(v / 2 ** 20)]));
  }
  peaks.mirror = Math.max(peaks.mirror, rss);
  for (const pid of postgresPids(postgres.dataDir)) peaks.postgres = Math.max(peaks.postgres, rssMb(pid));
}, 250);
const call = async (action: string, query: Record<string, string | number> = {}) => {
  const url = new URL(`${garden.url}/bench/${action}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  const response = await fetch(url, { method: "POST" });
  return (await response.json()) as {
    rv: string;
    namespace: string;
    name: string;
    sentMs?: number;
    peakRssMb?: number;
  };
};
const rowVersion = async (namespace: string, name: string) =>
  (
    await db.shoot.findUnique({
      where: { namespace_name: { namespace, name } },
      select: { gardenResourceVersion: true },
    })
  )?.gardenResourceVersion;
const until = async (check: () => Promise<boolean>) => {
  while (!(await check())) await new Promise((r) => setTimeout(r, 5));
};

let leaseLapses = 0;
try {
  const kubeconfig = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-mirror-")), "kubeconfig");
  fs.writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "generated", cluster: { server: garden.url, "insecure-skip-tls-verify": true } }],
      users: [{ name: "bench", user: { token: "bench" } }],
      contexts: [{ name: "generated", context: { cluster: "generated", user: "bench" } }],
      "current-context": "generated",
    }),
  );
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfig);
  const mirror = startGardenMirror(db, kubeConfig, {
    log: (line) => {
      // Each time the lease ran out under the mirror: it stopped following, or a write was refused.
      if (/Stopped following the garden: (?!Almanac stops)|no longer holds the garden lease/.test(line)) leaseLapses++;
      if (!/^Following the garden/.test(line)) log(line);
    },
    leaseMs: 15_000,
  });

  log(`first sync of ${shoots} shoots`);
  const started = performance.now();
  await mirror.synced();
  const firstSyncS = (performance.now() - started) / 1000;
  const rows = await db.shoot.count();
  log(`first sync: ${rows} rows in ${firstSyncS.toFixed(1)} s`);

  log(`a burst of ${burst} status updates at ${rate}/s`);
  const burstStarted = performance.now();
  const last = await call("burst", { count: burst, rate });
  await until(async () => (await rowVersion(last.namespace, last.name)) === last.rv);
  const burstS = (performance.now() - burstStarted) / 1000;
  const eventsPerS = burst / burstS;
  log(`burst written in ${burstS.toFixed(1)} s (${Math.round(eventsPerS)} events/s; sent in ${last.sentMs} ms)`);

  // Control: single events with no profile change under way, right after the burst.
  const quietLags: number[] = [];
  for (let n = 0; n < 5; n++) {
    const sent = performance.now();
    const other = await call("status", { shoot: ((2 * (n + 1000) * 7919 + 1) % shoots) | 1 });
    await until(async () => (await rowVersion(other.namespace, other.name)) === other.rv);
    quietLags.push(performance.now() - sent);
  }
  log(`single events after the burst, no profile change (ms): ${quietLags.map(Math.round).join(" ")}`);

  log("a change of the profile of half the shoots, and other shoots' events meanwhile");
  const before = await db.cloudProfile.findUniqueOrThrow({ where: { name: "aws" } });
  const profileStarted = performance.now();
  await call("profile");
  const rewritten = async () => {
    const row = await db.cloudProfile.findUniqueOrThrow({ where: { name: "aws" } });
    return row.resourceVersion > before.resourceVersion && row.shootsColumnsVersion === row.resourceVersion;
  };
  const lags: number[] = [];
  let done = false;
  for (let n = 0; !done || lags.length < 20; n++) {
    const sent = performance.now();
    const other = await call("status", { shoot: ((2 * n * 7919 + 1) % shoots) | 1 });
    await until(async () => (await rowVersion(other.namespace, other.name)) === other.rv);
    lags.push(performance.now() - sent);
    done ||= await rewritten();
  }
  const profileRewriteS = (performance.now() - profileStarted) / 1000;
  log(`other shoots' lags (ms, in order): ${lags.map(Math.round).join(" ")}`);
  log(
    `profile rewrite done in ${profileRewriteS.toFixed(1)} s; ${lags.length} other events, p99 lag ${Math.round(percentile(lags, 99))} ms`,
  );
  await mirror.stop();
  clearInterval(sampler);
  const gardenPeak = (await call("memory")).peakRssMb ?? 0;
  const peakRssMb = { mirror: peaks.mirror, garden: gardenPeak, postgresLargestProcess: peaks.postgres };
  console.log(
    JSON.stringify({
      shoots: rows,
      firstSyncS: Number(firstSyncS.toFixed(1)),
      peakRssMb: Math.max(peakRssMb.mirror, peakRssMb.garden),
      peakRssMbByProcess: peakRssMb,
      mirrorMemoryAtPeakMb: atPeak,
      eventsPerS: Math.round(eventsPerS),
      profileChangeOtherLagP99Ms: Math.round(percentile(lags, 99)),
      profileChangeOtherLagMedianMs: Math.round(percentile(lags, 50)),
      profileRewriteS: Number(profileRewriteS.toFixed(1)),
      quietLagMaxMs: Math.round(Math.max(...quietLags)),
      leaseLapses,
      heapOptions: heap,
      cores: os.cpus().length,
      loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))),
    }),
  );
} finally {
  clearInterval(sampler);
  await db.$disconnect();
  await postgres.stop();
  garden.child.kill();
}

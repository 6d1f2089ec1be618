// `npm run bench:maintenance`: 10,000 shoots due at the same moment (one window, each shoot's
// place in it at its start), a worker as `npm start` runs one, and the time from that moment
// until every run is recorded (shoot written, run record, audit event, next schedule, reconcile
// queued). Goal (issue 4): under 10 seconds on this machine.
// Options: --shoots N, --workers N (separate `npm run worker` processes instead of one in this
// process), --gardenlet off (no simulated reconciles competing for the machine), --lead S (seconds
// from the start until the moment all are due: the seed must be done by then; default 25 s plus
// 3 s per 1,000 shoots).
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDb } from "../lib/db/client.ts";
import { startTemporaryPostgres } from "../lib/db/embedded-postgres.ts";
import { migrate } from "../lib/db/migrate.ts";
import { generateLandscape } from "../lib/demo/landscape.ts";
import { crc32 } from "../lib/engine/crc32.ts";
import { MINUTE_MS } from "../lib/engine/time-units.ts";
import { loadConfig } from "../lib/config/load-config.ts";
import { jobsConfig } from "../lib/jobs/config.ts";
import { startQueue } from "../lib/jobs/queue.ts";
import { startWorker } from "../lib/jobs/worker.ts";
import { seedLandscape } from "../lib/server/seed-landscape.ts";

const { values } = parseArgs({
  options: {
    shoots: { type: "string", default: "10000" },
    workers: { type: "string", default: "0" },
    gardenlet: { type: "string", default: "on" },
    lead: { type: "string" },
  },
});
const shoots = Number(values.shoots);
const leadMs = values.lead === undefined ? 25_000 + 3 * shoots : Number(values.lead) * 1000;
// How long the runs may take before the benchmark gives up: five minutes, or 10 ms a shoot.
const giveUpMs = Math.max(300_000, 10 * shoots);
const workerProcesses = Number(values.workers);

const pad = (n: number) => String(n).padStart(2, "0");
const hhmmss = (ms: number) => {
  const d = new Date(ms);
  return `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}+0000`;
};
/** A uid whose maintenance moment is the first minute of a 30-minute window (crc32 mod 15 = 0). */
function uidAtStart(i: number): string {
  for (let n = 0; ; n++) {
    const uid = `${String(i).padStart(8, "0")}-0000-4000-8000-${String(n).padStart(12, "0")}`;
    if (crc32(uid) % 15 === 0) return uid;
  }
}

const server = await startTemporaryPostgres();
const children: ChildProcess[] = [];
let worker: Awaited<ReturnType<typeof startQueue>> | undefined;
try {
  await migrate(server.url);
  const db = createDb(server.url, 8);
  const now = Date.now();
  const due = Math.ceil((now + leadMs) / 1000) * 1000;
  const landscape = generateLandscape({ now, shoots });
  landscape.shoots.forEach((s, i) => {
    s.metadata.uid = uidAtStart(i);
    s.spec.maintenance = {
      ...s.spec.maintenance,
      timeWindow: { begin: hhmmss(due), end: hhmmss(due + 30 * MINUTE_MS) },
    };
    delete s.metadata.deletionTimestamp;
  });
  landscape.maintenanceHistory = [];
  const seeder = await startQueue(server.url, { expireSeconds: 60, supervise: false });
  const t = Date.now();
  await seedLandscape(db, landscape, {
    actor: "bench",
    now,
    boss: seeder,
    onPhases: (phases) =>
      console.log(
        `seed: ${Object.entries(phases)
          .map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`)
          .join(", ")}`,
      ),
  });
  await seeder.stop({ graceful: false });
  console.log(
    `seeded ${shoots} shoots, all due at ${new Date(due).toISOString()}, in ${((Date.now() - t) / 1000).toFixed(1)} s`,
  );

  const env = { ALMANAC_GARDENLET: values.gardenlet === "off" ? "off" : "on" };
  if (workerProcesses > 0) {
    for (let i = 0; i < workerProcesses; i++) {
      children.push(
        spawn(process.execPath, [path.join(import.meta.dirname, "worker.ts")], {
          env: { ...process.env, ...env, DATABASE_URL: server.url },
          stdio: "ignore",
        }),
      );
    }
  } else {
    worker = await startQueue(server.url, { expireSeconds: 60, supervise: true });
    await startWorker(createDb(server.url, 8), worker, jobsConfig(loadConfig({ ...process.env, ...env })));
  }
  if (Date.now() > due)
    throw new Error(`seeding took longer than the lead time (${leadMs / 1000} s); give a longer --lead`);
  await new Promise((r) => setTimeout(r, due - Date.now()));

  let recorded = 0;
  let lastShown = 0;
  while (recorded < shoots) {
    await new Promise((r) => setTimeout(r, 100));
    recorded = await db.maintenanceRun.count();
    if (Date.now() - lastShown > 1000) {
      lastShown = Date.now();
      console.log(`  ${((Date.now() - due) / 1000).toFixed(1)} s: ${recorded} runs recorded`);
    }
    if (Date.now() - due > giveUpMs) throw new Error(`only ${recorded} of ${shoots} runs after ${giveUpMs / 1000} s`);
  }
  // When the last run was seen committed (polled every 100 ms), not when its batch began.
  const seconds = (Date.now() - due) / 1000;
  const last = await db.maintenanceRun.aggregate({ _min: { createdAt: true } });
  const perShoot = await db.maintenanceRun.groupBy({
    by: ["namespace", "name"],
    _count: { _all: true },
    having: { name: { _count: { gt: 1 } } },
  });
  console.log(
    `\n${shoots} shoots due at once, ${workerProcesses > 0 ? `${workerProcesses} worker processes` : "one worker"}, gardenlet ${env.ALMANAC_GARDENLET}`,
  );
  console.log(
    `all runs recorded ${seconds.toFixed(2)} s after the window's start (first at +${((last._min.createdAt!.getTime() - due) / 1000).toFixed(2)} s); ${(shoots / seconds).toFixed(0)} runs/s; shoots run twice: ${perShoot.length}`,
  );
  if (shoots <= 10_000) console.log(`goal (10,000 shoots): under 10 s: ${seconds < 10 ? "met" : "NOT met"}`);
  await db.$disconnect();
} finally {
  for (const c of children) c.kill("SIGKILL");
  // The worker first: its queries would only fail, noisily, against a stopped server.
  await worker?.stop({ graceful: false }).catch(() => {});
  await server.stop();
}
process.exit(0);

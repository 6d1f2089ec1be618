// `npm start`: check the settings (lib/config: a wrong one stops here with exit code 2, before
// anything is built or started), build what is missing, prepare the database (DATABASE_URL, or the
// embedded PostgreSQL under ALMANAC_DATA_DIR), migrate, seed on first start, then serve the
// production build on PORT (default 3000) from ALMANAC_WEB_WORKERS processes (default: one per
// CPU, at most four). Stopping this process stops the web servers, then the database.
import cluster from "node:cluster";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureBuild, requireNode24, root } from "./next-build.mjs";

requireNode24();
const { exitOnBadConfig } = await import("../lib/config/load-config.ts");
const settings = exitOnBadConfig();
const { gardenConfig } = await import("../lib/garden/garden-config.ts");
const { webHeapOptions } = await import("../lib/server/web-heap.ts");
const { mirrorHeapOptions, relaunchWithHeap } = await import("../lib/server/mirror-heap.ts");
const webHeap = webHeapOptions(settings);
const mirrorHeap = mirrorHeapOptions(settings);
let garden;
try {
  garden = gardenConfig(); // a garden that cannot be read stops the start too
} catch (error) {
  console.error(`Almanac cannot start: ${error.message}`);
  process.exit(2);
}
if (garden.kind === "live") {
  // This process runs the mirror: it starts over once with its heap capped (lib/server/mirror-heap.ts).
  relaunchWithHeap(mirrorHeap);
  // A cluster that answers but does not serve Gardener's API (in-cluster on gardener-operator's
  // runtime cluster) stops the start; a garden that refuses or does not answer yet does not:
  // /readyz says why, and the mirror retries.
  // A token file not there yet (a Secret the token-requestor has not filled) is no reason to stop
  // either: a pod that exits would only loop; /readyz names the file until it can be read.
  const { askGarden, NOT_A_GARDEN, credentialsName } = await import("../lib/garden/kubernetes/garden-sign-in.ts");
  const { TokenFileError } = await import("../lib/garden/kubernetes/token-file.ts");
  const answer = await askGarden(garden.kubeConfig).catch((error) => {
    if (error instanceof TokenFileError) {
      console.warn(`> ${garden.source}: ${error.message} Not ready until it can be read.`);
      return "no-token";
    }
    console.error(`Almanac cannot start: ${error.message}`);
    process.exit(2);
  });
  if (answer === "not-a-garden") {
    console.error(`Almanac cannot start: ${garden.source}: ${NOT_A_GARDEN(garden.server)}.`);
    process.exit(2);
  }
  if (answer === "refused")
    console.warn(
      `> The garden refuses ${credentialsName(garden.kubeConfig, garden.source)} (HTTP 401): not ready until it accepts them.`,
    );
}
ensureBuild();

const { prepareGarden } = await import("../lib/server/prepare-garden.ts");
const { startWorker } = await import("../lib/jobs/worker.ts");
const { requestForecastRefresh, startForecastRefresh } = await import("../lib/jobs/forecast-refresh.ts");
const { startGardenMirror } = await import("../lib/garden/kubernetes/garden-mirror.ts");
const { mirrorOptions } = await import("../lib/garden/kubernetes/mirror-options.ts");
const { ensureSchedules } = await import("../lib/jobs/schedule-maintenance.ts");
const { ensureHibernationMoments } = await import("../lib/jobs/schedule-hibernation.ts");
const { startBulkActionWorker } = await import("../lib/server/bulk-action-job.ts");
const { startUpdateRunWorker } = await import("../lib/server/update-run-job.ts");
const { embeddedShootWrites } = await import("../lib/garden/embedded/embedded-shoot-writes.ts");
const { kubernetesShootWrites } = await import("../lib/garden/kubernetes/kubernetes-shoot-writes.ts");
const { jobsConfig } = await import("../lib/jobs/config.ts");
const { createDb } = await import("../lib/db/client.ts");
const { MINUTE_MS } = await import("../lib/engine/time-units.ts");
const { firstAdminLink } = await import("../lib/server/first-admin.ts");
// Errors of the database connection may quote its URL, password and all.
const { redactSecrets } = await import("../lib/engine/redact-secrets.ts");
const { logger } = await import("../lib/observability/logger.ts");
const { serveClusterMetrics } = await import("../lib/observability/cluster-metrics.ts");
const { watchPool } = await import("../lib/observability/pool-metrics.ts");
const { watchDatabaseGauges } = await import("../lib/server/scrape-gauges.ts");
const { poolOf } = await import("../lib/db/client.ts");
let database;
let boss;
let workerDb;
let mirror;
try {
  ({ database, boss } = await prepareGarden((line) => console.log(`> ${line}`)));
  workerDb = createDb(database.url, 6);
  // /metrics: this process sums the web processes' metrics with its own (the job worker's runs,
  // its pool, the queue and migration gauges read at scrape time).
  watchPool("jobs", () => poolOf(workerDb));
  watchDatabaseGauges(workerDb);
  serveClusterMetrics();
  if (garden.kind === "live") {
    // Gardener does the work; this process follows the garden (when it holds the lease).
    console.log(`> Live garden: ${garden.server} (context ${garden.context})`);
    // Who the garden sees (README, "Whose rights count").
    console.log(
      `> Changes by people: ${garden.identity}; the admin token acts as Almanac's own garden identity (${garden.kubeConfig.credentialsWords()}).`,
    );
    mirror = startGardenMirror(
      workerDb,
      garden.kubeConfig,
      mirrorOptions((line) => logger().info(line)),
    );
  } else {
    // The simulated garden's background work runs here, beside the web processes (and in any
    // `npm run worker`).
    const scheduled = await ensureSchedules(workerDb, boss, Date.now());
    if (scheduled > 0) console.log(`> Scheduled maintenance for ${scheduled} shoots without a schedule.`);
    const moments = await ensureHibernationMoments(workerDb, boss, Date.now());
    if (moments > 0) console.log(`> Scheduled the hibernation of ${moments} shoots with hibernation schedules.`);
    await startWorker(workerDb, boss, jobsConfig());
  }
  // The forecast's facts are computed from the tables, which either garden fills; a live garden's
  // first listing fills them at once, so a pass follows it rather than waiting for the next.
  await startForecastRefresh(workerDb, boss, jobsConfig());
  // Bulk actions act through the garden's write port, on either garden, as the person who started them.
  await startBulkActionWorker(
    workerDb,
    boss,
    garden.kind === "live"
      ? kubernetesShootWrites(workerDb, garden.kubeConfig, garden.identity)
      : embeddedShootWrites(workerDb, () => boss),
    { pollSeconds: jobsConfig().pollSeconds, jobExpireSeconds: jobsConfig().jobExpireSeconds },
  );
  // Update runs too: their stages act through the same port, as the person who made the run.
  await startUpdateRunWorker(
    workerDb,
    boss,
    garden.kind === "live"
      ? kubernetesShootWrites(workerDb, garden.kubeConfig, garden.identity)
      : embeddedShootWrites(workerDb, () => boss),
    {
      pollSeconds: jobsConfig().pollSeconds,
      jobExpireSeconds: jobsConfig().jobExpireSeconds,
      gateGraceSeconds: settings.jobs.updateRunGateGraceSeconds,
    },
  );
  mirror
    ?.synced()
    .then(() => requestForecastRefresh(boss))
    .catch((error) => logger().error(`Asking for the forecast's refresh failed: ${redactSecrets(error.message)}`));
} catch (error) {
  console.error(`Almanac cannot start: ${redactSecrets(error.message)}`);
  await boss?.stop({ graceful: false }).catch(() => {});
  await workerDb?.$disconnect().catch(() => {});
  await database?.close().catch(() => {});
  process.exit(1);
}

const port = String(settings.server.port);
const workers = settings.server.webWorkers;

// The web processes' heap is capped (lib/server/web-heap.ts); this process's only when it runs
// the live garden's mirror (lib/server/mirror-heap.ts), a cap the web processes do not inherit.
cluster.setupPrimary({
  exec: path.join(root, "scripts", "web-worker.mjs"),
  execArgv: [...process.execArgv.filter((option) => !mirrorHeap.includes(option)), ...webHeap],
});
const env = { DATABASE_URL: database.url, PORT: port, NEXT_TELEMETRY_DISABLED: "1" };
let listening = 0;
function fork() {
  const worker = cluster.fork(env);
  worker.on("message", (message) => {
    if (message?.listening && ++listening === workers) {
      console.log(`> Almanac on http://localhost:${port} (${workers} web processes)`);
      void announceSetupLink();
    }
  });
}
for (let i = 0; i < workers; i++) fork();

/**
 * While nobody can sign in yet: a one-time link that creates the first admin, printed and kept in
 * the data folder (readable by this user only), so there is no default password to change.
 */
async function announceSetupLink() {
  try {
    const base = settings.server.publicUrl?.replace(/\/$/, "") ?? `http://localhost:${port}`;
    const link = await firstAdminLink(workerDb, base, Date.now());
    if (!link) return;
    const dataDir = settings.data.dataDir;
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path.join(dataDir, "first-admin-link"), `${link}\n`, { mode: 0o600 });
    console.log(`> No account exists yet. Create the first admin (the link works once, for 24 hours):\n>   ${link}`);
  } catch (error) {
    logger().error(`Could not make the first-admin setup link: ${error.message}`);
  }
}

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  const alive = Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead());
  await Promise.all(
    alive.map(
      (w) =>
        new Promise((resolve) => {
          w.once("exit", resolve);
          w.process.kill("SIGTERM");
        }),
    ),
  );
  await mirror?.stop().catch((error) => logger().error(`Stopping the garden mirror: ${error.message}`));
  // Jobs in hand finish (or, cut short, run again elsewhere): nothing is half-written.
  await boss
    .stop({ graceful: true, timeout: 30_000 })
    .catch((error) => logger().error(`Stopping the job queue: ${error.message}`));
  await workerDb.$disconnect().catch(() => {});
  await database.close().catch((error) => logger().error(`Stopping the database: ${error.message}`));
  process.exit(code);
}

// Stop signals (Ctrl-C, Playwright's webServer teardown, a test harness): first the web servers,
// then the database, so nothing is left holding the port or the data folder. Ours replace any
// handler a library installed, which could exit at once while requests are still answered.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.removeAllListeners(signal);
  process.on(signal, () => stop(0));
}

// A web process that dies on its own is replaced; if they keep dying, Almanac stops with an error.
const deaths = [];
cluster.on("exit", (worker, code, signal) => {
  if (stopping) return;
  const now = Date.now();
  deaths.push(now);
  while (deaths.length > 0 && now - deaths[0] > MINUTE_MS) deaths.shift();
  logger().error(`A web process exited (${signal ?? `code ${code}`}).`);
  if (deaths.length > 5 || listening < workers) {
    logger().error("Web processes keep failing; stopping.");
    stop(1);
    return;
  }
  fork();
});

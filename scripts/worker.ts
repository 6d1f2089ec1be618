// `npm run worker`: a background worker on its own (scheduled maintenance, maintain-now, the
// simulated gardenlet; the forecast facts' refresh), beside `npm start` or on another machine with
// the same DATABASE_URL. Several may run: each job goes to one of them.
import { exitOnBadConfig } from "../lib/config/load-config.ts";
import { createDb } from "../lib/db/client.ts";
import { gardenConfig } from "../lib/garden/garden-config.ts";
import { startGardenMirror } from "../lib/garden/kubernetes/garden-mirror.ts";
import { mirrorOptions } from "../lib/garden/kubernetes/mirror-options.ts";
import { migrate } from "../lib/db/migrate.ts";
import { openDatabase } from "../lib/db/open-database.ts";
import { redactSecrets } from "../lib/engine/redact-secrets.ts";
import { jobsConfig } from "../lib/jobs/config.ts";
import { requestForecastRefresh, startForecastRefresh } from "../lib/jobs/forecast-refresh.ts";
import { startQueue } from "../lib/jobs/queue.ts";
import { ensureSchedules } from "../lib/jobs/schedule-maintenance.ts";
import { ensureHibernationMoments } from "../lib/jobs/schedule-hibernation.ts";
import { startWorker } from "../lib/jobs/worker.ts";
import { embeddedShootWrites } from "../lib/garden/embedded/embedded-shoot-writes.ts";
import { kubernetesShootWrites } from "../lib/garden/kubernetes/kubernetes-shoot-writes.ts";
import { logger } from "../lib/observability/logger.ts";
import { startBulkActionWorker } from "../lib/server/bulk-action-job.ts";
import { startUpdateRunWorker } from "../lib/server/update-run-job.ts";
import { mirrorHeapOptions, relaunchWithHeap } from "../lib/server/mirror-heap.ts";

// A wrong setting stops the worker here with exit code 2, naming it.
const settings = exitOnBadConfig();
const config = jobsConfig(settings);
const garden = gardenConfig();
// A worker that may follow a live garden starts over once with its heap capped (ALMANAC_MIRROR_HEAP_MB).
if (garden.kind === "live") relaunchWithHeap(mirrorHeapOptions(settings));
const database = await openDatabase();
console.log(`Database: ${database.description}`);
await migrate(database.url);
const boss = await startQueue(database.url, { expireSeconds: config.jobExpireSeconds, supervise: true });
const db = createDb(database.url, 6);
// On a live garden Gardener does the work: a worker follows the garden when it holds the lease.
const mirror =
  garden.kind === "live"
    ? startGardenMirror(
        db,
        garden.kubeConfig,
        mirrorOptions((line) => logger().info(line)),
      )
    : undefined;
if (!mirror) {
  await ensureSchedules(db, boss, Date.now());
  await ensureHibernationMoments(db, boss, Date.now());
  await startWorker(db, boss, config);
}
// The forecast's facts are computed from the tables, which either garden fills; a live garden's
// first listing fills them at once, so a pass follows it rather than waiting for the next.
const refresh = await startForecastRefresh(db, boss, config);
// Bulk actions act through the garden's write port, on either garden, as the person who started them.
await startBulkActionWorker(
  db,
  boss,
  garden.kind === "live"
    ? kubernetesShootWrites(db, garden.kubeConfig, garden.identity)
    : embeddedShootWrites(db, () => boss),
  { pollSeconds: config.pollSeconds, jobExpireSeconds: config.jobExpireSeconds },
);
// Update runs too: their stages act through the same port, as the person who made the run.
await startUpdateRunWorker(
  db,
  boss,
  garden.kind === "live"
    ? kubernetesShootWrites(db, garden.kubeConfig, garden.identity)
    : embeddedShootWrites(db, () => boss),
  {
    pollSeconds: config.pollSeconds,
    jobExpireSeconds: config.jobExpireSeconds,
    gateGraceSeconds: settings.jobs.updateRunGateGraceSeconds,
  },
);
mirror
  ?.synced()
  .then(() => requestForecastRefresh(boss))
  .catch((error: unknown) =>
    logger().error(`Asking for the forecast's refresh failed: ${redactSecrets((error as Error).message)}`),
  );
console.log(`Worker running (pid ${process.pid}); stop it with Ctrl-C.`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.removeAllListeners(signal);
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    refresh.stop();
    await mirror?.stop().catch(() => {});
    await boss.stop({ graceful: true, timeout: 30_000 }).catch(() => {});
    await db.$disconnect().catch(() => {});
    await database.close().catch(() => {});
    process.exit(0);
  });
}

// The gauges read from the database when /metrics is scraped: the job queue's depth and the age
// of its oldest due job, and control-plane migrations by state. One process registers these (npm
// start's primary), so the cluster's sum counts them once.
import type { Db } from "../db/client.ts";
import { beforeScrape, metrics } from "../observability/metrics.ts";
import { countMigrationsByState } from "../store/migration-counts.ts";
import { readQueueStats } from "../store/queue-stats.ts";

export function watchDatabaseGauges(db: Db): void {
  beforeScrape("the job queue", async () => {
    const stats = await readQueueStats(db);
    const { queueDepth, oldestJobAge } = metrics();
    // A queue that went away must not keep its last figures.
    queueDepth.reset();
    oldestJobAge.reset();
    for (const { queue, depth, oldestAgeSeconds } of stats) {
      queueDepth.set({ queue }, depth);
      oldestJobAge.set({ queue }, oldestAgeSeconds);
    }
  });
  beforeScrape("migrations", async () => {
    const counts = await countMigrationsByState(db);
    const gauge = metrics().migrations;
    gauge.reset();
    for (const { state, count } of counts) gauge.set({ state }, count);
  });
}

// The database pools' use, read from node-postgres at scrape time. Each process names its pools;
// the cluster's sum is the installation's use of its database connections.
import type pg from "pg";
import { beforeScrape, metrics } from "./metrics.ts";

/**
 * Reports the pool `pool()` gives under `name` from now on (nothing while it gives none: the
 * process has not opened it yet).
 */
export function watchPool(name: string, pool: () => pg.Pool | undefined): void {
  beforeScrape(`the ${name} database pool`, () => {
    const watched = pool();
    if (!watched) return;
    const m = metrics();
    m.poolConnections.set({ pool: name }, watched.totalCount);
    m.poolIdle.set({ pool: name }, watched.idleCount);
    m.poolWaiting.set({ pool: name }, watched.waitingCount);
  });
}

// The database pools' use, read from node-postgres at scrape time. Each process names its pools;
// the cluster's sum is the installation's use of its database connections.
import type pg from "pg";
import { beforeScrape, metrics } from "./metrics.ts";

/** Reports `pool` under `name` from now on (a pool already watched under that name is replaced). */
export function watchPool(name: string, pool: pg.Pool): void {
  beforeScrape(`the ${name} database pool`, () => {
    const m = metrics();
    m.poolConnections.set({ pool: name }, pool.totalCount);
    m.poolIdle.set({ pool: name }, pool.idleCount);
    m.poolWaiting.set({ pool: name }, pool.waitingCount);
  });
}

// What /metrics answers: the cluster's metrics (lib/observability/cluster-metrics.ts), with this
// web process's database pool read at the moment.
import { db, poolOf } from "../db/client.ts";
import { scrapeText } from "../observability/cluster-metrics.ts";
import { watchPool } from "../observability/pool-metrics.ts";

export async function scrapeMetrics(): Promise<string> {
  const pool = poolOf(db());
  if (pool) watchPool("web", pool);
  return scrapeText();
}

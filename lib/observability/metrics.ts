// The process's Prometheus metrics (prom-client). Each process counts what it does; /metrics
// sums them over the cluster (cluster-metrics.ts). What is read from the database at scrape time
// (the job queue, migrations) is read by one process only, npm start's primary, through a scrape
// hook (lib/server/scrape-gauges.ts), so the sum does not count it once per web process.
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from "prom-client";
import { logger } from "./logger.ts";
import { processWide } from "./shared.ts";

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpDuration: new Histogram({
      name: "http_request_duration_seconds",
      help: "Time to answer an API request, by method, route template and status (until the answer starts).",
      labelNames: ["method", "route", "status"] as const,
      registers,
    }),
    maintenanceRuns: new Counter({
      name: "almanac_maintenance_runs_total",
      help: "Maintenance runs recorded by this installation (the job worker, or the live garden's mirror), by outcome.",
      labelNames: ["outcome"] as const,
      registers,
    }),
    gardenWriteOutcomes: new Counter({
      name: "almanac_garden_write_outcomes_total",
      help: "A live garden's writes by how their outcome was recorded: recorded, refused, deferred (accepted; recorded later), left pending (no answer seen), and by the later pass: resolved or unknown.",
      labelNames: ["outcome"] as const,
      registers,
    }),
    gardenBadInput: new Counter({
      name: "almanac_garden_bad_input_total",
      help: "Objects and watch lines of a live garden the mirror could not take as they are, by resource (shoots, seeds...) and reason: not-json, unknown-event, unknown-kind, no-name, unwritable-text and unwritable are skipped; missing-profile is mirrored without the profile's columns.",
      labelNames: ["resource", "reason"] as const,
      registers,
    }),
    queueDepth: new Gauge({
      name: "almanac_job_queue_depth",
      help: "Jobs waiting to run (created or to be retried, due now), by queue.",
      labelNames: ["queue"] as const,
      registers,
    }),
    oldestJobAge: new Gauge({
      name: "almanac_job_queue_oldest_age_seconds",
      help: "How long the oldest job due has been waiting, by queue (0 when none waits).",
      labelNames: ["queue"] as const,
      registers,
    }),
    migrations: new Gauge({
      name: "almanac_migrations",
      help: "Control-plane migrations, by state.",
      labelNames: ["state"] as const,
      registers,
    }),
    eventStreamClients: new Gauge({
      name: "almanac_event_stream_clients",
      help: "Clients following the event stream (/api/v1/events).",
      registers,
    }),
    poolConnections: new Gauge({
      name: "almanac_db_pool_connections",
      help: "Database connections open in the pool, by pool (web: the web processes, jobs: the primary's).",
      labelNames: ["pool"] as const,
      registers,
    }),
    poolIdle: new Gauge({
      name: "almanac_db_pool_idle_connections",
      help: "Database connections open and idle in the pool, by pool.",
      labelNames: ["pool"] as const,
      registers,
    }),
    poolWaiting: new Gauge({
      name: "almanac_db_pool_waiting_clients",
      help: "Queries waiting for a connection of the pool, by pool.",
      labelNames: ["pool"] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** This process's metrics. */
export const metrics = (): Metrics => processWide("metrics", createMetrics);

type ScrapeHook = () => Promise<void> | void;
const hooks = () => processWide("scrape-hooks", () => new Map<string, ScrapeHook>());

/**
 * Runs `hook` before every scrape of this process, to set gauges read at that moment. One hook per
 * `name`: asking again replaces it.
 */
export function beforeScrape(name: string, hook: ScrapeHook): void {
  hooks().set(name, hook);
}

export type ProcessMetrics = MetricObjectWithValues<MetricValue<string>>[];

/** This process's metrics as prom-client's JSON, after the scrape hooks ran. */
export async function localMetrics(): Promise<ProcessMetrics> {
  for (const [name, hook] of hooks()) {
    try {
      await hook();
    } catch (error) {
      // A gauge that could not be read keeps its last value; the scrape still answers.
      logger().warn({ err: error }, `Metrics: reading ${name} failed`);
    }
  }
  return (await metrics().registry.getMetricsAsJSON()) as ProcessMetrics;
}

// How the background work behaves: the settings of lib/config's "jobs" and "simulation" groups
// (tests and benchmarks run it fast by building a JobsConfig of their own).
import { type Config, config } from "../config/load-config.ts";

export interface JobsConfig {
  /** How long one step of a simulated reconcile takes (there are five), ms. */
  readonly reconcileStepMs: number;
  /** Share of reconcile attempts that hit a fault (0 to 1), drawn from a seeded generator. */
  readonly faultRate: number;
  readonly faultSeed: number;
  /** Wait before retrying a reconcile that ended in a retryable error (Error), ms. */
  readonly reconcileRetryMs: number;
  /**
   * The gardenlet's retry duration (controllers.shoot.retryDuration): an operation still failing
   * this long after its retry cycle began turns Failed, ms (default 12 h).
   */
  readonly retryDurationMs: number;
  /** The controller-manager's shoot retry controller: a rate-limited Failed shoot is retried this long after, ms. */
  readonly shootRetryPeriodMs: number;
  /** ... plus at most this much at random (drawn from the fault seed, so repeatable), ms. */
  readonly shootRetryJitterMs: number;
  /** How long a failing health check shows Progressing before it turns False, ms. */
  readonly conditionThresholdMs: number;
  /** Seconds a job may run before another process takes it over (a worker killed mid-run). */
  readonly jobExpireSeconds: number;
  /** How often workers look for due jobs, seconds (at least 0.5). */
  readonly pollSeconds: number;
  /** Whether this process runs the simulated gardenlet. */
  readonly gardenlet: boolean;
  /** How long one simulated migration step takes, ms. */
  readonly migrationStepMs: number;
  /** Share of migration task attempts that fail (retried with backoff; the wait for the destination never does). */
  readonly migrationFaultRate: number;
  /**
   * Gardener's retry duration, ms (default 12 h): an error once this long has passed since the
   * Migrate (or Restore) operation started turns it Failed.
   */
  readonly migrationRetryMs: number;
  /** First wait before retrying a failed step, ms (doubles, up to five minutes). */
  readonly migrationBackoffMs: number;
  /** How long one second of a deletion's grace periods lasts here, ms (1000: real time). */
  readonly cleanupSecondMs: number;
  /** How long one tick of a worker pool's roll takes, ms (0: the roll runs at once, up to a hold). */
  readonly nodeRollStepMs: number;
  /** How long a roll may stay held before the reconcile attempt ends in Error, ms. */
  readonly nodeRollHoldTimeoutMs: number;
  /** How often a pass of the forecast facts' refresh is asked for, ms. */
  readonly forecastRefreshEveryMs: number;
  /** How many shoots' forecast facts one refresh job computes. */
  readonly forecastRefreshBatch: number;
}

/** The background work's settings from `settings` (this process's configuration unless given). */
export function jobsConfig({ jobs, simulation }: Pick<Config, "jobs" | "simulation"> = config()): JobsConfig {
  const { jobExpireSeconds, pollSeconds, forecastRefreshEveryMs, forecastRefreshBatch } = jobs;
  return { ...simulation, jobExpireSeconds, pollSeconds, forecastRefreshEveryMs, forecastRefreshBatch };
}

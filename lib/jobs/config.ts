// How the background work behaves, from the environment (tests and benchmarks run it fast).
import { DEFAULT_RETRY_DURATION_MS } from "../engine/shoot-operation.ts";
import { DEFAULT_RETRY_JITTER_PERIOD_MS, DEFAULT_RETRY_PERIOD_MS } from "../engine/shoot-retry.ts";
import { HOUR_MS, MINUTE_MS } from "../engine/time-units.ts";

function number(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number; got "${text}".`);
  return n;
}

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
  /** How often a pass of the forecast facts' refresh is asked for, ms. */
  readonly forecastRefreshEveryMs: number;
  /** How many shoots' forecast facts one refresh job computes. */
  readonly forecastRefreshBatch: number;
}

export function jobsConfig(): JobsConfig {
  return {
    reconcileStepMs: number("ALMANAC_RECONCILE_STEP_MS", 2_000),
    faultRate: Math.min(1, number("ALMANAC_FAULT_RATE", 0.05)),
    faultSeed: number("ALMANAC_FAULT_SEED", 1),
    reconcileRetryMs: number("ALMANAC_RECONCILE_RETRY_MS", 15_000),
    retryDurationMs: number("ALMANAC_RETRY_DURATION_MS", DEFAULT_RETRY_DURATION_MS),
    shootRetryPeriodMs: number("ALMANAC_SHOOT_RETRY_PERIOD_MS", DEFAULT_RETRY_PERIOD_MS),
    shootRetryJitterMs: number("ALMANAC_SHOOT_RETRY_JITTER_MS", DEFAULT_RETRY_JITTER_PERIOD_MS),
    conditionThresholdMs: number("ALMANAC_CONDITION_THRESHOLD_MS", MINUTE_MS),
    jobExpireSeconds: Math.max(1, number("ALMANAC_JOB_EXPIRE_SECONDS", 60)),
    pollSeconds: Math.max(0.5, number("ALMANAC_POLL_SECONDS", 1)),
    gardenlet: process.env.ALMANAC_GARDENLET !== "off",
    migrationStepMs: number("ALMANAC_MIGRATION_STEP_MS", 3_000),
    migrationFaultRate: Math.min(1, number("ALMANAC_MIGRATION_FAULT_RATE", 0.1)),
    migrationRetryMs: number("ALMANAC_MIGRATION_RETRY_MS", 12 * HOUR_MS),
    migrationBackoffMs: number("ALMANAC_MIGRATION_BACKOFF_MS", 5_000),
    cleanupSecondMs: number("ALMANAC_CLEANUP_SECOND_MS", 1_000),
    forecastRefreshEveryMs: Math.max(1_000, number("ALMANAC_FORECAST_REFRESH_SECONDS", 300) * 1_000),
    forecastRefreshBatch: Math.max(1, Math.floor(number("ALMANAC_FORECAST_REFRESH_BATCH", 1_000))),
  };
}

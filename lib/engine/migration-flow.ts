// The control-plane migration as Gardener runs it, as a pure state machine the runner persists
// step by step (so a process killed mid-flow resumes at the step it was in):
//
// 1. Wait for the ShootReadyForMigration constraint (the controller-manager's shoot migration
//    controller; migration-readiness.ts). Gardener's gardenlet does not start the Migrate
//    operation before it is True, leaves the lastOperation alone meanwhile, and never gives up.
// 2. The Migrate operation in the source seed: the flow "Shoot cluster preparation for migration"
//    (pkg/gardenlet/controller/shoot/shoot/reconciler_migrate.go, runMigrateShootFlow), of which
//    Almanac runs the tasks that matter for the move: annotate the extension resources with
//    gardener.cloud/operation=migrate, persist the ShootState, delete the kube-apiserver, take a
//    full etcd snapshot, delete the shoot's namespace in the source seed. Then Migrate Succeeded,
//    and status.seedName becomes the destination (reconciler.go, finalizeShootMigration and
//    patchShootStatusOperationSuccess).
// 3. The Restore operation in the destination seed: the flow "Shoot cluster restoration"
//    (reconciler_reconcile.go with isRestoring), of which Almanac runs: copy the etcd backups to the
//    new seed's bucket, deploy etcd from them, wait until the API server reaches the workers.
//
// Errors: each operation has one retry cycle, from the moment it started (status.retryCycleStartTime,
// set in updateShootStatusOperationStart and cleared on success or Failed); an error once the retry
// duration (12 h) has passed since then turns the operation Failed (patchShootStatusOperationError,
// utils.HasTimeElapsed), however many tasks succeeded in between. A user's retry starts a new cycle.
import { HOUR_MS } from "./time-units.ts";

/** The flow names Gardener's lastOperation descriptions and errors quote. */
export const MIGRATE_FLOW = "Shoot cluster preparation for migration";
export const RESTORE_FLOW = "Shoot cluster restoration";

/**
 * The steps. `description` is the Gardener task's own name (what its lastOperation shows while the
 * task runs), except for the wait, which is no task of a flow.
 */
export const MIGRATION_STEPS = [
  {
    name: "WaitForDestinationReady",
    operation: "Migrate",
    description: "Waiting for confirmation that the destination seed is available to host the control plane",
  },
  { name: "MigrateExtensionResources", operation: "Migrate", description: "Migrating extension resources" },
  { name: "PersistShootState", operation: "Migrate", description: "Persisting ShootState in garden cluster" },
  { name: "DeleteKubeAPIServer", operation: "Migrate", description: "Deleting kube-apiserver deployment" },
  { name: "CreateETCDSnapshot", operation: "Migrate", description: "Creating ETCD Snapshot" },
  { name: "DeleteSeedNamespace", operation: "Migrate", description: "Deleting shoot namespace in Seed" },
  { name: "CopyEtcdBackups", operation: "Restore", description: "Copying etcd backups to new seed's backup bucket" },
  { name: "DeployEtcd", operation: "Restore", description: "Deploying main and events etcd" },
  {
    name: "WaitUntilTunnelConnectionExists",
    operation: "Restore",
    description: "Waiting until the Kubernetes API server can connect to the Shoot workers",
  },
] as const;

export type MigrationStepName = (typeof MIGRATION_STEPS)[number]["name"];
export type MigrationState = "Processing" | "Error" | "Failed" | "Succeeded";

/** Index of the wait, and of the first and last step of each operation. */
const WAIT = 0;
const MIGRATE_FIRST = 1;
const MIGRATE_LAST = 5;
const RESTORE_FIRST = 6;

export interface StepRecord {
  readonly name: MigrationStepName;
  readonly startedAt?: number;
  readonly endedAt?: number;
  readonly outcome?: "Succeeded" | "Error";
  readonly message?: string;
  readonly attempts: number;
}

/** The ShootReadyForMigration constraint as the wait last saw it. */
export interface ReadinessSeen {
  readonly status: "True" | "False";
  readonly reason: string;
  readonly message: string;
}

export interface Migration {
  readonly source: string;
  readonly destination: string;
  readonly state: MigrationState;
  /** Index into MIGRATION_STEPS of the step to run (or running); steps.length when done. */
  readonly step: number;
  readonly steps: readonly StepRecord[];
  /**
   * Gardener's status.retryCycleStartTime: when the operation under way (Migrate, then Restore)
   * started, or a user's retry restarted it; undefined between operations and once Failed.
   */
  readonly retryCycleStartTime?: number;
  /** What the wait for the destination saw last (undefined before it looked, or when a seed was missing). */
  readonly readyForMigration?: ReadinessSeen | null;
  /** When the step is to be tried again, after an error or while waiting for the destination (epoch ms). */
  readonly retryAt?: number;
  /** Errors in a row: the backoff doubles with each, and starts over after a success or a user's retry. */
  readonly failures?: number;
  readonly startedAt: number;
  readonly finishedAt?: number;
  /**
   * A live control-plane migration (the shoot carried migration.gardener.cloud/live-migrate=true
   * with the new seed): Gardener moves the control plane without downtime, as a LiveMigrate
   * operation whose steps are the shoot's status.liveMigration conditions, not the steps above.
   * A live garden shows it as Gardener reports it; the simulated garden runs the classic flow.
   */
  readonly live?: boolean;
}

export interface MigrationOptions {
  /** Gardener's controllers.shoot.retryDuration: default 12 h. */
  readonly retryDurationMs: number;
  /** First wait after an error; doubles per attempt up to maxBackoffMs. */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
}

const DEFAULT_MIGRATION_OPTIONS: MigrationOptions = {
  retryDurationMs: 12 * HOUR_MS,
  backoffMs: 5_000,
  maxBackoffMs: 300_000,
};

/** The controller-manager looks at the destination again this often while it is not ready (RequeueAfter). */
export const READINESS_RECHECK_MS = 5_000;

export function startMigration(source: string, destination: string, now: number): Migration {
  return {
    source,
    destination,
    state: "Processing",
    step: 0,
    startedAt: now,
    steps: MIGRATION_STEPS.map((s) => ({ name: s.name, attempts: 0 })),
  };
}

/** The operation a step belongs to; undefined for the wait before it. */
export function stepOperation(step: number): "Migrate" | "Restore" | undefined {
  if (step === WAIT) return undefined;
  return step <= MIGRATE_LAST ? "Migrate" : "Restore";
}

/**
 * Marks the current step started (once per attempt). A step of an operation with no retry cycle
 * starts one (updateShootStatusOperationStart sets status.retryCycleStartTime when it is nil).
 */
export function beginStep(m: Migration, now: number): Migration {
  const steps = m.steps.map((s, i) =>
    i === m.step ? { ...s, startedAt: s.startedAt ?? now, attempts: s.attempts + 1 } : s,
  );
  const cycle = stepOperation(m.step) && m.retryCycleStartTime === undefined ? now : m.retryCycleStartTime;
  return { ...m, steps, state: "Processing", retryAt: undefined, retryCycleStartTime: cycle };
}

/**
 * The wait's outcome: the constraint as the controller-manager computed it (undefined when a seed
 * could not be read). True ends the wait; otherwise it looks again after READINESS_RECHECK_MS,
 * without limit and without an error (Gardener's gardenlet keeps waiting).
 */
export function finishWait(m: Migration, readiness: ReadinessSeen | undefined, now: number): Migration {
  if (m.step !== WAIT) return m;
  if (readiness?.status === "True") {
    // The gardenlet starts the Migrate operation now: its retry cycle begins.
    return {
      ...finishStep(m, { ok: true, message: readiness.message }, now),
      readyForMigration: readiness,
      retryCycleStartTime: now,
    };
  }
  const steps = m.steps.map((s, i) => (i === WAIT ? { ...s, message: readiness?.message } : s));
  return {
    ...m,
    steps,
    state: "Processing",
    readyForMigration: readiness ?? null,
    retryAt: now + READINESS_RECHECK_MS,
  };
}

/** The outcome of the current step: on to the next, or Error and a retry, or Failed for good. */
export function finishStep(
  m: Migration,
  outcome: { ok: true; message?: string } | { ok: false; message: string },
  now: number,
  options = DEFAULT_MIGRATION_OPTIONS,
): Migration {
  if (outcome.ok) {
    const steps = m.steps.map((s, i) =>
      i === m.step ? { ...s, endedAt: now, outcome: "Succeeded" as const, message: outcome.message } : s,
    );
    const step = m.step + 1;
    const done = step >= MIGRATION_STEPS.length;
    return {
      ...m,
      steps,
      step,
      state: done ? "Succeeded" : "Processing",
      retryAt: undefined,
      failures: 0,
      // Migrate Succeeded (and Restore Succeeded) end the operation's retry cycle.
      retryCycleStartTime: m.step === MIGRATE_LAST || done ? undefined : m.retryCycleStartTime,
      ...(done ? { finishedAt: now } : {}),
    };
  }
  const steps = m.steps.map((s, i) =>
    i === m.step ? { ...s, endedAt: now, outcome: "Error" as const, message: outcome.message } : s,
  );
  // utils.HasTimeElapsed(status.retryCycleStartTime, retryDuration): no cycle counts as elapsed.
  const cycle = m.retryCycleStartTime;
  if (cycle === undefined || now >= cycle + options.retryDurationMs) {
    return { ...m, steps, state: "Failed", retryCycleStartTime: undefined, retryAt: undefined, finishedAt: now };
  }
  const failures = (m.failures ?? 0) + 1;
  const backoff = Math.min(options.maxBackoffMs, options.backoffMs * 2 ** (failures - 1));
  return { ...m, steps, state: "Error", retryAt: now + backoff, failures };
}

/** A user's retry of a Failed migration: the failed step runs again, in a new retry cycle. */
export function retryMigration(m: Migration, now: number): Migration {
  if (m.state !== "Failed") return m;
  return {
    ...m,
    state: "Processing",
    retryAt: now,
    finishedAt: undefined,
    failures: 0,
    retryCycleStartTime: undefined,
  };
}

/** The flow the step's operation runs, as Gardener names it in its descriptions and errors. */
const flowOf = (step: number) => (step <= MIGRATE_LAST ? MIGRATE_FLOW : RESTORE_FLOW);

/**
 * The error of the current step as Gardener words a failed flow: the flow error
 * (FormatLastErrDescription of flow.flowFailed) and the task's lastError.
 */
function stepError(m: Migration): { description: string; task: string; error: string } {
  const index = Math.min(m.step, MIGRATION_STEPS.length - 1);
  const task = MIGRATION_STEPS[index].description;
  const error = `task "${task}" failed: ${m.steps[index]?.message ?? "unknown error"}`;
  return { description: `Flow "${flowOf(index)}" encountered task errors: [${error}]`, task, error };
}

export interface MigrationOperation {
  type: string;
  state: string;
  progress: number;
  description: string;
  lastUpdateTime: string;
}

const timestamp = (now: number) => new Date(Math.floor(now / 1000) * 1000).toISOString().replace(".000Z", "Z");

/**
 * What the shoot's status.lastOperation shows at this point of the flow, in Gardener's words
 * (reconciler.go: updateShootStatusOperationStart, patchShootStatusOperationSuccess,
 * patchShootStatusOperationError; flow.MakeDescription for a running task). Progress is per
 * operation, as Gardener reports it: Migrate runs to 100, then Restore starts again at 0.
 *
 * While the migration waits for the destination, Gardener's shoot keeps its previous
 * lastOperation; this answers Migrate Pending with what the gardenlet reports meanwhile, and
 * `shootLastOperation` is undefined then (see docs/architecture.md, "What still differs").
 */
export function migrationLastOperation(m: Migration, now: number, shootName = "the shoot"): MigrationOperation {
  const lastUpdateTime = timestamp(now);
  const operation = (type: string, state: string, progress: number, description: string) => ({
    type,
    state,
    progress,
    description,
    lastUpdateTime,
  });
  if (m.state === "Succeeded")
    return operation("Restore", "Succeeded", 100, "Shoot cluster has been successfully restored.");
  if (m.step === WAIT) {
    const seen = m.readyForMigration;
    const description = !seen
      ? `waiting for confirmation that destination Seed is available to host the control plane of Shoot ${shootName}`
      : `destination Seed is not available to host the control plane of Shoot ${shootName}: ${seen.message}`;
    return operation("Migrate", "Pending", 0, description);
  }
  const step = Math.min(m.step, MIGRATION_STEPS.length - 1);
  const type = stepOperation(step)!;
  const [first, count] =
    type === "Migrate"
      ? [MIGRATE_FIRST, MIGRATE_LAST - MIGRATE_FIRST + 1]
      : [RESTORE_FIRST, MIGRATION_STEPS.length - RESTORE_FIRST];
  const done = step - first;
  const progress = Math.floor((done / count) * 100);
  if (m.state === "Error")
    return operation(type, "Error", progress, `${stepError(m).description} Operation will be retried.`);
  if (m.state === "Failed") return operation(type, "Failed", progress, stepError(m).description);
  // Between Migrate Succeeded and the start of Restore.
  if (step === RESTORE_FIRST && m.steps[RESTORE_FIRST].attempts === 0)
    return operation("Migrate", "Succeeded", 100, "Shoot cluster has been successfully prepared for migration.");
  if (done === 0)
    return operation(
      type,
      "Processing",
      0,
      type === "Migrate"
        ? "Preparation of Shoot cluster for migration initialized."
        : "Restoration of Shoot cluster initialized.",
    );
  return operation(type, "Processing", progress, MIGRATION_STEPS[step].description);
}

/**
 * The shoot's status.lastOperation while this migration runs, or undefined while it waits for the
 * destination (Gardener leaves the previous one there until the Migrate operation starts).
 */
export function shootLastOperation(m: Migration, now: number, shootName?: string): MigrationOperation | undefined {
  if (m.step === WAIT && m.state === "Processing") return undefined;
  return migrationLastOperation(m, now, shootName);
}

/** The shoot's status.lastErrors for the flow's state: the failed task's, while Error or Failed. */
export function migrationLastErrors(
  m: Migration,
  now: number,
): { description: string; taskID: string; lastUpdateTime: string }[] | undefined {
  if (m.state !== "Error" && m.state !== "Failed") return undefined;
  const { error, task } = stepError(m);
  return [{ description: error, taskID: task, lastUpdateTime: timestamp(now) }];
}

/** The shoot's status.seedName by now: the destination once the Migrate operation has succeeded. */
export function seedAfter(m: Migration): string {
  return m.step > MIGRATE_LAST ? m.destination : m.source;
}

const MiB = 1024 * 1024;

/**
 * The ShootState size rule: over 1.5 MiB needs etcd's max request bytes raised (a warning); over
 * 2 MiB cannot be stored at all unless extension states live in referenced ConfigMaps/Secrets.
 */
export function shootStateSizeCheck(
  bytes: number,
  usesReferences: boolean,
): { ok: boolean; warning?: string; error?: string } {
  const size = `${(bytes / MiB).toFixed(2)} MiB`;
  if (bytes > 2 * MiB && !usesReferences) {
    return {
      ok: false,
      error: `the ShootState is ${size}, over the 2 MiB gRPC limit between the API server and etcd; extension states must be moved to referenced ConfigMaps or Secrets`,
    };
  }
  if (bytes > 1.5 * MiB)
    return {
      ok: true,
      warning: `the ShootState is ${size}, over etcd's default 1.5 MiB request limit; --max-request-bytes must be raised`,
    };
  return { ok: true };
}

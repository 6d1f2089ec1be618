// The control-plane migration flow (control-plane-migration.md) as a pure state machine: its
// steps in order, what lastOperation shows at each, and what a step's outcome leads to (the next
// step; Error and a retry with backoff; Failed once the retry duration has passed). The runner
// persists each state, so a process killed mid-flow resumes at the step it was in.
import { HOUR_MS } from "./time-units.ts";

export const MIGRATION_STEPS = [
  { name: "WaitForDestinationReady", operation: "Migrate", description: "Waiting until the destination seed is ready" },
  { name: "StopAPIServer", operation: "Migrate", description: "Stopping the shoot's API server" },
  { name: "BackupEtcd", operation: "Migrate", description: "Backing up etcd" },
  {
    name: "AnnotateExtensionsMigrate",
    operation: "Migrate",
    description: "Annotating extension resources with gardener.cloud/operation=migrate",
  },
  {
    name: "WriteShootState",
    operation: "Migrate",
    description: "Persisting secrets and extension states in the ShootState",
  },
  { name: "ScaleDownSource", operation: "Migrate", description: "Scaling down the control plane in the source seed" },
  {
    name: "RestoreInDestination",
    operation: "Restore",
    description:
      "Restoring the control plane in the destination seed from the ShootState (gardener.cloud/operation=restore)",
  },
  {
    name: "ReconcileInDestination",
    operation: "Restore",
    description: "Reconciling the shoot in the destination seed",
  },
  {
    name: "DeleteSourceNamespace",
    operation: "Restore",
    description: "Deleting the shoot's namespace in the source seed",
  },
] as const;

export type MigrationStepName = (typeof MIGRATION_STEPS)[number]["name"];
export type MigrationState = "Processing" | "Error" | "Failed" | "Succeeded";

export interface StepRecord {
  readonly name: MigrationStepName;
  readonly startedAt?: number;
  readonly endedAt?: number;
  readonly outcome?: "Succeeded" | "Error";
  readonly message?: string;
  readonly attempts: number;
}

export interface Migration {
  readonly source: string;
  readonly destination: string;
  readonly state: MigrationState;
  /** Index into MIGRATION_STEPS of the step to run (or running); steps.length when done. */
  readonly step: number;
  readonly steps: readonly StepRecord[];
  /** When the current run of errors began (for the retry duration). */
  readonly erroringSince?: number;
  /** When the step is to be tried again after an error (epoch ms). */
  readonly retryAt?: number;
  /** Errors in a row: the backoff doubles with each, and starts over after a success or a user's retry. */
  readonly failures?: number;
  readonly startedAt: number;
  readonly finishedAt?: number;
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

/** Marks the current step started (once per attempt). */
export function beginStep(m: Migration, now: number): Migration {
  const steps = m.steps.map((s, i) =>
    i === m.step ? { ...s, startedAt: s.startedAt ?? now, attempts: s.attempts + 1 } : s,
  );
  return { ...m, steps, state: "Processing", retryAt: undefined };
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
      erroringSince: undefined,
      retryAt: undefined,
      failures: 0,
      ...(done ? { finishedAt: now } : {}),
    };
  }
  const steps = m.steps.map((s, i) =>
    i === m.step ? { ...s, endedAt: now, outcome: "Error" as const, message: outcome.message } : s,
  );
  const since = m.erroringSince ?? now;
  if (now - since >= options.retryDurationMs) {
    return { ...m, steps, state: "Failed", erroringSince: since, retryAt: undefined, finishedAt: now };
  }
  const failures = (m.failures ?? 0) + 1;
  const backoff = Math.min(options.maxBackoffMs, options.backoffMs * 2 ** (failures - 1));
  return { ...m, steps, state: "Error", erroringSince: since, retryAt: now + backoff, failures };
}

/** A user's retry of a Failed migration: the failed step runs again with a fresh retry duration. */
export function retryMigration(m: Migration, now: number): Migration {
  if (m.state !== "Failed") return m;
  return { ...m, state: "Processing", erroringSince: undefined, retryAt: now, finishedAt: undefined, failures: 0 };
}

/** What status.lastOperation shows: Migrate, then Restore, with progress over the steps. */
export function migrationLastOperation(
  m: Migration,
  now: number,
): { type: string; state: string; progress: number; description: string; lastUpdateTime: string } {
  const index = Math.min(m.step, MIGRATION_STEPS.length - 1);
  const step = MIGRATION_STEPS[index];
  const progress = m.state === "Succeeded" ? 100 : Math.floor((m.step / MIGRATION_STEPS.length) * 100);
  const message = m.steps[index]?.message;
  const description =
    m.state === "Succeeded"
      ? "Control plane migration succeeded."
      : m.state === "Processing"
        ? step.description
        : `${step.description} failed: ${message ?? "unknown error"}`;
  return {
    type: m.state === "Succeeded" ? "Restore" : step.operation,
    state: m.state,
    progress,
    description,
    lastUpdateTime: new Date(Math.floor(now / 1000) * 1000).toISOString().replace(".000Z", "Z"),
  };
}

/** Whether the shoot's status.seedName is the destination by now (it switches at restore). */
export function seedAfter(m: Migration): string {
  const restore = MIGRATION_STEPS.findIndex((s) => s.name === "RestoreInDestination");
  return m.step > restore || (m.step === restore && m.steps[restore].attempts > 0) ? m.destination : m.source;
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

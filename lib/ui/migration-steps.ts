// A control-plane migration's steps as an operator reads them: a sentence per step (the engine's
// own descriptions), and a state with a word and a tone, so progress is never colour alone.
import { MIGRATION_STEPS } from "../engine/migration-flow.ts";
import type { MigrationStep, MigrationView } from "./api-types.ts";
import type { Tone } from "./status.ts";

export type StepState = "done" | "running" | "retrying" | "failed" | "waiting";

export const STEP_STATE_META: Record<StepState, { word: string; tone: Tone }> = {
  done: { word: "Done", tone: "green" },
  running: { word: "Running", tone: "blue" },
  retrying: { word: "Error, retrying", tone: "amber" },
  failed: { word: "Failed", tone: "red" },
  waiting: { word: "Waiting", tone: "grey" },
};

const DESCRIPTIONS = new Map<string, { description: string; operation: string }>(
  MIGRATION_STEPS.map((s) => [s.name, s]),
);

/**
 * "Creating ETCD Snapshot" (Gardener's task name) for "CreateETCDSnapshot"; the name itself for a step
 * this UI does not know.
 */
export function stepTitle(name: string): string {
  return DESCRIPTIONS.get(name)?.description ?? name;
}

/** "Migrate" (in the source seed) or "Restore" (in the destination). */
export function stepPhase(name: string): string | undefined {
  return DESCRIPTIONS.get(name)?.operation;
}

/** The index of the step the migration is at: the first that has not succeeded. */
export function currentStepIndex(migration: Pick<MigrationView, "steps">): number {
  const i = migration.steps.findIndex((s) => s.outcome !== "Succeeded");
  return i === -1 ? migration.steps.length : i;
}

export function stepState(
  step: MigrationStep,
  index: number,
  migration: Pick<MigrationView, "state" | "steps">,
): StepState {
  if (step.outcome === "Succeeded") return "done";
  const current = currentStepIndex(migration);
  if (index !== current) return "waiting";
  if (migration.state === "Failed") return "failed";
  if (migration.state === "Error") return "retrying";
  return step.attempts > 0 ? "running" : "waiting";
}

/** Steps done out of all, for a progress bar. */
export function stepsDone(migration: Pick<MigrationView, "steps">): { done: number; total: number } {
  return { done: migration.steps.filter((s) => s.outcome === "Succeeded").length, total: migration.steps.length };
}

/** Whether the panel should keep polling (the live feed may miss a step; polling is the fallback). */
export const migrationActive = (migration: Pick<MigrationView, "state"> | null | undefined) =>
  migration?.state === "Processing" || migration?.state === "Error";

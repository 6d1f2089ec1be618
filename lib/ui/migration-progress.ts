// The migrations page's reading of a migration: running (Processing, or Error waiting for a
// retry) or finished, which step it is at, and the order the page shows them in.
import { MIGRATION_STEPS } from "../engine/migration-flow.ts";

export interface MigrationLike {
  readonly state: string;
  readonly startedAt?: string;
  readonly finishedAt?: string;
  readonly steps: readonly {
    readonly name: string;
    readonly outcome: string | null;
    readonly startedAt?: string;
    readonly endedAt?: string;
  }[];
}

export const isActiveMigration = (m: MigrationLike) => m.state === "Processing" || m.state === "Error";

const time = (s?: string) => (s ? Date.parse(s) : 0);

/** Running ones, newest first; then finished ones, most recently finished first. */
export function splitMigrations<T extends MigrationLike>(items: readonly T[]): { active: T[]; finished: T[] } {
  const active = items.filter(isActiveMigration).sort((a, b) => time(b.startedAt) - time(a.startedAt));
  const finished = items
    .filter((m) => !isActiveMigration(m))
    .sort((a, b) => time(b.finishedAt ?? b.startedAt) - time(a.finishedAt ?? a.startedAt));
  return { active, finished };
}

/** The step running or next to run (its index); -1 once every step succeeded. */
export function currentStepIndex(m: MigrationLike): number {
  return m.steps.findIndex((s) => s.outcome !== "Succeeded");
}

export function stepsSucceeded(m: MigrationLike): number {
  return m.steps.filter((s) => s.outcome === "Succeeded").length;
}

/** The flow's own words for a step (Gardener's task name: "Creating ETCD Snapshot"). */
export function stepDescription(name: string): string {
  return MIGRATION_STEPS.find((s) => s.name === name)?.description ?? name;
}

/** Migrate steps move the control plane out of the source seed; Restore steps bring it up in the destination. */
export function stepPhase(name: string): "Migrate" | "Restore" | undefined {
  return MIGRATION_STEPS.find((s) => s.name === name)?.operation;
}

/** How long it ran (or has been running): milliseconds. */
export function migrationDuration(m: MigrationLike, now: number): number {
  return (m.finishedAt ? time(m.finishedAt) : now) - time(m.startedAt);
}

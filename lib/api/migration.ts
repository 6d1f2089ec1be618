// Control-plane migrations: GET .../migration (the shoot's latest, and every seed as a
// destination), GET /api/v1/migrations (across the fleet) and POST .../migrate. A migration is
// the engine's flow state as JSON.
import type { SeedCandidate } from "../engine/migration-admission.ts";
import type { Migration, migrationLastOperation, StepRecord } from "../engine/migration-flow.ts";
import type { WithIsoTimes, WithNulls } from "./json.ts";

export type MigrationStep = WithNulls<WithIsoTimes<StepRecord, "startedAt" | "endedAt">, "outcome" | "message">;

export type MigrationView = WithIsoTimes<
  Pick<Migration, "source" | "destination" | "state" | "startedAt" | "finishedAt" | "retryAt">,
  "startedAt" | "finishedAt" | "retryAt"
> & {
  readonly id: string;
  /** Who started it. */
  readonly actor: string;
  /**
   * What the shoot's status.lastOperation shows for it, in Gardener's words; while the migration
   * waits for its destination (before Gardener starts the Migrate operation), Migrate Pending with
   * what the gardenlet reports meanwhile.
   */
  readonly lastOperation: ReturnType<typeof migrationLastOperation>;
  readonly steps: readonly MigrationStep[];
};

/** One row of GET /api/v1/migrations: the migration and the shoot it moves. */
export type FleetMigration = MigrationView & {
  readonly namespace: string;
  readonly name: string;
};

export interface FleetMigrationsAnswer {
  readonly items: readonly FleetMigration[];
}

export interface ShootMigrationAnswer {
  readonly namespace: string;
  readonly name: string;
  /** The seed the control plane runs in now; null before it was scheduled. */
  readonly seed: string | null;
  readonly destinations: readonly SeedCandidate[];
  /** The latest migration, finished or not. */
  readonly migration: MigrationView | null;
}

/** The body of POST .../migrate. */
export interface MigrateRequest {
  readonly seedName: string;
}

/** POST .../migrate (202). */
export interface StartMigrationAnswer extends Pick<MigrationView, "source" | "destination" | "state" | "id"> {
  readonly namespace: string;
  readonly name: string;
  readonly message: string;
}

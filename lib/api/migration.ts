// Control-plane migrations: GET .../migration (the shoot's latest, and every seed as a
// destination), GET /api/v1/migrations (across the fleet) and POST .../migrate. A migration is
// the engine's flow state as JSON.
import { z } from "zod";
import type { SeedCandidate } from "../engine/migration-admission.ts";
import type { Migration, migrationLastOperation, StepRecord } from "../engine/migration-flow.ts";
import { MIGRATION_STEPS } from "../engine/migration-flow.ts";
import { component } from "./components.ts";
import type { WithIsoTimes, WithNulls } from "./json.ts";
import { describes } from "./schema-agreement.ts";

export type MigrationStep = WithNulls<WithIsoTimes<StepRecord, "startedAt" | "endedAt">, "outcome" | "message">;

export type MigrationView = WithIsoTimes<
  Pick<Migration, "source" | "destination" | "state" | "startedAt" | "finishedAt" | "retryAt" | "live">,
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

const migrationStateSchema = z.enum(["Processing", "Error", "Failed", "Succeeded"]);

export const migrationStepSchema = describes<MigrationStep>()(
  component(
    "MigrationStep",
    z.object({
      name: z.enum(MIGRATION_STEPS.map((s) => s.name) as [MigrationStep["name"], ...MigrationStep["name"][]]),
      startedAt: z.string().optional(),
      endedAt: z.string().optional(),
      outcome: z.enum(["Succeeded", "Error"]).nullable(),
      message: z.string().nullable(),
      attempts: z.int(),
    }),
  ),
);

const migrationViewFields = {
  source: z.string(),
  destination: z.string(),
  state: migrationStateSchema,
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  retryAt: z.string().optional(),
  live: z.boolean().optional().meta({
    description:
      "A live control-plane migration (migration.gardener.cloud/live-migrate): Gardener's LiveMigrate operation, whose progress is the shoot's status.liveMigration conditions.",
  }),
  id: z.string(),
  actor: z.string(),
  lastOperation: z.object({
    type: z.string(),
    state: z.string(),
    progress: z.number(),
    description: z.string(),
    lastUpdateTime: z.string(),
  }),
  steps: z.array(migrationStepSchema),
};

export const migrationViewSchema = describes<MigrationView>()(component("Migration", z.object(migrationViewFields)));

export const fleetMigrationsAnswerSchema = describes<FleetMigrationsAnswer>()(
  component(
    "FleetMigrationList",
    z.object({
      items: z.array(
        component("FleetMigration", z.object({ ...migrationViewFields, namespace: z.string(), name: z.string() })),
      ),
    }),
  ),
);

export const seedCandidateSchema = describes<SeedCandidate>()(
  component(
    "SeedCandidate",
    z.object({
      name: z.string(),
      region: z.string(),
      provider: z.string(),
      ready: z.boolean(),
      readyForMigration: z
        .object({
          status: z.enum(["True", "False"]),
          reason: z.enum(["DestinationSeedReady", "DestinationSeedInDeletion", "DestinationSeedUnready"]),
          message: z.string(),
        })
        .nullable(),
      current: z.boolean(),
      reasons: z.array(z.string()).meta({ description: "Empty when the shoot may move there: Gardener's admission." }),
      untoleratedTaints: z.array(z.string()),
    }),
  ),
);

export const shootMigrationAnswerSchema = describes<ShootMigrationAnswer>()(
  component(
    "ShootMigration",
    z.object({
      namespace: z.string(),
      name: z.string(),
      seed: z
        .string()
        .nullable()
        .meta({ description: "The seed the control plane runs in now; null before it was scheduled." }),
      destinations: z.array(seedCandidateSchema),
      migration: migrationViewSchema.nullable().meta({ description: "The latest migration, finished or not." }),
    }),
  ),
);

export const startMigrationAnswerSchema = describes<StartMigrationAnswer>()(
  component(
    "StartedMigration",
    z.object({
      source: z.string(),
      destination: z.string(),
      state: migrationStateSchema,
      id: z.string(),
      namespace: z.string(),
      name: z.string(),
      message: z.string(),
    }),
  ),
);

// Whether the destination seed may take the control plane now: the ShootReadyForMigration
// constraint that gardener-controller-manager's shoot migration controller keeps on a shoot whose
// spec.seedName differs from status.seedName (pkg/controllermanager/controller/shoot/migration,
// Reconciler.Reconcile), from health.CheckSeedForMigration (pkg/utils/kubernetes/health/seed.go).
// The gardenlet starts the Migrate operation only once the constraint is True
// (pkg/gardenlet/controller/shoot/shoot/reconciler.go, migrateShoot); until then it waits, without
// touching the shoot's lastOperation and without a retry limit.
import type { Seed } from "../gardener/types.ts";

export const SHOOT_READY_FOR_MIGRATION = "ShootReadyForMigration";

/** The seed conditions CheckSeedForMigration requires to be True, in its order. */
const TRUE_SEED_CONDITIONS = ["GardenletReady", "SeedSystemComponentsHealthy"] as const;

/**
 * Gardener's health.CheckSeedForMigration: the destination runs the source's Gardener version, has
 * observed its generation, and reports GardenletReady and SeedSystemComponentsHealthy as True.
 * Answers the error text, or undefined when the seed is fit.
 */
export function checkSeedForMigration(
  seed: Seed,
  sourceGardener: { version?: string } | undefined,
): string | undefined {
  const gardener = seed.status?.gardener;
  if (!gardener || !sourceGardener) return "missing Gardener version information on source or destination seed";
  if (gardener.version !== sourceGardener.version)
    return `observing Gardener version not up to date (${gardener.version ?? ""}/${sourceGardener.version ?? ""})`;
  const observed = seed.status?.observedGeneration ?? 0;
  const generation = seed.metadata.generation ?? 0;
  if (observed < generation) return `observed generation outdated (${observed}/${generation})`;
  const conditions = seed.status?.conditions ?? [];
  // CheckRequiredSeedConditions: a missing condition is reported before any False one.
  for (const type of TRUE_SEED_CONDITIONS)
    if (!conditions.some((c) => c.type === type)) return `condition "${type}" is missing`;
  for (const type of TRUE_SEED_CONDITIONS) {
    const c = conditions.find((x) => x.type === type)!;
    if (c.status !== "True")
      return `condition "${type}" has invalid status ${c.status} (expected True) due to ${c.reason ?? ""}: ${c.message ?? ""}`;
  }
  return undefined;
}

export interface ReadyForMigration {
  readonly status: "True" | "False";
  readonly reason: "DestinationSeedReady" | "DestinationSeedInDeletion" | "DestinationSeedUnready";
  readonly message: string;
}

/**
 * The ShootReadyForMigration constraint for a move from `source` to `destination` (the
 * controller-manager's migration reconciler); undefined when either seed cannot be read, which
 * leaves the gardenlet waiting.
 */
export function shootReadyForMigration(
  source: Seed | undefined,
  destination: Seed | undefined,
): ReadyForMigration | undefined {
  if (!source || !destination) return undefined;
  if (destination.metadata.deletionTimestamp)
    return { status: "False", reason: "DestinationSeedInDeletion", message: "Seed is being deleted" };
  const problem = checkSeedForMigration(destination, source.status?.gardener);
  if (problem) return { status: "False", reason: "DestinationSeedUnready", message: problem };
  return {
    status: "True",
    reason: "DestinationSeedReady",
    message: "Destination seed cluster is ready for the shoot migration",
  };
}

/**
 * What the gardenlet answers while it waits for the constraint (Reconciler.migrateShoot): the
 * error its reconcile returns, as Gardener logs it; the shoot's lastOperation does not change.
 */
export function waitingForDestination(shootName: string, constraint: ReadyForMigration | undefined): string {
  if (!constraint)
    return `waiting for confirmation that destination Seed is available to host the control plane of Shoot ${shootName}`;
  return `destination Seed is not available to host the control plane of Shoot ${shootName}: ${constraint.message}`;
}

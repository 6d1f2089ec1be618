// How a live garden ends what Almanac recorded as started: a control-plane migration is over when
// Gardener restored the shoot on its destination (or gave up), a deletion when the shoot is gone.
// On the simulated garden Almanac's own flows end them; here Gardener does the work and Almanac
// only reads the outcome off the shoot.
import type { Shoot } from "../gardener/types.ts";
import type { Deletion } from "./deletion-cleanup.ts";
import type { Migration } from "./migration-flow.ts";

const running = (state: string) => state === "Processing" || state === "Error";

/** The migration as the shoot shows it ended, or undefined while it goes on (or already ended). */
export function observedMigrationEnd(migration: Migration, shoot: Shoot, now: number): Migration | undefined {
  if (!running(migration.state)) return undefined;
  const operation = shoot.status?.lastOperation;
  // A live migration is one LiveMigrate operation (migration.gardener.cloud/live-migrate), which
  // ends like the Restore of a classic one.
  const types = ["Migrate", "Restore", "LiveMigrate"];
  if (!operation || !types.includes(operation.type)) return undefined;
  if (operation.state === "Failed") return { ...migration, state: "Failed", finishedAt: now };
  const restored =
    (operation.type === "Restore" || operation.type === "LiveMigrate") &&
    operation.state === "Succeeded" &&
    (shoot.status?.seedName ?? shoot.spec.seedName) === migration.destination;
  return restored ? { ...migration, state: "Succeeded", step: migration.steps.length, finishedAt: now } : undefined;
}

/** The deletion once the garden no longer has the shoot, or undefined when it already ended. */
export function observedDeletionEnd(deletion: Deletion, now: number): Deletion | undefined {
  if (!running(deletion.state)) return undefined;
  return { ...deletion, state: "Succeeded", step: deletion.steps.length, finishedAt: now };
}

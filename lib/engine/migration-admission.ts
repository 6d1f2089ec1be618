// Whether a shoot's control plane may move to another seed (control-plane-migration.md), and
// why not: never successfully created, the same seed, an unknown or unready seed, taints the
// shoot does not tolerate (with its project's default and whitelisted tolerations), or another
// operation under way.
import type { Project, Seed, Shoot, Taint, Toleration } from "../gardener/types.ts";

export interface Refusal {
  readonly field: string;
  readonly type: "Forbidden" | "NotFound" | "Invalid";
  readonly detail: string;
}

export function seedIsReady(seed: Seed): boolean {
  const conditions = seed.status?.conditions ?? [];
  return conditions.length > 0 && conditions.every((c) => c.status === "True");
}

/** Gardener's TaintsAreTolerated: the key must match, and a taint's value (if any) must equal the toleration's. */
const tolerates = (t: Toleration, taint: Taint) =>
  t.key === taint.key && (taint.value === undefined || t.value === taint.value);
const show = (taint: Taint) => (taint.value === undefined ? taint.key : `${taint.key}=${taint.value}`);

/**
 * The tolerations a shoot has: its own, plus the project's defaults for keys it does not set
 * (Gardener adds those when the shoot is created). The project's whitelist only restricts
 * tolerations a user adds or changes, which a migration does not.
 */
function effectiveTolerations(shoot: Shoot, project: Project | undefined): Toleration[] {
  const own = shoot.spec.tolerations ?? [];
  const defaults = (project?.spec.tolerations?.defaults ?? []).filter((d) => !own.some((t) => t.key === d.key));
  return [...own, ...defaults];
}

/** Why the shoot does not tolerate the seed's taints (empty when it does). */
function taintProblems(shoot: Shoot, seed: Seed, project: Project | undefined): string[] {
  const tolerations = effectiveTolerations(shoot, project);
  return (seed.spec.taints ?? [])
    .filter((taint) => !tolerations.some((t) => tolerates(t, taint)))
    .map((taint) => `seed "${seed.metadata.name}" has taint "${show(taint)}", which the shoot does not tolerate`);
}

/**
 * An operation under way that stands in the way of a migration, or of other changes during one.
 * A code, so that callers decide by it (a deletion is refused during a migration, not during a
 * deletion); `describeBlockingOperation` words it for people.
 */
export type BlockingOperation =
  | { readonly code: "Deleting" }
  /** `operation` is the lastOperation ("Migrate Processing"), absent when only spec and status seeds differ. */
  | { readonly code: "Migrating"; readonly operation?: string; readonly destination?: string };

/** The operation that stands in the way of a migration (or of other changes during one), if any. */
export function blockingOperation(shoot: Shoot): BlockingOperation | undefined {
  if (shoot.metadata.deletionTimestamp) return { code: "Deleting" };
  const op = shoot.status?.lastOperation;
  if (op?.type === "Delete") return { code: "Deleting" };
  // A Failed migration is not under way any more: it can be retried, superseded or deleted.
  if ((op?.type === "Migrate" || op?.type === "Restore") && op.state === "Failed") return undefined;
  if ((op?.type === "Migrate" || op?.type === "Restore") && op.state !== "Succeeded")
    return { code: "Migrating", operation: `${op.type} ${op.state}` };
  if (shoot.spec.seedName && shoot.status?.seedName && shoot.spec.seedName !== shoot.status.seedName) {
    return { code: "Migrating", destination: shoot.spec.seedName };
  }
  return undefined;
}

/** The blocking operation in words: "a control plane migration is under way (Migrate Processing)". */
export function describeBlockingOperation(blocking: BlockingOperation): string {
  if (blocking.code === "Deleting") return "the shoot is being deleted";
  if (blocking.operation) return `a control plane migration is under way (${blocking.operation})`;
  return `a control plane migration to "${blocking.destination}" is under way`;
}

/** Every reason the control plane cannot move to `destination` (empty when it can). */
export function migrationRefusals(
  shoot: Shoot,
  destination: string,
  seeds: ReadonlyMap<string, Seed>,
  project: Project | undefined,
): Refusal[] {
  const source = shoot.status?.seedName;
  if (!source) {
    return [
      {
        field: "status.seedName",
        type: "Forbidden",
        detail:
          "the shoot was never successfully created (status.seedName is not set), so there is no control plane to migrate",
      },
    ];
  }
  const refusals: Refusal[] = [];
  const blocking = blockingOperation(shoot);
  if (blocking)
    refusals.push({
      field: "status.lastOperation",
      type: "Forbidden",
      detail: `${describeBlockingOperation(blocking)}; wait until it has finished`,
    });
  const seed = seeds.get(destination);
  if (destination === source) {
    refusals.push({
      field: "spec.seedName",
      type: "Invalid",
      detail: `the control plane already runs on seed "${source}"`,
    });
  } else if (!seed) {
    refusals.push({ field: "spec.seedName", type: "NotFound", detail: `seed "${destination}" does not exist` });
  } else {
    if (!seedIsReady(seed)) {
      const failing = (seed.status?.conditions ?? [])
        .filter((c) => c.status !== "True")
        .map((c) => `${c.type} is ${c.status}`);
      refusals.push({
        field: "spec.seedName",
        type: "Forbidden",
        detail: `seed "${destination}" is not ready${failing.length ? ` (${failing.join(", ")})` : " (it reports no conditions)"}`,
      });
    }
    const from = seeds.get(source);
    if (from && from.spec.provider.type !== seed.spec.provider.type) {
      refusals.push({
        field: "spec.seedName",
        type: "Forbidden",
        detail: `cannot change seed because cloud provider for new seed (${seed.spec.provider.type}) is not equal to cloud provider for old seed (${from.spec.provider.type})`,
      });
    }
    for (const problem of taintProblems(shoot, seed, project))
      refusals.push({ field: "spec.seedName", type: "Forbidden", detail: problem });
  }
  return refusals;
}

export interface SeedCandidate {
  readonly name: string;
  readonly region: string;
  readonly provider: string;
  readonly ready: boolean;
  readonly current: boolean;
  /** Empty when the shoot may move there. */
  readonly reasons: readonly string[];
}

/** Every seed as a migration destination for the shoot, with why it cannot be one. */
export function seedCandidates(shoot: Shoot, seeds: readonly Seed[], project: Project | undefined): SeedCandidate[] {
  const byName = new Map(seeds.map((s) => [s.metadata.name, s]));
  return seeds.map((seed) => ({
    name: seed.metadata.name,
    region: seed.spec.provider.region,
    provider: seed.spec.provider.type,
    ready: seedIsReady(seed),
    current: shoot.status?.seedName === seed.metadata.name,
    reasons: migrationRefusals(shoot, seed.metadata.name, byName, project).map((r) => r.detail),
  }));
}

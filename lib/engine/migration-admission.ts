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

const tolerates = (t: Toleration, taint: Taint) => t.key === taint.key && (t.value === undefined || t.value === taint.value);
const show = (taint: Taint) => (taint.value === undefined ? taint.key : `${taint.key}=${taint.value}`);

/**
 * The shoot's tolerations that count: its own, where the project allows them (defaults or
 * whitelist), plus the project's defaults, which Gardener adds to every shoot of the project.
 */
export function effectiveTolerations(shoot: Shoot, project: Project | undefined): { counted: Toleration[]; refused: Toleration[] } {
  const defaults = project?.spec.tolerations?.defaults ?? [];
  const whitelist = project?.spec.tolerations?.whitelist ?? [];
  const allowed = [...defaults, ...whitelist];
  const own = shoot.spec.tolerations ?? [];
  const counted = [...defaults];
  const refused: Toleration[] = [];
  for (const t of own) {
    if (allowed.some((a) => a.key === t.key && (a.value === undefined || a.value === t.value))) counted.push(t);
    else refused.push(t);
  }
  return { counted, refused };
}

/** Why the shoot does not tolerate the seed's taints (empty when it does). */
export function taintProblems(shoot: Shoot, seed: Seed, project: Project | undefined): string[] {
  const { counted, refused } = effectiveTolerations(shoot, project);
  const problems: string[] = [];
  for (const taint of seed.spec.taints ?? []) {
    if (counted.some((t) => tolerates(t, taint))) continue;
    const notAllowed = refused.find((t) => tolerates(t, taint));
    problems.push(notAllowed
      ? `seed "${seed.metadata.name}" has taint "${show(taint)}"; the shoot's toleration for it is not whitelisted by project "${project?.metadata.name ?? "?"}"`
      : `seed "${seed.metadata.name}" has taint "${show(taint)}", which the shoot does not tolerate`);
  }
  return problems;
}

/** The operation that stands in the way of a migration, if any. */
export function blockingOperation(shoot: Shoot): string | undefined {
  if (shoot.metadata.deletionTimestamp) return "the shoot is being deleted";
  const op = shoot.status?.lastOperation;
  if (op?.type === "Delete") return "the shoot is being deleted";
  if ((op?.type === "Migrate" || op?.type === "Restore") && op.state !== "Succeeded") return `a control plane migration is under way (${op.type} ${op.state})`;
  if (shoot.spec.seedName && shoot.status?.seedName && shoot.spec.seedName !== shoot.status.seedName) {
    return `a control plane migration to "${shoot.spec.seedName}" is under way`;
  }
  return undefined;
}

export function migrationRefusals(shoot: Shoot, destination: string, seeds: ReadonlyMap<string, Seed>, project: Project | undefined): Refusal[] {
  const source = shoot.status?.seedName;
  if (!source) {
    return [{ field: "status.seedName", type: "Forbidden", detail: "the shoot was never successfully created (status.seedName is not set), so there is no control plane to migrate" }];
  }
  const blocking = blockingOperation(shoot);
  if (blocking) return [{ field: "metadata", type: "Forbidden", detail: `${blocking}; wait until it has finished` }];
  if (destination === source) return [{ field: "seedName", type: "Invalid", detail: `the control plane already runs on seed "${source}"` }];
  const seed = seeds.get(destination);
  if (!seed) return [{ field: "seedName", type: "NotFound", detail: `seed "${destination}" does not exist` }];
  const refusals: Refusal[] = [];
  if (!seedIsReady(seed)) {
    const failing = (seed.status?.conditions ?? []).filter((c) => c.status !== "True").map((c) => `${c.type} is ${c.status}`);
    refusals.push({ field: "seedName", type: "Forbidden", detail: `seed "${destination}" is not ready${failing.length ? ` (${failing.join(", ")})` : " (it reports no conditions)"}` });
  }
  for (const problem of taintProblems(shoot, seed, project)) refusals.push({ field: "spec.tolerations", type: "Forbidden", detail: problem });
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

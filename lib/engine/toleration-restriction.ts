// gardener-apiserver's ShootTolerationRestriction admission plugin
// (plugin/pkg/shoot/tolerationrestriction), and what a change of tolerations means for the seeds a
// shoot may use (the scheduler's filter and the ShootValidator's check of a new spec.seedName,
// both TaintsAreTolerated: see migration-admission.ts).
//
// - On create (Admit), the defaults of the project (spec.tolerations.defaults) and of the plugin's
//   admission config are added, unless the shoot already names a toleration with that key.
// - On create and update (Validate), each toleration must be allowed by the project's
//   spec.tolerations.whitelist or the admission config's global whitelist. On an update, only the
//   tolerations the old shoot did not have (by key and value) are checked: a shoot keeps what it
//   was once allowed, even after the whitelist shrank.
// - A whitelist entry without a value allows its key with any value or none; one with a value
//   allows exactly that key and value.
import type { Seed, Toleration } from "../gardener/types.ts";
import type { FieldError } from "./field-error.ts";
import { taintsAreTolerated } from "./migration-admission.ts";
import { tolerationId } from "./toleration-validation.ts";

/** The plugin's admission config (ShootTolerationRestrictionConfiguration): the global lists. */
export interface GlobalTolerations {
  readonly defaults: readonly Toleration[];
  readonly whitelist: readonly Toleration[];
}

export const NO_GLOBAL_TOLERATIONS: GlobalTolerations = { defaults: [], whitelist: [] };

/** A project's spec.tolerations (the part of the Project this plugin reads). */
export interface ProjectTolerations {
  readonly defaults?: readonly Toleration[];
  readonly whitelist?: readonly Toleration[];
}

/** Admit: the tolerations of a shoot being created, with the project's and the global defaults added. */
export function withDefaultTolerations(
  tolerations: readonly Toleration[],
  project: ProjectTolerations | undefined,
  global: GlobalTolerations = NO_GLOBAL_TOLERATIONS,
): Toleration[] {
  const result = tolerations.map((t) => ({ ...t }));
  const keys = new Set(tolerations.map((t) => t.key));
  // Gardener checks against the keys the shoot had before defaulting, so two defaults with one key are both added.
  for (const t of [...global.defaults, ...(project?.defaults ?? [])]) if (!keys.has(t.key)) result.push({ ...t });
  return result;
}

/** ValidateTolerationsAgainstAllowlist's test: the whitelist names the key alone, or the key with this value. */
export function isWhitelisted(toleration: Toleration, whitelist: readonly Toleration[]): boolean {
  const allowed = new Set(whitelist.map(tolerationId));
  return allowed.has(toleration.key) || allowed.has(tolerationId(toleration));
}

/** The tolerations of `after` that `before` did not have, with their index in `after` (getNewOrChangedTolerations). */
export function newOrChangedTolerations(
  before: readonly Toleration[] | undefined,
  after: readonly Toleration[],
): { toleration: Toleration; index: number }[] {
  const old = new Set((before ?? []).map(tolerationId));
  return after
    .map((toleration, index) => ({ toleration, index }))
    .filter(({ toleration }) => !old.has(tolerationId(toleration)));
}

/**
 * Validate: the tolerations the whitelists do not allow, one problem each, naming the toleration's
 * key in the full list (Gardener names the index among the checked ones only, and answers 403 with
 * all of them in one message; Almanac answers 422 per field so that the form can point at it).
 * `before` is the shoot's tolerations before an update; undefined on create.
 */
export function tolerationRestrictionProblems(
  before: readonly Toleration[] | undefined,
  after: readonly Toleration[],
  project: ProjectTolerations | undefined,
  global: GlobalTolerations = NO_GLOBAL_TOLERATIONS,
  path = "spec.tolerations",
): FieldError[] {
  const whitelist = [...global.whitelist, ...(project?.whitelist ?? [])];
  const allowed = whitelist.length === 0 ? "none" : [...new Set(whitelist.map(tolerationId))].join(", ");
  return newOrChangedTolerations(before, after)
    .filter(({ toleration }) => !isWhitelisted(toleration, whitelist))
    .map(({ toleration, index }) => ({
      type: "Forbidden",
      field: `${path}[${index}].key`,
      value: tolerationId(toleration),
      detail: `toleration "${tolerationId(toleration)}" is not in the project's whitelist nor the global whitelist (allowed: ${allowed})`,
    }));
}

/** What a change of tolerations means for the seeds: those it opens, those it closes, and the shoot's own. */
export interface SeedReach {
  /** Seeds whose taints were not all tolerated before and are after. */
  readonly opened: readonly string[];
  /** Seeds whose taints were all tolerated before and are not after. */
  readonly closed: readonly string[];
  /**
   * The shoot's current seed when the change stops tolerating it. Gardener still admits the
   * change: taints are checked only when a seed is chosen (scheduling, a migration through
   * shoots/binding), so the control plane stays where it is, but it cannot be moved back there
   * or rescheduled onto a seed with those taints.
   */
  readonly currentSeedClosed?: string;
}

/** The seeds a shoot may use, as far as taints go: every taint tolerated (TaintsAreTolerated). */
export function toleratedSeeds(seeds: readonly Seed[], tolerations: readonly Toleration[]): string[] {
  return seeds.filter((s) => taintsAreTolerated(s.spec.taints ?? [], tolerations)).map((s) => s.metadata.name);
}

/** Which seeds a change from `before` to `after` tolerations opens or closes (only tainted seeds can change). */
export function seedReach(
  seeds: readonly Seed[],
  before: readonly Toleration[],
  after: readonly Toleration[],
  currentSeed?: string,
): SeedReach {
  const was = new Set(toleratedSeeds(seeds, before));
  const is = new Set(toleratedSeeds(seeds, after));
  const names = seeds.map((s) => s.metadata.name).sort();
  const closed = names.filter((n) => was.has(n) && !is.has(n));
  return {
    opened: names.filter((n) => !was.has(n) && is.has(n)),
    closed,
    ...(currentSeed && closed.includes(currentSeed) ? { currentSeedClosed: currentSeed } : {}),
  };
}

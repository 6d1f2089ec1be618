// What the tolerations panel computes: the rows being edited as tolerations, what is wrong with
// them before anything is sent (the shoot's validation, and whether the project's whitelist
// allows each new one), the seeds the edit opens or closes, and the patch that saves it. The
// rules are the engine's (toleration-validation.ts, toleration-restriction.ts), so the page and
// the simulated garden judge alike; a live garden may also allow what its global whitelist has,
// which the page cannot see, so the whitelist is shown as advice there, never as a block.
import { isWhitelisted, newOrChangedTolerations, seedReach, type SeedReach } from "../engine/toleration-restriction.ts";
import { tolerationId, validateTolerations } from "../engine/toleration-validation.ts";
import type { Seed, Toleration } from "../gardener/types.ts";

/** One row of the form: a key, and a value only when `withValue`. */
export interface TolerationRow {
  readonly key: string;
  readonly value: string;
  readonly withValue: boolean;
}

export const rowsOf = (tolerations: readonly Toleration[]): TolerationRow[] =>
  tolerations.map((t) => ({ key: t.key, value: t.value ?? "", withValue: t.value !== undefined }));

export const tolerationsOfRows = (rows: readonly TolerationRow[]): Toleration[] =>
  rows.map((r) => (r.withValue ? { key: r.key.trim(), value: r.value.trim() } : { key: r.key.trim() }));

export const sameTolerations = (a: readonly Toleration[], b: readonly Toleration[]) =>
  JSON.stringify(a) === JSON.stringify(b);

/** The merge patch that saves the list (null removes it), guarded by the resourceVersion. */
export function tolerationsPatch(tolerations: readonly Toleration[], resourceVersion: string | undefined) {
  return {
    ...(resourceVersion ? { metadata: { resourceVersion } } : {}),
    spec: { tolerations: tolerations.length === 0 ? null : tolerations },
  };
}

/** The field problems of the shoot's validation, per row: `key`, `value` or the row itself. */
export function rowProblems(rows: readonly TolerationRow[]): Map<string, string> {
  const problems = new Map<string, string>();
  for (const e of validateTolerations(tolerationsOfRows(rows))) {
    const detail = e.type === "Duplicate" ? "appears twice (same key, or the key already without a value)" : e.detail;
    if (!problems.has(e.field)) problems.set(e.field, detail);
  }
  return problems;
}

/**
 * The rows the project's whitelist does not allow, by index, among those the shoot did not have
 * (Gardener checks only new or changed tolerations on an update).
 */
export function notWhitelisted(
  before: readonly Toleration[],
  rows: readonly TolerationRow[],
  whitelist: readonly Toleration[],
): Set<number> {
  const fresh = newOrChangedTolerations(before, tolerationsOfRows(rows));
  return new Set(fresh.filter(({ toleration }) => !isWhitelisted(toleration, whitelist)).map(({ index }) => index));
}

/** The whitelist entries as choices to add: those the form does not have yet. */
export function whitelistChoices(whitelist: readonly Toleration[], rows: readonly TolerationRow[]): Toleration[] {
  const have = new Set(tolerationsOfRows(rows).map(tolerationId));
  const seen = new Set<string>();
  return whitelist.filter((t) => {
    const id = tolerationId(t);
    if (have.has(id) || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** A whitelist entry in words: a key alone allows any value. */
export const describeEntry = (t: Toleration) =>
  t.value === undefined ? `${t.key} (any value)` : `${t.key}=${t.value}`;

/** The seeds an edit opens and closes, in words for the panel. */
export function reachLines(
  seeds: readonly Seed[],
  before: readonly Toleration[],
  after: readonly Toleration[],
  currentSeed?: string,
) {
  const reach: SeedReach = seedReach(seeds, before, after, currentSeed);
  const lines: { readonly kind: "opened" | "closed" | "current"; readonly text: string }[] = [];
  if (reach.opened.length > 0)
    lines.push({
      kind: "opened",
      text: `Opens ${listOf(reach.opened)}: every taint of ${reach.opened.length === 1 ? "it" : "each"} is tolerated.`,
    });
  if (reach.closed.length > 0)
    lines.push({
      kind: "closed",
      text: `Closes ${listOf(reach.closed)}: ${reach.closed.length === 1 ? "its" : "their"} taints are no longer all tolerated.`,
    });
  if (reach.currentSeedClosed)
    lines.push({
      kind: "current",
      text: `This cluster's control plane runs on ${reach.currentSeedClosed}. Gardener still accepts the change and leaves it there (taints are checked only when a seed is chosen), but it could not be scheduled or migrated back onto ${reach.currentSeedClosed}.`,
    });
  return lines;
}

/** The seeds' taints in words: "dedicated=payments" or "seed.gardener.cloud/protected". */
export const taintText = (seed: Seed) => (seed.spec.taints ?? []).map(tolerationId).join(", ");

const listOf = (names: readonly string[]) =>
  names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;

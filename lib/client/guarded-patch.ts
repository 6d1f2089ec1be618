// What a 409 on a guarded edit means for the user's change. Every edit of a shoot is a merge patch
// carrying the resourceVersion the user's choice was made on; a 409 says the shoot has moved on
// since. It moves on for many reasons (the gardenlet writes its status while it reconciles), so
// only the part of the shoot the change is about decides: still as the user saw it, the change
// means what it meant and is sent again on the current version; already as the change would
// leave it, someone else made the same change; otherwise someone decided differently, and the
// user has to look again before anything is sent.

export type Recheck = "retry" | "applied" | "superseded";

export interface ChangedPart<P> {
  /** The part of the shoot the change is about, as the user saw it when choosing. */
  readonly base: P;
  /** The part as the change leaves it; without it, a change is never taken as already made. */
  readonly wanted?: P;
  /** Whether two readings of the part are the same; equal plain data when not given. */
  readonly same?: (a: P, b: P) => boolean;
}

/** The verdict on a change after a 409, given the part as the current shoot has it. */
export function recheckConflict<P>(change: ChangedPart<P>, current: P): Recheck {
  const same = change.same ?? samePlainData;
  if (same(change.base, current)) return "retry";
  if (change.wanted !== undefined && same(change.wanted, current)) return "applied";
  return "superseded";
}

/** A merge patch of the spec, guarded by `resourceVersion` (unguarded when there is none). */
export function guardedPatch<S>(resourceVersion: string | undefined, spec: S) {
  return { ...(resourceVersion ? { metadata: { resourceVersion } } : {}), spec };
}

/** Equality of JSON-like data: primitives, arrays and plain objects (a missing key = undefined). */
export function samePlainData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => samePlainData(x, b[i]));
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return [...new Set([...Object.keys(x), ...Object.keys(y)])].every((k) => samePlainData(x[k], y[k]));
}

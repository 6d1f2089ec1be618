// Gardener's version selection helpers: "latest qualifying" with filter predicates, the
// auto-update helpers that prefer non-deprecated versions, and the force-update helpers that
// prefer non-expired ones (Gardener: pkg/api/core/v1beta1/helper/cloudprofile.go,
// GetLatestQualifyingVersion, GetLatestVersionFor*AutoUpdate, GetVersionForForcefulUpdateTo*;
// DetermineVersionForStrategy is in
// pkg/controllermanager/controller/shoot/maintenance/helper/helper.go).
import type { ExpirableVersion, VersionClassification } from "../gardener/types.ts";
import { classificationAt } from "./classification.ts";
import { compareVersions, parseNormalized, parseVersion, type Version, VersionParseError } from "./version.ts";

/** One version of a CloudProfile list, parsed and classified once for a given moment. */
export interface Candidate {
  readonly source: ExpirableVersion;
  readonly text: string;
  readonly classification: VersionClassification;
  /** Undefined when the string does not parse; selecting over such a list fails. */
  readonly version: Version | undefined;
  readonly parseError: string | undefined;
  /** The normalised form (see normalizeVersionString), parsed; undefined when it does not parse. */
  readonly normalized: Version | undefined;
}

/** A version list prepared for selection at one moment. Results are memoised per question. */
export class CandidateList {
  readonly items: readonly Candidate[];
  private ascending: readonly Candidate[] | undefined;
  private byText: Map<string, Candidate> | undefined;
  readonly memo = new Map<string, unknown>();

  constructor(items: readonly Candidate[]) {
    this.items = items;
  }

  static of(versions: readonly ExpirableVersion[], now: number): CandidateList {
    return new CandidateList(versions.map((v) => toCandidate(v, now)));
  }

  /** Ascending by semver; a stable sort, computed once. Throws on unparsable versions. */
  sortedAscending(): readonly Candidate[] {
    if (!this.ascending) {
      for (const c of this.items) assertParsed(c);
      this.ascending = [...this.items].sort((a, b) => compareVersions(a.version!, b.version!));
    }
    return this.ascending;
  }

  /** The first entry with exactly this version string. */
  find(text: string): Candidate | undefined {
    if (!this.byText) {
      this.byText = new Map();
      for (const c of this.items) if (!this.byText.has(c.text)) this.byText.set(c.text, c);
    }
    return this.byText.get(text);
  }

  /** Computes once per key; failures are remembered too, so a failing question stays cheap. */
  remember<T>(key: string, compute: () => T): T {
    let entry = this.memo.get(key) as { value?: T; error?: unknown } | undefined;
    if (!entry) {
      try {
        entry = { value: compute() };
      } catch (error) {
        entry = { error };
      }
      this.memo.set(key, entry);
    }
    if ("error" in entry) throw entry.error;
    return entry.value as T;
  }
}

function toCandidate(source: ExpirableVersion, now: number): Candidate {
  let version: Version | undefined;
  let parseError: string | undefined;
  try {
    version = parseVersion(String(source.version));
  } catch (e) {
    parseError = e instanceof Error ? e.message : String(e);
  }
  let normalized: Version | undefined;
  try {
    normalized = parseNormalized(String(source.version));
  } catch {
    normalized = undefined;
  }
  return {
    source,
    text: String(source.version),
    classification: classificationAt(source, now),
    version,
    parseError,
    normalized,
  };
}

function assertParsed(c: Candidate): Version {
  if (!c.version) throw new VersionParseError(c.parseError ?? "Invalid Semantic Version");
  return c.version;
}

/** A predicate returns true when the candidate must be dropped. */
export type Predicate = (c: Candidate, v: Version) => boolean;

const dropExpired: Predicate = (c) => c.classification === "expired";
const dropDeprecated: Predicate = (c) => c.classification === "deprecated";
const dropSame =
  (cur: Version): Predicate =>
  (_c, v) =>
    compareVersions(v, cur) === 0;
const dropLower =
  (cur: Version): Predicate =>
  (_c, v) =>
    compareVersions(v, cur) < 0;
const dropDifferentMajor =
  (cur: Version): Predicate =>
  (_c, v) =>
    v.major !== cur.major;
const dropNotConsecutiveMinor =
  (cur: Version): Predicate =>
  (_c, v) =>
    v.major !== cur.major || v.minor !== cur.minor + 1;
/** Compares only the minor number, without a major check, as Gardener does. */
const dropMinorLE =
  (cur: Version): Predicate =>
  (_c, v) =>
    v.minor <= cur.minor;
const dropMajorLE =
  (cur: Version): Predicate =>
  (_c, v) =>
    v.major <= cur.major;

/** Drops everything but higher-or-equal patches of cur's major.minor (a "~cur" constraint). */
function dropNotSameMinorOrLowerPatch(curText: string): Predicate {
  const cur = parseNormalized(curText);
  if (cur.major === 0 && cur.minor === 0 && cur.patch === 0) return () => false; // ~0.0.0 accepts all
  return (c) => {
    const v = c.normalized ?? parseNormalized(c.text);
    return !(compareVersions(v, cur) >= 0 && v.major === cur.major && v.minor === cur.minor);
  };
}

const ZERO: Version = parseVersion("0.0.0");

/**
 * The highest non-preview version that no predicate drops. Starts from 0.0.0 with a strict
 * comparison, so 0.0.0 is never chosen; on ties the first in list order wins. Exported for its
 * unit test, which pins it as Gardener's GetLatestQualifyingVersion.
 */
export function latestQualifying(list: CandidateList, predicates: readonly Predicate[]): Candidate | undefined {
  let best: Candidate | undefined;
  let bestVersion = ZERO;
  for (const c of list.items) {
    const v = assertParsed(c);
    if (c.classification === "preview") continue;
    if (predicates.some((p) => p(c, v))) continue;
    if (compareVersions(v, bestVersion) > 0) {
      best = c;
      bestVersion = v;
    }
  }
  return best;
}

export type SelectFn = (list: CandidateList, cur: string) => Candidate | undefined;

function auto(list: CandidateList, cur: Version, extra: Predicate[]): Candidate | undefined {
  const base = [dropExpired, dropSame(cur), dropLower(cur), ...extra];
  return latestQualifying(list, [...base, dropDeprecated]) ?? latestQualifying(list, base);
}

/** The latest patch of the current major.minor (never expired, preview, same or lower). */
export const patchAuto: SelectFn = (list, cur) => auto(list, parseVersion(cur), [dropNotSameMinorOrLowerPatch(cur)]);

/** Finish the current minor first; otherwise the latest version of the same major. */
export const minorAuto: SelectFn = (list, cur) =>
  patchAuto(list, cur) ?? auto(list, parseVersion(cur), [dropDifferentMajor(parseVersion(cur))]);

/** Finish the current minor first; otherwise the overall latest version. */
export const overallAuto: SelectFn = (list, cur) => patchAuto(list, cur) ?? auto(list, parseVersion(cur), []);

/** Kubernetes force update: the latest patch of the next minor, preferring non-expired ones. */
export const consecutiveMinorForce: SelectFn = (list, curText) => {
  const cur = parseVersion(curText);
  const preds = [dropDifferentMajor(cur), dropNotConsecutiveMinor(cur)];
  return latestQualifying(list, [...preds, dropExpired]) ?? latestQualifying(list, preds);
};

type Key = (v: Version) => number;
const minorKey: Key = (v) => v.minor;
const majorKey: Key = (v) => v.major;

/**
 * The highest version of the lowest key group (minor or major) above the current one that
 * survives the predicates, plus the key of the next group over all versions (Gardener:
 * pkg/api/core/v1beta1/helper/cloudprofile.go, GetQualifyingVersionForNextHigher).
 */
function nextHigher(list: CandidateList, cur: Version, key: Key, preds: readonly Predicate[]) {
  const sorted = list.sortedAscending();
  const curKey = key(cur);
  let next = 0;
  let nextSet = false;
  for (const c of sorted) {
    const k = key(c.version!);
    if (k > curKey && (!nextSet || k < next)) {
      next = k;
      nextSet = true;
    }
  }
  let found: Candidate | undefined;
  for (const c of sorted) {
    const v = c.version!;
    if (c.classification === "preview") continue;
    if (preds.some((p) => p(c, v))) continue;
    if (!found) {
      found = c;
      continue;
    }
    if (key(v) !== key(found.version!)) break;
    found = c;
  }
  return { found, next };
}

function imageForce(list: CandidateList, curText: string, key: Key, preds: Predicate[]): Candidate | undefined {
  const cur = parseVersion(curText);
  const first = nextHigher(list, cur, key, [...preds, dropExpired]);
  if (first.found && key(first.found.version!) <= first.next) return first.found;
  // A group with only expired or preview versions was skipped: allow expired versions.
  return nextHigher(list, cur, key, preds).found;
}

/** Machine images with strategy `patch`: the next higher minor of the same major. */
export const nextHigherMinorForce: SelectFn = (list, cur) => {
  const v = parseVersion(cur);
  return imageForce(list, cur, minorKey, [dropDifferentMajor(v), dropMinorLE(v)]);
};

/** Machine images with strategy `minor`: the next higher major. */
export const nextHigherMajorForce: SelectFn = (list, cur) =>
  imageForce(list, cur, majorKey, [dropMajorLE(parseVersion(cur))]);

class SelectionError extends Error {}

/**
 * Gardener's DetermineVersionForStrategy: the auto target if there is one (even for expired
 * versions and with auto-update off), else nothing unless expired, else the force target.
 * Returns the CloudProfile's original version string, or "" when there is nothing to do.
 */
export function determineVersionForStrategy(
  list: CandidateList,
  cur: string,
  autoFn: SelectFn,
  forceFn: SelectFn | ((list: CandidateList, cur: string) => never),
  isExpired: boolean,
): string {
  let found: Candidate | undefined;
  try {
    found = autoFn(list, cur);
  } catch (e) {
    throw new SelectionError(`failed to determine a higher patch version for automatic update: ${messageOf(e)}`);
  }
  if (found) return found.text;
  if (!isExpired) return "";
  try {
    found = forceFn(list, cur);
  } catch (e) {
    throw new SelectionError(`failed to determine version for forceful update: ${messageOf(e)}`);
  }
  if (!found) {
    throw new SelectionError(
      `cannot perform forceful update of expired version "${cur}". No suitable version found in CloudProfile - this is most likely a misconfiguration of the CloudProfile`,
    );
  }
  return found.text;
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

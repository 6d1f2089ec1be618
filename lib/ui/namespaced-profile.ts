// What a NamespacedCloudProfile changes against its parent, for its page and the parent's list:
// each Kubernetes and machine image version it names, with the parent's classification and
// expiry beside its own (the merged ones Gardener wrote to its status, which shoots are read
// against; its spec's when Gardener has not written them yet).
import { classificationAt, expiryTime } from "../engine/classification.ts";
import type {
  CloudProfile,
  ExpirableVersion,
  NamespacedCloudProfile,
  VersionClassification,
} from "../gardener/types.ts";

export interface VersionSide {
  readonly classification: VersionClassification;
  /** Epoch ms; absent when the version does not expire. */
  readonly expiresAt?: number;
}

export interface VersionOverride {
  readonly what: string;
  readonly version: string;
  /** Absent when the parent does not offer the version (the project adds it). */
  readonly parent?: VersionSide;
  readonly own: VersionSide;
  /** "added", "extended" (expires later or never), "shortened", or "same". */
  readonly change: "added" | "extended" | "shortened" | "same";
  /** How much later (negative: earlier) it expires than in the parent, in whole days. */
  readonly days?: number;
}

const DAY_MS = 86_400_000;

function side(v: ExpirableVersion, now: number): VersionSide {
  const at = expiryTime(v);
  return {
    classification: classificationAt(v, now),
    ...(at !== undefined && Number.isFinite(at) ? { expiresAt: at } : {}),
  };
}

function compare(
  what: string,
  own: ExpirableVersion,
  parent: ExpirableVersion | undefined,
  now: number,
): VersionOverride {
  const mine = side(own, now);
  if (!parent) return { what, version: own.version, own: mine, change: "added" };
  const theirs = side(parent, now);
  const later = mine.expiresAt ?? Infinity;
  const earlier = theirs.expiresAt ?? Infinity;
  const days =
    mine.expiresAt !== undefined && theirs.expiresAt !== undefined
      ? Math.round((mine.expiresAt - theirs.expiresAt) / DAY_MS)
      : undefined;
  const change = later > earlier ? "extended" : later < earlier ? "shortened" : "same";
  return { what, version: own.version, parent: theirs, own: mine, change, ...(days !== undefined ? { days } : {}) };
}

/**
 * The versions `profile` names in its spec, compared with `parent` (undefined when the parent is
 * not known): Kubernetes first, then each machine image, in the order the spec gives them.
 */
export function namespacedOverrides(
  profile: NamespacedCloudProfile,
  parent: CloudProfile | undefined,
  now: number,
): VersionOverride[] {
  const merged = profile.status?.cloudProfileSpec;
  const find = (versions: readonly ExpirableVersion[] | undefined, version: string) =>
    versions?.find((v) => v.version === version);
  const rows: VersionOverride[] = [];
  for (const v of profile.spec.kubernetes?.versions ?? []) {
    const own = find(merged?.kubernetes.versions, v.version) ?? v;
    rows.push(compare("Kubernetes", own, find(parent?.spec.kubernetes.versions, v.version), now));
  }
  for (const image of profile.spec.machineImages ?? []) {
    const mergedImage = merged?.machineImages?.find((m) => m.name === image.name);
    const parentImage = parent?.spec.machineImages?.find((m) => m.name === image.name);
    for (const v of image.versions ?? []) {
      const own = find(mergedImage?.versions, v.version) ?? v;
      rows.push(compare(image.name, own, find(parentImage?.versions, v.version), now));
    }
  }
  return rows;
}

/** Whether Gardener has written the merged spec shoots of the profile are read against. */
export const isResolved = (profile: NamespacedCloudProfile) => profile.status?.cloudProfileSpec !== undefined;

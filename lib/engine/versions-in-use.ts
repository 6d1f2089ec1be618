// Every version a shoot runs (control plane, each pool's Kubernetes, each pool's machine image),
// with its classification and expiry from the cloud profile: what the fleet list and the
// expiry countdown show.
import type { CloudProfile, ExpirableVersion, Shoot, VersionClassification } from "../gardener/types.ts";
import { classificationAt, expiryTime } from "./classification.ts";
import { tryParseVersion } from "./version.ts";

export interface VersionInUse {
  /** "controlPlane", or the worker pool's name. */
  readonly target: string;
  readonly kind: "kubernetes" | "machineImage";
  /** "Kubernetes", or the machine image's name. */
  readonly name: string;
  readonly version: string;
  /** Absent when the cloud profile does not list the version. */
  readonly classification?: VersionClassification;
  /** epoch ms; absent when the version never expires (or is not listed). */
  readonly expiresAt?: number;
  /** The cloud profile's entry for the version, when it lists it. */
  readonly entry?: ExpirableVersion;
}

interface ProfileIndex {
  /** Kubernetes versions by major.minor.patch (the profile's entries compared as semver). */
  readonly kubernetes: Map<string, ExpirableVersion>;
  /** Image versions by lowercase image name, then exact version text. */
  readonly images: Map<string, Map<string, ExpirableVersion>>;
}

// Time-independent, so built once per profile object however often the fleet is listed.
const indexes = new WeakMap<CloudProfile, ProfileIndex>();

const semverKey = (text: string) => {
  const v = tryParseVersion(text);
  return v ? `${v.major}.${v.minor}.${v.patch}` : undefined;
};

function indexOf(profile: CloudProfile): ProfileIndex {
  let index = indexes.get(profile);
  if (!index) {
    const kubernetes = new Map<string, ExpirableVersion>();
    for (const v of profile.spec.kubernetes?.versions ?? []) {
      const key = semverKey(String(v.version));
      if (key && !kubernetes.has(key)) kubernetes.set(key, v);
    }
    const images = new Map<string, Map<string, ExpirableVersion>>();
    for (const image of profile.spec.machineImages ?? []) {
      const name = image.name.toLowerCase();
      if (images.has(name)) continue; // the first match wins, as in Gardener
      images.set(name, new Map((image.versions ?? []).map((v) => [v.version, v])));
    }
    index = { kubernetes, images };
    indexes.set(profile, index);
  }
  return index;
}

export function versionsInUse(shoot: Shoot, profile: CloudProfile | undefined, now: number): VersionInUse[] {
  const index = profile ? indexOf(profile) : undefined;
  const describe = (target: string, kind: VersionInUse["kind"], name: string, version: string): VersionInUse => {
    let entry: ExpirableVersion | undefined;
    if (index && kind === "kubernetes") {
      const key = semverKey(version);
      entry = key ? index.kubernetes.get(key) : undefined;
    } else if (index) {
      entry = index.images.get(name.toLowerCase())?.get(version);
    }
    if (!entry) return { target, kind, name, version };
    const expiresAt = expiryTime(entry);
    return {
      target,
      kind,
      name,
      version,
      entry,
      classification: classificationAt(entry, now),
      ...(expiresAt !== undefined && Number.isFinite(expiresAt) ? { expiresAt } : {}),
    };
  };
  const controlPlane = shoot.spec.kubernetes.version;
  const result = [describe("controlPlane", "kubernetes", "Kubernetes", controlPlane)];
  for (const worker of shoot.spec.provider?.workers ?? []) {
    const poolVersion = worker.kubernetes?.version;
    if (poolVersion && poolVersion !== controlPlane)
      result.push(describe(worker.name, "kubernetes", "Kubernetes", poolVersion));
    const image = worker.machine.image;
    if (image?.version) result.push(describe(worker.name, "machineImage", image.name, image.version));
  }
  return result;
}

/** The version that expires first (already expired ones included), if any expires. */
export function earliestExpiring(versions: readonly VersionInUse[]): VersionInUse | undefined {
  let first: VersionInUse | undefined;
  for (const v of versions) {
    if (v.expiresAt !== undefined && (first?.expiresAt === undefined || v.expiresAt < first.expiresAt)) first = v;
  }
  return first;
}

// Each cloud profile's versions parsed, sorted and put into expiry buckets once, because
// thousands of shoots pick versions from them and the history walks back through them.
import { classificationAt, expiryTime } from "../engine/classification.ts";
import { compareVersions, parseVersion } from "../engine/version.ts";
import type { CloudProfile, ExpirableVersion, MachineImage, MachineImageVersion } from "../gardener/types.ts";
import type { MachineKind, MachineTypeDef, ProfileDef } from "./tables.ts";
import { DAY } from "./time.ts";

/** How a version looks on the expiry countdown. */
export type ExpiryBucket = "expired" | "within7" | "within30" | "within90" | "supported" | "deprecated" | "preview";

function expiryBucket(v: ExpirableVersion, now: number): ExpiryBucket {
  const classification = classificationAt(v, now);
  if (classification === "expired") return "expired";
  if (classification === "preview") return "preview";
  const expires = expiryTime(v);
  if (expires !== undefined && Number.isFinite(expires)) {
    const left = expires - now;
    if (left <= 7 * DAY) return "within7";
    if (left <= 30 * DAY) return "within30";
    if (left <= 90 * DAY) return "within90";
  }
  return classification === "deprecated" ? "deprecated" : "supported";
}

interface CatalogueVersion {
  entry: ExpirableVersion;
  major: number;
  minor: number;
  bucket: ExpiryBucket;
}

export interface CatalogueImage {
  image: MachineImage;
  strategy: string;
  /** Ascending. */
  versions: (CatalogueVersion & { entry: MachineImageVersion })[];
  /** Per architecture: the versions a new pool may get, weighted towards supported ones. */
  choices: Map<string, (readonly [string, number])[]>;
  /**
   * The same without expired versions: what a shoot created just now may use (gardener-apiserver
   * refuses to create a shoot on an expired version).
   */
  freshChoices: Map<string, (readonly [string, number])[]>;
}

export interface Catalogue {
  /** The profile as it is now. */
  profile: CloudProfile;
  def: ProfileDef;
  /**
   * Ascending. The versions shoots are drawn on: the profile's before the recent releases (no shoot
   * was created on a version released hours ago; the history moves them there).
   */
  kubernetes: CatalogueVersion[];
  byBucket: Map<ExpiryBucket, string[]>;
  images: Map<string, CatalogueImage>;
  machineTypes: Map<MachineKind, MachineTypeDef[]>;
}

function catalogueVersions<T extends ExpirableVersion>(
  versions: readonly T[],
  now: number,
): (CatalogueVersion & { entry: T })[] {
  return versions
    .map((entry) => {
      const parsed = parseVersion(entry.version);
      return { entry, parsed, major: parsed.major, minor: parsed.minor, bucket: expiryBucket(entry, now) };
    })
    .sort((a, b) => compareVersions(a.parsed, b.parsed))
    .map(({ entry, major, minor, bucket }) => ({ entry, major, minor, bucket }));
}

export function buildCatalogue(
  profile: CloudProfile,
  def: ProfileDef,
  now: number,
  drawnFrom: CloudProfile = profile,
): Catalogue {
  const kubernetes = catalogueVersions(drawnFrom.spec.kubernetes.versions, now);
  const byBucket = new Map<ExpiryBucket, string[]>();
  for (const v of kubernetes) byBucket.set(v.bucket, [...(byBucket.get(v.bucket) ?? []), v.entry.version]);
  const images = new Map<string, CatalogueImage>();
  // Mostly supported images, a few close to or past expiry, rarely a preview.
  const weight = (b: ExpiryBucket) => (b === "preview" ? 0.3 : b === "expired" ? 0.8 : b === "supported" ? 6 : 2.5);
  for (const image of drawnFrom.spec.machineImages ?? []) {
    const versions = catalogueVersions(image.versions, now);
    const choices = new Map(
      ["amd64", "arm64"].map((arch) => [
        arch,
        versions
          .filter((v) => (v.entry.architectures ?? []).includes(arch))
          .map((v) => [v.entry.version, weight(v.bucket)] as const),
      ]),
    );
    const expired = new Set(versions.filter((v) => v.bucket === "expired").map((v) => v.entry.version));
    const freshChoices = new Map([...choices].map(([arch, list]) => [arch, list.filter(([v]) => !expired.has(v))]));
    images.set(image.name, { image, strategy: image.updateStrategy ?? "major", versions, choices, freshChoices });
  }
  const machineTypes = new Map<MachineKind, MachineTypeDef[]>();
  for (const type of def.machineTypes) machineTypes.set(type.kind, [...(machineTypes.get(type.kind) ?? []), type]);
  return { profile, def, kubernetes, byBucket, images, machineTypes };
}

/** The next lower version that an automatic update could have come from, within the strategy's scope. */
export function predecessor<T extends CatalogueVersion>(
  versions: readonly T[],
  current: string,
  scope: "patch" | "minor" | "major",
): T | undefined {
  const at = versions.findIndex((v) => v.entry.version === current);
  if (at <= 0) return undefined;
  const cur = versions[at];
  for (let i = at - 1; i >= 0; i--) {
    const v = versions[i];
    if (scope === "major") return v;
    if (v.major !== cur.major) return undefined;
    if (scope === "minor" || v.minor === cur.minor) return v;
    return undefined;
  }
  return undefined;
}

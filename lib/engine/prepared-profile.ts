// A CloudProfile parsed and classified once for a moment in time, so that maintaining thousands
// of shoots against it does not re-parse or re-sort anything per shoot.
import type { CloudProfile, MachineImage, MachineType } from "../gardener/types.ts";
import { type Candidate, CandidateList } from "./selection.ts";
import { parseNormalized } from "./version.ts";

export interface PreparedImage {
  readonly image: MachineImage;
  readonly strategy: string;
  readonly candidates: readonly Candidate[];
}

export class PreparedProfile {
  readonly profile: CloudProfile;
  readonly now: number;
  readonly kubernetes: CandidateList;
  private readonly imagesByLowerName = new Map<string, PreparedImage>();
  private readonly machineTypes = new Map<string, MachineType>();
  /** Filtered image version lists, keyed by everything the filters look at. */
  readonly filteredImageLists = new Map<string, CandidateList>();

  constructor(profile: CloudProfile, now: number) {
    this.profile = profile;
    this.now = now;
    this.kubernetes = CandidateList.of(profile.spec.kubernetes?.versions ?? [], now);
    for (const image of profile.spec.machineImages ?? []) {
      const key = image.name.toLowerCase();
      if (this.imagesByLowerName.has(key)) continue; // the first match wins, as in Gardener
      this.imagesByLowerName.set(key, {
        image,
        strategy: image.updateStrategy ?? "major",
        candidates: CandidateList.of(image.versions ?? [], now).items,
      });
    }
    for (const type of profile.spec.machineTypes ?? []) {
      if (!this.machineTypes.has(type.name)) this.machineTypes.set(type.name, type);
    }
  }

  machineType(name: string): MachineType | undefined {
    return this.machineTypes.get(name);
  }

  /** Machine images are looked up case-insensitively. */
  machineImage(name: string): PreparedImage | undefined {
    return this.imagesByLowerName.get(name.toLowerCase());
  }

  /** The profile's entry for a Kubernetes version, compared as normalised semver. */
  kubernetesVersion(version: string): Candidate | undefined {
    return this.kubernetes.remember(`exists|${version}`, () => {
      const wanted = parseNormalized(version);
      return this.kubernetes.items.find((c) => {
        const v = c.normalized;
        return v !== undefined && v.major === wanted.major && v.minor === wanted.minor && v.patch === wanted.patch;
      });
    });
  }
}

const prepared = new WeakMap<CloudProfile, Map<number, PreparedProfile>>();
const MOMENTS_KEPT = 64;

/**
 * The prepared form of a profile at `now`, reused while the same object and moment are asked
 * for. A few moments are kept per profile because forecasts step through several of them.
 */
export function prepareProfile(profile: CloudProfile, now: number): PreparedProfile {
  let byMoment = prepared.get(profile);
  if (!byMoment) {
    byMoment = new Map();
    prepared.set(profile, byMoment);
  }
  const existing = byMoment.get(now);
  if (existing) return existing;
  if (byMoment.size >= MOMENTS_KEPT) byMoment.delete(byMoment.keys().next().value!);
  const fresh = new PreparedProfile(profile, now);
  byMoment.set(now, fresh);
  return fresh;
}

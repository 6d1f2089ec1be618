// What a cloud profile offers and what the fleet runs of it: versions per classification now,
// versions expiring soon, and how many shoots (control planes and worker pools with their own
// Kubernetes version) and worker pools use each version.
import type { CloudProfileUsageAnswer } from "../api/cloud-profile-usage.ts";
import { classificationAt, expiryTime } from "../engine/classification.ts";
import { DAY_MS as DAY } from "../engine/time-units.ts";
import type { CloudProfile, ExpirableVersion, VersionClassification } from "../gardener/types.ts";

interface ExpiringVersion {
  /** "Kubernetes" or the machine image's name. */
  readonly what: string;
  readonly version: string;
  readonly expiresAt: number;
}

export interface ProfileOverview {
  readonly name: string;
  readonly providerType: string;
  readonly kubernetesVersions: number;
  readonly machineImages: number;
  readonly machineImageVersions: number;
  /** Kubernetes versions per classification now. */
  readonly kubernetesByClassification: Readonly<Record<VersionClassification, number>>;
  /** Versions (Kubernetes and images) not yet expired that expire within the horizon, soonest first. */
  readonly expiringSoon: readonly ExpiringVersion[];
  /** Versions (Kubernetes and images) already expired. */
  readonly expired: number;
}

const emptyCounts = (): Record<VersionClassification, number> => ({
  preview: 0,
  supported: 0,
  deprecated: 0,
  expired: 0,
  unavailable: 0,
});

/** The profile's versions: Kubernetes first, then each machine image's. */
function profileVersions(profile: CloudProfile): { what: string; version: ExpirableVersion }[] {
  return [
    ...(profile.spec.kubernetes?.versions ?? []).map((version) => ({ what: "Kubernetes", version })),
    ...(profile.spec.machineImages ?? []).flatMap((image) =>
      (image.versions ?? []).map((version) => ({ what: image.name, version })),
    ),
  ];
}

export function profileOverview(profile: CloudProfile, now: number, horizonDays = 30): ProfileOverview {
  const kubernetesByClassification = emptyCounts();
  for (const v of profile.spec.kubernetes?.versions ?? []) kubernetesByClassification[classificationAt(v, now)]++;
  const expiringSoon: ExpiringVersion[] = [];
  let expired = 0;
  for (const { what, version } of profileVersions(profile)) {
    const at = expiryTime(version);
    if (at === undefined || Number.isNaN(at)) continue;
    // An expiry exactly now has not happened yet (as classificationAt counts it).
    if (at < now) expired++;
    else if (at <= now + horizonDays * DAY) expiringSoon.push({ what, version: version.version, expiresAt: at });
  }
  expiringSoon.sort((a, b) => a.expiresAt - b.expiresAt);
  const images = profile.spec.machineImages ?? [];
  return {
    name: profile.metadata.name,
    providerType: profile.spec.type ?? "unknown",
    kubernetesVersions: profile.spec.kubernetes?.versions?.length ?? 0,
    machineImages: images.length,
    machineImageVersions: images.reduce((n, i) => n + (i.versions?.length ?? 0), 0),
    kubernetesByClassification,
    expiringSoon,
    expired,
  };
}

/** The little a usage count needs from a fleet-list row. */
export interface UsageRow {
  readonly kubernetes: { readonly version: string };
  readonly workers: readonly {
    readonly image?: { readonly name: string; readonly version?: string };
    /** Only for a pool that sets its own Kubernetes version. */
    readonly kubernetes?: { readonly version: string };
  }[];
}

export interface ProfileUsage {
  /**
   * Shoots using each Kubernetes version, in their control plane or in any worker pool with its
   * own version (a shoot counts once per version).
   */
  readonly kubernetes: ReadonlyMap<string, number>;
  /** Worker pools that set each Kubernetes version themselves. */
  readonly kubernetesPools: ReadonlyMap<string, number>;
  /** Worker pools per machine image and version, keyed `name@version`. */
  readonly images: ReadonlyMap<string, number>;
  /** Shoots per machine image and version (a shoot with two pools on it counts once). */
  readonly imageShoots: ReadonlyMap<string, number>;
  /**
   * The sets of Kubernetes versions shoots run (control plane and pools), each with how many
   * shoots run exactly it: for counts over several versions.
   */
  readonly kubernetesSets: readonly { readonly versions: ReadonlySet<string>; readonly shoots: number }[];
  readonly shoots: number;
}

/** The usage as GET /api/v1/cloudprofiles/{name}/usage counts it. */
export function usageFromAnswer(answer: CloudProfileUsageAnswer): ProfileUsage {
  const map = (counts: Readonly<Record<string, number>>) => new Map(Object.entries(counts));
  return {
    kubernetes: map(answer.kubernetes),
    kubernetesPools: map(answer.kubernetesPools),
    images: map(answer.images),
    imageShoots: map(answer.imageShoots),
    kubernetesSets: answer.kubernetesSets.map((s) => ({ versions: new Set(s.versions), shoots: s.shoots })),
    shoots: answer.shoots,
  };
}

export const imageKey = (name: string, version: string) => `${name.toLowerCase()}@${version}`;

export function profileUsage(rows: readonly UsageRow[]): ProfileUsage {
  const kubernetes = new Map<string, number>();
  const kubernetesPools = new Map<string, number>();
  const images = new Map<string, number>();
  const imageShoots = new Map<string, number>();
  const sets = new Map<string, { versions: ReadonlySet<string>; shoots: number }>();
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const row of rows) {
    const versions = new Set([row.kubernetes.version]);
    const seen = new Set<string>();
    for (const w of row.workers) {
      if (w.kubernetes?.version !== undefined) {
        add(kubernetesPools, w.kubernetes.version);
        versions.add(w.kubernetes.version);
      }
      if (w.image?.version === undefined) continue;
      const key = imageKey(w.image.name, w.image.version);
      add(images, key);
      if (!seen.has(key)) add(imageShoots, key);
      seen.add(key);
    }
    for (const v of versions) add(kubernetes, v);
    const key = [...versions].sort().join(" ");
    sets.set(key, { versions, shoots: (sets.get(key)?.shoots ?? 0) + 1 });
  }
  return { kubernetes, kubernetesPools, images, imageShoots, kubernetesSets: [...sets.values()], shoots: rows.length };
}

/** Shoots on any patch of a set of versions (a minor line's row), in the control plane or a pool, each once. */
export function shootsOn(usage: ProfileUsage, versions: readonly string[]): number {
  return usage.kubernetesSets.reduce((n, set) => (versions.some((v) => set.versions.has(v)) ? n + set.shoots : n), 0);
}

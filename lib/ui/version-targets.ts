// Which Kubernetes (and machine image) versions a user may update a cluster to by hand, as gardener-apiserver allows
// them: newer than the current one, offered by the cloud profile, not expired (nor not yet
// available), and never skipping a minor version. The rest of the newer minors are only named,
// so the dialog can say why they are missing. Classification follows the engine's reading of the
// profile (lifecycle, or the legacy classification and expirationDate), so the dialog and the
// server agree.
import { classificationAt, expiryTime } from "../engine/classification";
import { IN_PLACE_STRATEGIES, imageVersionUnfitReason, satisfiesConstraint } from "../engine/machine-image-maintenance";
import { compareVersions, tryParseVersion, type Version } from "../engine/version";
import type { Classification, CloudProfile, ExpirableVersion, MachineImageVersion, Worker } from "../gardener/types";

export interface VersionTarget {
  readonly version: string;
  readonly classification: Exclude<Classification, "expired">;
  /** ISO time it expires, when the profile sets one. */
  readonly expiresAt?: string;
  /** The newest supported version of its group: what Gardener would pick. */
  readonly recommended: boolean;
}

export interface UpdateTargets {
  readonly current: string;
  /** Newer patches of the current minor, newest first. */
  readonly patch: readonly VersionTarget[];
  /** Versions of the next minor ("1.32" for 1.31.x), newest first. */
  readonly nextMinor: readonly VersionTarget[];
  readonly nextMinorLine: string;
  /** Later minor lines ("1.33", "2.0") that cannot be reached in one step, ascending. */
  readonly laterLines: readonly string[];
}

/** Whether going from `from` to `to` changes the minor (or major) version. */
export function isMinorUpdate(from: string, to: string): boolean {
  const a = tryParseVersion(from);
  const b = tryParseVersion(to);
  return !!a && !!b && (a.major !== b.major || a.minor !== b.minor);
}

export function kubernetesUpdateTargets(
  versions: readonly ExpirableVersion[],
  current: string,
  now: number,
): UpdateTargets {
  const cur = tryParseVersion(current);
  const nextMinorLine = cur ? `${cur.major}.${cur.minor + 1}` : "";
  const empty: UpdateTargets = { current, patch: [], nextMinor: [], nextMinorLine, laterLines: [] };
  if (!cur) return empty;
  const newer: { parsed: Version; target: Omit<VersionTarget, "recommended"> }[] = [];
  for (const v of versions) {
    const parsed = tryParseVersion(v.version);
    if (!parsed || compareVersions(parsed, cur) <= 0) continue;
    const classification = classificationAt(v, now);
    if (classification === "expired" || classification === "unavailable") continue;
    const expiry = expiryTime(v);
    newer.push({
      parsed,
      target: {
        version: v.version,
        classification,
        ...(expiry !== undefined && Number.isFinite(expiry) ? { expiresAt: new Date(expiry).toISOString() } : {}),
      },
    });
  }
  newer.sort((a, b) => compareVersions(b.parsed, a.parsed));
  const group = (keep: (v: Version) => boolean): VersionTarget[] => {
    const items = newer.filter((n) => keep(n.parsed)).map((n) => n.target);
    const best = items.find((t) => t.classification === "supported");
    return items.map((t) => ({ ...t, recommended: t === best }));
  };
  const laterLines = [
    ...new Set(
      newer
        .filter((n) => n.parsed.major !== cur.major || n.parsed.minor > cur.minor + 1)
        .sort((a, b) => compareVersions(a.parsed, b.parsed))
        .map((n) => `${n.parsed.major}.${n.parsed.minor}`),
    ),
  ];
  return {
    current,
    patch: group((v) => v.major === cur.major && v.minor === cur.minor),
    nextMinor: group((v) => v.major === cur.major && v.minor === cur.minor + 1),
    nextMinorLine,
    laterLines,
  };
}

export interface ImageTargets {
  readonly pool: string;
  readonly image: string;
  readonly current: string;
  readonly currentClassification?: string;
  readonly currentExpiresAt?: string;
  /** Newer versions this pool can run, newest first. */
  readonly targets: readonly VersionTarget[];
  /**
   * The profile's other images the pool may switch to (every node replaced), each with the
   * versions that can run the pool, newest first; none for a pool updated in place.
   */
  readonly otherImages: readonly OtherImage[];
}

export interface OtherImage {
  readonly image: string;
  readonly targets: readonly VersionTarget[];
}

const DEFAULT_ARCHITECTURE = "amd64";
const DEFAULT_CRI = "containerd";

/** The architectures a profile's image version is built for (flavors, its own list, or amd64). */
function architecturesOf(v: MachineImageVersion): readonly string[] {
  const flavors = v.capabilityFlavors ?? [];
  if (flavors.length > 0) return flavors.flatMap((f) => f.capabilities?.architecture ?? []);
  return v.architectures && v.architectures.length > 0 ? v.architectures : [DEFAULT_ARCHITECTURE];
}

/**
 * Newer versions of a worker pool's machine image it may be updated to by hand: offered, not
 * expired, and able to run the pool (its architecture, container runtime, and kubelet version).
 * gardener-apiserver checks less (offered, not expired, no downgrade); the dialog also leaves
 * out what could not boot the pool's machines.
 */
export function machineImageTargets(
  profile: CloudProfile,
  worker: Worker,
  kubeletVersion: string,
  now: number,
): ImageTargets | undefined {
  const shootImage = worker.machine.image;
  if (!shootImage?.version) return undefined;
  const offered = (profile.spec.machineImages ?? []).find((m) => m.name === shootImage.name);
  const currentEntry = offered?.versions.find((v) => v.version === shootImage.version);
  const currentExpiry = currentEntry ? expiryTime(currentEntry) : undefined;
  const base = {
    pool: worker.name,
    image: shootImage.name,
    current: shootImage.version,
    ...(currentEntry ? { currentClassification: classificationAt(currentEntry, now) } : {}),
    ...(currentExpiry !== undefined && Number.isFinite(currentExpiry)
      ? { currentExpiresAt: new Date(currentExpiry).toISOString() }
      : {}),
  };
  const withOthers = { ...base, otherImages: otherImages(profile, worker, kubeletVersion, now) };
  const cur = tryParseVersion(shootImage.version);
  if (!offered || !cur) return { ...withOthers, targets: [] };
  const architecture = worker.machine.architecture ?? DEFAULT_ARCHITECTURE;
  const criName = worker.cri?.name ?? DEFAULT_CRI;
  const candidates: { parsed: Version; target: Omit<VersionTarget, "recommended"> }[] = [];
  for (const v of offered.versions) {
    const parsed = tryParseVersion(v.version);
    if (!parsed || compareVersions(parsed, cur) <= 0) continue;
    const classification = classificationAt(v, now);
    if (classification === "expired" || classification === "unavailable") continue;
    if (!architecturesOf(v).includes(architecture)) continue;
    const cris = v.cri && v.cri.length > 0 ? v.cri : [{ name: DEFAULT_CRI }];
    if (!cris.some((c) => c.name === criName)) continue;
    if (v.kubeletVersionConstraint && !satisfiesConstraint(kubeletVersion, v.kubeletVersionConstraint)) continue;
    const expiry = expiryTime(v);
    candidates.push({
      parsed,
      target: {
        version: v.version,
        classification,
        ...(expiry !== undefined && Number.isFinite(expiry) ? { expiresAt: new Date(expiry).toISOString() } : {}),
      },
    });
  }
  candidates.sort((a, b) => compareVersions(b.parsed, a.parsed));
  const best = candidates.find((c) => c.target.classification === "supported")?.target;
  return { ...withOthers, targets: candidates.map((c) => ({ ...c.target, recommended: c.target === best })) };
}

/** A version as a target: its classification and expiry (undefined when expired or not yet available). */
function asTarget(v: MachineImageVersion, now: number): Omit<VersionTarget, "recommended"> | undefined {
  const classification = classificationAt(v, now);
  if (classification === "expired" || classification === "unavailable") return undefined;
  const expiry = expiryTime(v);
  return {
    version: v.version,
    classification,
    ...(expiry !== undefined && Number.isFinite(expiry) ? { expiresAt: new Date(expiry).toISOString() } : {}),
  };
}

/**
 * The profile's other images a pool may be switched to, as gardener-apiserver and Almanac's
 * validation allow it: offered, not expired, and able to run the pool (the engine's reasons, the
 * same that refuse a switch). Any version qualifies: another image is no downgrade.
 */
function otherImages(profile: CloudProfile, worker: Worker, kubeletVersion: string, now: number): OtherImage[] {
  if (IN_PLACE_STRATEGIES.has(worker.updateStrategy ?? "")) return [];
  const machineType = (profile.spec.machineTypes ?? []).find((t) => t.name === worker.machine.type);
  const definitions = profile.spec.machineCapabilities ?? [];
  const images: OtherImage[] = [];
  for (const image of profile.spec.machineImages ?? []) {
    if (image.name === worker.machine.image?.name) continue;
    const candidates: { parsed: Version | undefined; target: Omit<VersionTarget, "recommended"> }[] = [];
    for (const v of image.versions) {
      const target = asTarget(v, now);
      if (!target) continue;
      if (imageVersionUnfitReason(v, worker, kubeletVersion, machineType, definitions) !== undefined) continue;
      candidates.push({ parsed: tryParseVersion(v.version), target });
    }
    if (candidates.length === 0) continue;
    candidates.sort((a, b) =>
      a.parsed && b.parsed ? compareVersions(b.parsed, a.parsed) : b.target.version.localeCompare(a.target.version),
    );
    const best = candidates.find((c) => c.target.classification === "supported")?.target;
    images.push({
      image: image.name,
      targets: candidates.map((c) => ({ ...c.target, recommended: c.target === best })),
    });
  }
  return images;
}

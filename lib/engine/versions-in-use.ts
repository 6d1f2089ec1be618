// Every version a shoot runs (control plane, each pool's Kubernetes, each pool's machine image),
// with its classification and expiry from the cloud profile: what the fleet list and the
// expiry countdown show.
import type { CloudProfile, Shoot, VersionClassification } from "../gardener/types.ts";
import { classificationAt, expiryTime } from "./classification.ts";
import { prepareProfile } from "./prepared-profile.ts";
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
}

export function versionsInUse(shoot: Shoot, profile: CloudProfile | undefined, now: number): VersionInUse[] {
  const prepared = profile ? prepareProfile(profile, now) : undefined;
  const describe = (target: string, kind: VersionInUse["kind"], name: string, version: string): VersionInUse => {
    let entry;
    if (prepared && kind === "kubernetes") {
      entry = tryParseVersion(version) ? prepared.kubernetesVersion(version)?.source : undefined;
    } else if (prepared) {
      entry = prepared.machineImage(name)?.image.versions?.find((v) => v.version === version);
    }
    if (!entry) return { target, kind, name, version };
    const expiresAt = expiryTime(entry);
    return {
      target, kind, name, version,
      classification: classificationAt(entry, now),
      ...(expiresAt !== undefined && Number.isFinite(expiresAt) ? { expiresAt } : {}),
    };
  };
  const controlPlane = shoot.spec.kubernetes.version;
  const result = [describe("controlPlane", "kubernetes", "Kubernetes", controlPlane)];
  for (const worker of shoot.spec.provider?.workers ?? []) {
    const poolVersion = worker.kubernetes?.version;
    if (poolVersion && poolVersion !== controlPlane) result.push(describe(worker.name, "kubernetes", "Kubernetes", poolVersion));
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

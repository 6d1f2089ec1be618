// A fleet-list row as the API sends it: the shoot's summary plus what depends on the moment
// (each version's classification, the next maintenance). Built when a shoot is written and
// stored as JSON text with the moment until which it stays true, so listing a page is mostly
// joining stored text; rows past that moment are rebuilt when read.
import type { CloudProfile } from "../../gardener/types.ts";
import { classificationChangeTimes } from "../../engine/classification.ts";
import { nextMaintenanceMoment } from "../../engine/maintenance-moment.ts";
import { type VersionInUse, versionsInUse } from "../../engine/versions-in-use.ts";
import { shootFromSummary, type ShootSummary } from "./shoot-columns.ts";

const iso = (ms: number) => new Date(ms).toISOString();

function versionInfo(v: VersionInUse | undefined) {
  if (!v) return {};
  return {
    ...(v.classification ? { classification: v.classification } : {}),
    ...(v.expiresAt !== undefined ? { expiresAt: iso(v.expiresAt) } : {}),
  };
}

export interface ListingInput {
  readonly summary: ShootSummary;
  readonly resourceVersion: number;
  readonly earliestExpiry: Date | null;
  readonly earliestExpiryVersion: string | null;
  /** The stored next maintenance moment, if the shoot is maintained. */
  readonly nextMaintenanceAt: Date | null;
}

export function listingItem(input: ListingInput, profile: CloudProfile | undefined, now: number) {
  const s = input.summary;
  const shoot = shootFromSummary(s);
  const versions = versionsInUse(shoot, profile, now);
  const find = (target: string, kind: VersionInUse["kind"]) => versions.find((v) => v.target === target && v.kind === kind);

  let next = input.nextMaintenanceAt?.getTime();
  // The stored moment moves when maintenance runs; until then, work the next one out.
  if (next !== undefined && next < now) next = nextMaintenanceMoment(shoot, now).at;

  return {
    namespace: s.namespace,
    name: s.name,
    uid: s.uid,
    resourceVersion: String(input.resourceVersion),
    project: s.project,
    cloudProfile: s.cloudProfile,
    seed: s.seed,
    region: s.region,
    purpose: s.purpose,
    createdAt: s.createdAt,
    statusLabel: s.statusLabel,
    hibernated: s.hibernated,
    conditions: s.conditions,
    lastOperation: s.lastOperation,
    lastErrorCodes: s.lastErrorCodes,
    kubernetes: { version: s.kubernetesVersion, ...versionInfo(find("controlPlane", "kubernetes")) },
    workers: s.workers.map((w) => ({
      name: w.name,
      machineType: w.machineType,
      ...(w.image ? { image: { ...w.image, ...versionInfo(find(w.name, "machineImage")) } } : {}),
      ...(w.kubernetesVersion ? { kubernetes: { version: w.kubernetesVersion, ...versionInfo(find(w.name, "kubernetes")) } } : {}),
      ...(w.minimum !== undefined ? { minimum: w.minimum } : {}),
      ...(w.maximum !== undefined ? { maximum: w.maximum } : {}),
    })),
    earliestExpiry: input.earliestExpiry ? { at: input.earliestExpiry.toISOString(), version: input.earliestExpiryVersion } : null,
    nextMaintenance: next !== undefined ? { at: iso(next) } : null,
    maintenance: s.maintenance,
  };
}

export type ListingItem = ReturnType<typeof listingItem>;

/**
 * Until when a listing built at `now` stays true: the next change of classification of any
 * version the shoot uses, or the next maintenance moment, whichever comes first.
 */
export function listingValidUntil(input: ListingInput, profile: CloudProfile | undefined, now: number): number {
  let until = input.nextMaintenanceAt?.getTime() ?? Number.POSITIVE_INFINITY;
  for (const used of versionsInUse(shootFromSummary(input.summary), profile, now)) {
    const change = used.entry ? classificationChangeTimes(used.entry).find((t) => t > now) : undefined;
    if (change !== undefined && change < until) until = change;
  }
  return until;
}

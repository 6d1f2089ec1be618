// A fleet-list row as the API sends it: the stored summary plus what depends on today (each
// version's classification, whether the next maintenance moment has passed).
import type { CloudProfile } from "../gardener/types.ts";
import { nextMaintenanceMoment } from "../engine/maintenance-moment.ts";
import { type VersionInUse, versionsInUse } from "../engine/versions-in-use.ts";
import { shootFromSummary } from "../garden/embedded/shoot-columns.ts";
import type { ShootListRow } from "../garden/embedded/shoots.ts";

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function versionInfo(v: VersionInUse | undefined) {
  if (!v) return {};
  return {
    ...(v.classification ? { classification: v.classification } : {}),
    ...(v.expiresAt !== undefined ? { expiresAt: iso(v.expiresAt) } : {}),
  };
}

export function shootListItem(row: ShootListRow, profile: CloudProfile | undefined, now: number) {
  const s = row.summary;
  const shoot = shootFromSummary(s);
  const versions = versionsInUse(shoot, profile, now);
  const find = (target: string, kind: VersionInUse["kind"]) => versions.find((v) => v.target === target && v.kind === kind);
  const controlPlane = find("controlPlane", "kubernetes");

  let next = row.nextMaintenanceAt?.getTime();
  // The stored moment is refreshed when maintenance runs; until then, work it out.
  if (next === undefined || next < now) next = nextMaintenanceMoment(shoot, now).at;

  return {
    namespace: s.namespace,
    name: s.name,
    uid: s.uid,
    resourceVersion: String(row.resourceVersion),
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
    kubernetes: { version: s.kubernetesVersion, ...versionInfo(controlPlane) },
    workers: s.workers.map((w) => ({
      name: w.name,
      machineType: w.machineType,
      ...(w.image ? { image: { ...w.image, ...versionInfo(find(w.name, "machineImage")) } } : {}),
      ...(w.kubernetesVersion ? { kubernetes: { version: w.kubernetesVersion, ...versionInfo(find(w.name, "kubernetes")) } } : {}),
      ...(w.minimum !== undefined ? { minimum: w.minimum } : {}),
      ...(w.maximum !== undefined ? { maximum: w.maximum } : {}),
    })),
    earliestExpiry: row.earliestExpiry ? { at: row.earliestExpiry.toISOString(), version: row.earliestExpiryVersion } : null,
    nextMaintenance: { at: new Date(next).toISOString() },
    maintenance: s.maintenance,
  };
}

export type ShootListItem = ReturnType<typeof shootListItem>;

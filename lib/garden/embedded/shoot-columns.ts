// The columns derived from a shoot document on every write: what the fleet list filters, sorts
// and shows without reading whole documents. Time-dependent facts (a version's classification
// today) are not stored; they are computed when read (lib/server/shoot-list-item.ts).
import { cloudProfileNameOf, type CloudProfile, type Shoot } from "../../gardener/types.ts";
import { nextMaintenanceMoment } from "../../engine/maintenance-moment.ts";
import { autoUpdateFlags } from "../../engine/maintain.ts";
import { shootStatusLabel, type ShootStatusLabel } from "../../engine/status-label.ts";
import { earliestExpiring, versionsInUse } from "../../engine/versions-in-use.ts";
import { tryParseVersion } from "../../engine/version.ts";
import { listingItem, listingValidUntil } from "./shoot-listing.ts";

/** The stored, time-independent part of a fleet-list row. */
export interface ShootSummary {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly project: string;
  readonly cloudProfile: string;
  readonly seed: string | null;
  readonly region: string | null;
  readonly purpose: string | null;
  readonly createdAt: string | null;
  readonly statusLabel: ShootStatusLabel;
  readonly hibernated: boolean;
  readonly conditions: { type: string; status: string; reason?: string }[];
  readonly lastOperation: { type: string; state: string; progress?: number; description?: string; lastUpdateTime?: string } | null;
  readonly lastErrorCodes: string[];
  readonly kubernetesVersion: string;
  readonly workers: { name: string; machineType: string; image?: { name: string; version?: string }; kubernetesVersion?: string; minimum?: number; maximum?: number }[];
  readonly maintenance: {
    timeWindow: { begin: string; end: string } | null;
    autoUpdate: { kubernetesVersion: boolean; machineImageVersion: boolean };
    confineSpecUpdateRollout: boolean;
  };
}

export interface ShootColumns {
  project: string;
  cloudProfile: string;
  seed: string | null;
  kubernetesVersion: string;
  kubernetesVersionKey: string;
  statusLabel: string;
  statusRank: number;
  hibernated: boolean;
  /** NEVER when nothing expires. */
  earliestExpiry: Date;
  earliestExpiryVersion: string | null;
  /** NEVER when the shoot is not maintained. */
  nextMaintenanceAt: Date;
  searchText: string;
  summary: ShootSummary;
  /** The fleet-list row as JSON text (lib/garden/embedded/shoot-listing.ts), true until listingValidUntil. */
  listing: string;
  listingValidUntil: Date;
}

/** Stands for "no such time" in the time columns, so they sort and page without NULLs. */
export const NEVER = new Date("9999-12-31T00:00:00.000Z");

export const STATUS_RANK: Record<ShootStatusLabel, number> = { unhealthy: 0, unknown: 1, progressing: 2, healthy: 3 };

/** "garden-payments" -> "payments"; Gardener's own "garden" namespace belongs to project "garden". */
export function projectOfNamespace(namespace: string): string {
  return namespace.startsWith("garden-") ? namespace.slice("garden-".length) : namespace;
}

/** "1.30.4" -> "0001.0030.0004": text order is then version order; unparsable sorts last. */
export function versionSortKey(version: string): string {
  const v = tryParseVersion(version);
  if (!v) return `9999.${version}`;
  const pad = (n: number) => String(Math.min(n, 9999)).padStart(4, "0");
  return `${pad(v.major)}.${pad(v.minor)}.${pad(v.patch)}`;
}

export function summarize(shoot: Shoot): ShootSummary {
  const namespace = shoot.metadata.namespace ?? "";
  const status = shoot.status ?? {};
  const op = status.lastOperation;
  const tw = shoot.spec.maintenance?.timeWindow;
  return {
    namespace,
    name: shoot.metadata.name,
    uid: shoot.metadata.uid ?? "",
    project: projectOfNamespace(namespace),
    cloudProfile: cloudProfileNameOf(shoot) ?? "",
    seed: status.seedName ?? shoot.spec.seedName ?? null,
    region: shoot.spec.region ?? null,
    purpose: shoot.spec.purpose ?? null,
    createdAt: shoot.metadata.creationTimestamp ?? null,
    statusLabel: shootStatusLabel(shoot),
    hibernated: shoot.spec.hibernation?.enabled === true,
    conditions: (status.conditions ?? []).map((c) => ({ type: c.type, status: c.status, ...(c.reason ? { reason: c.reason } : {}) })),
    lastOperation: op
      ? { type: op.type, state: op.state, ...(op.progress !== undefined ? { progress: op.progress } : {}), ...(op.description ? { description: op.description } : {}), ...(op.lastUpdateTime ? { lastUpdateTime: op.lastUpdateTime } : {}) }
      : null,
    lastErrorCodes: [...new Set((status.lastErrors ?? []).flatMap((e) => e.codes ?? []))],
    kubernetesVersion: shoot.spec.kubernetes.version,
    workers: (shoot.spec.provider?.workers ?? []).map((w) => ({
      name: w.name,
      machineType: w.machine.type,
      ...(w.machine.image ? { image: { name: w.machine.image.name, ...(w.machine.image.version ? { version: w.machine.image.version } : {}) } } : {}),
      ...(w.kubernetes?.version ? { kubernetesVersion: w.kubernetes.version } : {}),
      ...(w.minimum !== undefined ? { minimum: w.minimum } : {}),
      ...(w.maximum !== undefined ? { maximum: w.maximum } : {}),
    })),
    maintenance: {
      timeWindow: tw ? { begin: tw.begin, end: tw.end } : null,
      autoUpdate: autoUpdateFlags(shoot.spec),
      confineSpecUpdateRollout: shoot.spec.maintenance?.confineSpecUpdateRollout === true,
    },
  };
}

/** A shoot rebuilt from its summary, enough for versionsInUse and nextMaintenanceMoment. */
export function shootFromSummary(s: ShootSummary): Shoot {
  return {
    metadata: { name: s.name, namespace: s.namespace, uid: s.uid },
    spec: {
      kubernetes: { version: s.kubernetesVersion },
      provider: {
        workers: s.workers.map((w) => ({
          name: w.name,
          machine: { type: w.machineType, ...(w.image ? { image: w.image } : {}) },
          ...(w.kubernetesVersion ? { kubernetes: { version: w.kubernetesVersion } } : {}),
        })),
      },
      ...(s.maintenance.timeWindow ? { maintenance: { timeWindow: s.maintenance.timeWindow } } : {}),
    },
  };
}

/** The columns for `shoot` as written with `resourceVersion` at `now`. */
export function shootColumns(shoot: Shoot, profile: CloudProfile | undefined, now: number, resourceVersion: number): ShootColumns {
  const summary = summarize(shoot);
  const first = earliestExpiring(versionsInUse(shoot, profile, now));
  const earliestExpiry = first?.expiresAt !== undefined ? new Date(first.expiresAt) : null;
  const nextMaintenanceAt = shoot.metadata.deletionTimestamp ? null : new Date(nextMaintenanceMoment(shoot, now).at);
  const listingInput = { summary, resourceVersion, earliestExpiry, earliestExpiryVersion: first ? `${first.name} ${first.version}` : null, nextMaintenanceAt };
  const validUntil = listingValidUntil(listingInput, profile, now);
  const workerText = summary.workers.map((w) => `${w.name} ${w.image?.name ?? ""} ${w.image?.version ?? ""}`).join(" ");
  return {
    project: summary.project,
    cloudProfile: summary.cloudProfile,
    seed: summary.seed,
    kubernetesVersion: summary.kubernetesVersion,
    kubernetesVersionKey: versionSortKey(summary.kubernetesVersion),
    statusLabel: summary.statusLabel,
    statusRank: STATUS_RANK[summary.statusLabel],
    hibernated: summary.hibernated,
    earliestExpiry: earliestExpiry ?? NEVER,
    earliestExpiryVersion: listingInput.earliestExpiryVersion,
    // Gardener maintains hibernated shoots too; only deletion stops it.
    nextMaintenanceAt: nextMaintenanceAt ?? NEVER,
    searchText: [summary.namespace, summary.name, summary.project, summary.cloudProfile, summary.seed ?? "",
      summary.region ?? "", summary.purpose ?? "", summary.kubernetesVersion, workerText, summary.hibernated ? "hibernated" : ""]
      .join(" ").toLowerCase(),
    summary,
    listing: JSON.stringify(listingItem(listingInput, profile, now)),
    listingValidUntil: Number.isFinite(validUntil) ? new Date(validUntil) : NEVER,
  };
}

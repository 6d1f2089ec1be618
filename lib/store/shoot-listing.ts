// A fleet-list row as the API sends it: the shoot's summary plus each version's classification
// and expiry. Built when a shoot is written and stored as JSON text with the moment until which
// its classifications hold, so listing a page is mostly joining stored text; rows past that
// moment are rebuilt when read. The next maintenance moment moves every day, so it is added to
// the text when read, from the shoot's maintenance second of the day.
import type { ShootListing, ShootRow, VersionState } from "../api/shoot-list.ts";
import type { CloudProfile } from "../gardener/types.ts";
import { classificationChangeTimes } from "../engine/classification.ts";
import { nextAtSecondOfDay } from "../engine/maintenance-moment.ts";
import { type VersionInUse, versionsInUse } from "../engine/versions-in-use.ts";
import { nextHibernationMoments } from "../engine/hibernation-schedule.ts";
import { nextScheduledMoment } from "../engine/scheduled-hibernation.ts";
import { shootFromSummary, type ShootSummary } from "./shoot-summary.ts";

const iso = (ms: number) => new Date(ms).toISOString();

function versionInfo(v: VersionInUse | undefined): Omit<VersionState, "version"> {
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
}

/** The row's hibernation: enabled, and the schedules' next moments from `now`. */
function hibernationOf(s: ShootSummary, now: number): NonNullable<ShootRow["hibernation"]> {
  const { hibernateAt, wakeAt } = nextHibernationMoments(s.hibernationSchedules ?? [], new Date(now));
  return {
    enabled: s.hibernated,
    ...(hibernateAt ? { hibernateAt: hibernateAt.toISOString() } : {}),
    ...(wakeAt ? { wakeAt: wakeAt.toISOString() } : {}),
  };
}

export function listingItem(input: ListingInput, profile: CloudProfile | undefined, now: number): ShootListing {
  const s = input.summary;
  const shoot = shootFromSummary(s);
  const versions = versionsInUse(shoot, profile, now);
  const find = (target: string, kind: VersionInUse["kind"]) =>
    versions.find((v) => v.target === target && v.kind === kind);

  return {
    namespace: s.namespace,
    name: s.name,
    uid: s.uid,
    resourceVersion: String(input.resourceVersion),
    project: s.project,
    cloudProfile: s.cloudProfile,
    ...(s.namespacedCloudProfile ? { namespacedCloudProfile: s.namespacedCloudProfile } : {}),
    seed: s.seed,
    region: s.region,
    purpose: s.purpose,
    createdAt: s.createdAt,
    statusLabel: s.statusLabel,
    hibernated: s.hibernated,
    ...(s.hibernationSchedules ? { hibernation: hibernationOf(s, now) } : {}),
    conditions: s.conditions,
    lastOperation: s.lastOperation,
    lastErrorCodes: s.lastErrorCodes,
    kubernetes: { version: s.kubernetesVersion, ...versionInfo(find("controlPlane", "kubernetes")) },
    workers: s.workers.map((w) => ({
      name: w.name,
      machineType: w.machineType,
      ...(w.image ? { image: { ...w.image, ...versionInfo(find(w.name, "machineImage")) } } : {}),
      ...(w.kubernetesVersion
        ? { kubernetes: { version: w.kubernetesVersion, ...versionInfo(find(w.name, "kubernetes")) } }
        : {}),
      ...(w.minimum !== undefined ? { minimum: w.minimum } : {}),
      ...(w.maximum !== undefined ? { maximum: w.maximum } : {}),
    })),
    rolloutPending: s.rolloutPending ?? false,
    // Summaries stored before the risk was part of them have none.
    updateRisk: s.updateRisk ?? null,
    // Summaries stored before running versions were recorded have none.
    rollout: s.rollout ?? null,
    earliestExpiry: input.earliestExpiry
      ? { at: input.earliestExpiry.toISOString(), version: input.earliestExpiryVersion }
      : null,
    maintenance: s.maintenance,
  };
}

/**
 * Adds `"nextMaintenance":{"at":...}` (or null for a shoot that is not maintained) to a stored
 * row's JSON text, without parsing it.
 */
export function withNextMaintenance(listing: string, secondOfDay: number | null, now: number): string {
  const next: ShootRow["nextMaintenance"] =
    secondOfDay === null ? null : { at: iso(nextAtSecondOfDay(secondOfDay, now)) };
  return `${listing.slice(0, -1)},"nextMaintenance":${JSON.stringify(next)}}`;
}

/**
 * The span in which a listing built at `now` is true: from the last classification change of a
 * version it uses (at or before now) until the next one, and no later than the next moment of
 * the shoot's hibernation schedules. Infinite ends when there is none.
 */
export function listingValidity(
  input: ListingInput,
  profile: CloudProfile | undefined,
  now: number,
): { from: number; until: number } {
  let from = Number.NEGATIVE_INFINITY;
  let until = Number.POSITIVE_INFINITY;
  for (const used of versionsInUse(shootFromSummary(input.summary), profile, now)) {
    for (const change of used.entry ? classificationChangeTimes(used.entry) : []) {
      if (change < now && change > from) from = change;
      if (change >= now && change < until) until = change;
    }
  }
  // The next hibernation moments hold until the next of them, counted from now.
  if (input.summary.hibernationSchedules) {
    from = Math.max(from, now - 1);
    const next = nextScheduledMoment(input.summary.hibernationSchedules, now - 1);
    if (next && next.getTime() < until) until = next.getTime();
  }
  return { from, until };
}

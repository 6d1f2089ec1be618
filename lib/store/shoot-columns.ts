// The columns derived from a shoot document on every write: what the fleet list filters, sorts
// and shows without reading whole documents. The stored list row holds classifications of the
// moment it was written and says until when they hold (shoot-listing.ts).
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { maintenanceSecondOfDay } from "../engine/maintenance-moment.ts";
import { STATUS_RANK } from "../engine/status-label.ts";
import { DAY_SECONDS } from "../engine/time-units.ts";
import { earliestExpiring, versionsInUse } from "../engine/versions-in-use.ts";
import { tryParseVersion } from "../engine/version.ts";
import { nextRunningVersions, type RunningVersions } from "../engine/running-versions.ts";
import { listingItem, listingValidity } from "./shoot-listing.ts";
import { type ShootSummary, summarize } from "./shoot-summary.ts";

export interface ShootColumns {
  project: string;
  /** The CloudProfile the shoot rests on (a NamespacedCloudProfile's parent; "" while unknown). */
  cloudProfile: string;
  /** The NamespacedCloudProfile the shoot names (in its namespace), or null. */
  namespacedCloudProfile: string | null;
  seed: string | null;
  kubernetesVersion: string;
  kubernetesVersionKey: string;
  statusLabel: string;
  statusRank: number;
  hibernated: boolean;
  /** NEVER when nothing expires. */
  earliestExpiry: Date;
  earliestExpiryVersion: string | null;
  /** NOT_MAINTAINED for a shoot being deleted. */
  maintenanceSecondOfDay: number;
  searchText: string;
  summary: ShootSummary;
  /** The fleet-list row as JSON text, true from listingValidFrom until listingValidUntil. */
  listing: string;
  listingValidFrom: Date;
  listingValidUntil: Date;
  /** What the cluster runs (running-versions.ts); null while no rollout was seen succeed. */
  runningVersions: RunningVersions | null;
}

/** Stands for "no such time" in the time columns, so they sort and page without NULLs. */
export const NEVER = new Date("9999-12-31T00:00:00.000Z");

/** Stands for "since always" in listing_valid_from. */
const ALWAYS = new Date("0001-01-01T00:00:00.000Z");

/** The span as stored; both ends inclusive (a stage starts to apply just after its start time). */
export function validityColumns(validity: { from: number; until: number }): {
  listingValidFrom: Date;
  listingValidUntil: Date;
} {
  return {
    listingValidFrom: Number.isFinite(validity.from) ? new Date(validity.from + 1) : ALWAYS,
    listingValidUntil: Number.isFinite(validity.until) ? new Date(validity.until) : NEVER,
  };
}

/** maintenance_second_of_day of a shoot that is not maintained (being deleted): sorts last. */
export const NOT_MAINTAINED = DAY_SECONDS;

/** "1.30.4" -> "0001.0030.0004": text order is then version order; unparsable sorts last. */
function versionSortKey(version: string): string {
  const v = tryParseVersion(version);
  if (!v) return `9999.${version}`;
  const pad = (n: number) => String(Math.min(n, 9999)).padStart(4, "0");
  return `${pad(v.major)}.${pad(v.minor)}.${pad(v.patch)}`;
}

/**
 * The columns for `shoot` as written with `resourceVersion` at `now`. `running` is the record of
 * running versions the row held before (undefined for a new row): every write passes it, so that
 * both gardens keep it by the same rule. `rolledOut`: what a simulated reconcile started with
 * (running-versions.ts, nextRunningVersions).
 */
export function shootColumns(
  shoot: Shoot,
  profile: CloudProfile | undefined,
  now: number,
  resourceVersion: number,
  running: RunningVersions | undefined,
  rolledOut?: Omit<RunningVersions, "since">,
): ShootColumns {
  const runningVersions = nextRunningVersions(running, shoot, rolledOut);
  const summary = summarize(shoot, runningVersions, profile);
  const first = earliestExpiring(versionsInUse(shoot, profile, now));
  const earliestExpiry = first?.expiresAt !== undefined ? new Date(first.expiresAt) : null;
  const listingInput = {
    summary,
    resourceVersion,
    earliestExpiry,
    earliestExpiryVersion: first ? `${first.name} ${first.version}` : null,
  };
  const validity = listingValidity(listingInput, profile, now);
  const workerText = summary.workers.map((w) => `${w.name} ${w.image?.name ?? ""} ${w.image?.version ?? ""}`).join(" ");
  return {
    project: summary.project,
    cloudProfile: summary.cloudProfile,
    namespacedCloudProfile: summary.namespacedCloudProfile ?? null,
    seed: summary.seed,
    kubernetesVersion: summary.kubernetesVersion,
    kubernetesVersionKey: versionSortKey(summary.kubernetesVersion),
    statusLabel: summary.statusLabel,
    statusRank: STATUS_RANK[summary.statusLabel],
    hibernated: summary.hibernated,
    earliestExpiry: earliestExpiry ?? NEVER,
    earliestExpiryVersion: listingInput.earliestExpiryVersion,
    // Gardener maintains hibernated shoots too; only deletion stops it.
    maintenanceSecondOfDay: shoot.metadata.deletionTimestamp ? NOT_MAINTAINED : maintenanceSecondOfDay(shoot),
    searchText: [
      summary.namespace,
      summary.name,
      summary.project,
      summary.cloudProfile,
      summary.namespacedCloudProfile ?? "",
      summary.seed ?? "",
      summary.region ?? "",
      summary.purpose ?? "",
      summary.kubernetesVersion,
      workerText,
      summary.hibernated ? "hibernated" : "",
    ]
      .join(" ")
      .toLowerCase(),
    summary,
    listing: JSON.stringify(listingItem(listingInput, profile, now)),
    ...validityColumns(validity),
    runningVersions: runningVersions ?? null,
  };
}

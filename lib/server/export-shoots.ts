// GET /api/v1/shoots/export?format=csv|json&<the list's filters and sort>: every shoot the filters
// select, in the list's order, for what the caller may read (the same scope as the list). Rows are
// read a page at a time along the list's index, and written as each page arrives.
import type { ShootRow } from "../api/shoot-list.ts";
import type { Db } from "../db/client.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import type { z } from "zod";
import type { exportShootsParams } from "../api/operations/shoots.ts";
import { type CsvColumn, csvHeader, csvRow } from "./csv.ts";
import { type Export, fileDay } from "./export-file.ts";
import { type FleetScope, refuseUnreadable, scopedNamespaces } from "./fleet-scope.ts";
import { readShootPage, shootFilterOf } from "./list-shoots.ts";

/** Rows read per query: large enough that 10,000 shoots take twenty. */
export const EXPORT_PAGE = 500;

const versionText = (v: { version?: string; classification?: string } | undefined) =>
  v?.version === undefined ? "" : `${v.version}${v.classification ? ` (${v.classification})` : ""}`;

export const SHOOT_COLUMNS: readonly CsvColumn<ShootRow>[] = [
  { header: "namespace", value: (r) => r.namespace },
  { header: "name", value: (r) => r.name },
  { header: "project", value: (r) => r.project },
  { header: "status", value: (r) => r.statusLabel },
  { header: "hibernated", value: (r) => r.hibernated },
  { header: "kubernetes_version", value: (r) => r.kubernetes.version },
  { header: "kubernetes_classification", value: (r) => r.kubernetes.classification },
  { header: "kubernetes_expires_at", value: (r) => r.kubernetes.expiresAt },
  { header: "rollout_pending", value: (r) => r.rolloutPending },
  // kubernetes_version is what the spec asks; this is what the cluster runs (its last rollout).
  {
    header: "kubernetes_running_version",
    value: (r) =>
      r.rollout?.changes.find((c) => c.target === "controlPlane" && c.kind === "kubernetes")?.running ??
      r.kubernetes.version,
  },
  {
    header: "versions_not_rolled_out",
    value: (r) =>
      (r.rollout?.changes ?? [])
        .map(
          (c) => `${c.target === "controlPlane" ? "control plane" : c.target}: ${c.subject} ${c.running} -> ${c.asked}`,
        )
        .join("; "),
  },
  { header: "rollout_when", value: (r) => r.rollout?.when },
  { header: "earliest_expiry_at", value: (r) => r.earliestExpiry?.at },
  { header: "earliest_expiry_version", value: (r) => r.earliestExpiry?.version },
  { header: "cloud_profile", value: (r) => r.cloudProfile },
  { header: "region", value: (r) => r.region },
  { header: "seed", value: (r) => r.seed },
  { header: "purpose", value: (r) => r.purpose },
  {
    header: "workers",
    value: (r) =>
      r.workers
        .map((w) =>
          [
            `${w.name}: ${w.machineType}`,
            w.image ? `${w.image.name} ${versionText(w.image)}`.trim() : "",
            w.kubernetes ? `Kubernetes ${versionText(w.kubernetes)}` : "",
          ]
            .filter(Boolean)
            .join(", "),
        )
        .join("; "),
  },
  { header: "maintenance_window_begin", value: (r) => r.maintenance.timeWindow?.begin },
  { header: "maintenance_window_end", value: (r) => r.maintenance.timeWindow?.end },
  { header: "auto_update_kubernetes", value: (r) => r.maintenance.autoUpdate.kubernetesVersion },
  { header: "auto_update_machine_image", value: (r) => r.maintenance.autoUpdate.machineImageVersion },
  { header: "confine_spec_update_rollout", value: (r) => r.maintenance.confineSpecUpdateRollout },
  { header: "next_maintenance_at", value: (r) => r.nextMaintenance?.at },
  {
    header: "last_operation",
    value: (r) => (r.lastOperation ? `${r.lastOperation.type} ${r.lastOperation.state}` : ""),
  },
  { header: "last_operation_progress", value: (r) => r.lastOperation?.progress },
  { header: "last_error_codes", value: (r) => r.lastErrorCodes.join(" ") },
  { header: "created_at", value: (r) => r.createdAt },
  { header: "uid", value: (r) => r.uid },
];

/**
 * Checks the query and the caller's scope and reads the first page (so a refusal or a bad value
 * is still a problem, not a broken download); the rest is read as the file is written.
 */
export async function exportShoots(
  db: Db,
  query: z.output<typeof exportShootsParams>,
  scope: FleetScope,
  now: number,
): Promise<Export> {
  const { format, ...params } = query;
  await refuseUnreadable(db, scope, params);
  const profiles = await cachedCloudProfiles(db, now);
  const filter = shootFilterOf(params, profiles, now, scopedNamespaces(scope));
  const read = (cursor?: string) =>
    readShootPage(db, { sort: params.sort, limit: EXPORT_PAGE, cursor }, filter, profiles, now);
  const first = await read();
  async function* pieces() {
    let page = first;
    let written = 0;
    yield format === "csv" ? csvHeader(SHOOT_COLUMNS) : "[";
    for (;;) {
      if (format === "csv") {
        yield page.items.map((item) => csvRow(SHOOT_COLUMNS, JSON.parse(item) as ShootRow)).join("");
      } else if (page.items.length > 0) {
        yield `${written > 0 ? "," : ""}\n${page.items.join(",\n")}`;
      }
      written += page.items.length;
      if (page.nextCursor === null) break;
      page = await read(page.nextCursor);
    }
    if (format === "json") yield "\n]\n";
  }
  return { filename: `almanac-shoots-${fileDay(now)}.${format}`, format, pieces: pieces() };
}

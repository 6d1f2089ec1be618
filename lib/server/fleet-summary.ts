// GET /api/v1/shoots/summary: the fleet page's tiles for the list's filters. Each tile counts
// what clicking it selects: `byStatus` replaces the status filter with each label (keeping the
// expiry filter), `expiringWithinDays` replaces the expiry filter with 7 and 30 days (keeping the
// status filter); `total` is what the other filters select, `statusTotal` and `expiryTotal` what
// each group of tiles counts out of (the other group's filter kept), so that no tile reads
// "3 of 64" while a 22-row expiry filter is active.
import type { z } from "zod";
import type { summaryParams } from "../api/operations/shoots.ts";
import type { FleetSummary } from "../api/shoot-list.ts";
import type { Db } from "../db/client.ts";
import { DAY_MS } from "../engine/time-units.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import { countFleet } from "../store/shoot-page.ts";
import { type FleetScope, refuseUnreadable, scopedNamespaces } from "./fleet-scope.ts";
import { shootFilterOf } from "./list-shoots.ts";

/** The expiry horizons of the tiles, in days. */
const EXPIRY_HORIZONS = [7, 30] as const;

/** The tiles for what `scope` may read: the counts include no shoot the list would not show it. */
export async function fleetSummary(
  db: Db,
  params: z.output<typeof summaryParams>,
  scope: FleetScope,
  now: number,
): Promise<FleetSummary> {
  const { status, expiringWithinDays, ...others } = params;
  await refuseUnreadable(db, scope, others);
  const profiles = await cachedCloudProfiles(db, now);
  const counts = await countFleet(
    db,
    shootFilterOf(others, profiles, now, scopedNamespaces(scope)),
    {
      statusLabels: status,
      expiringBefore: expiringWithinDays === undefined ? undefined : new Date(now + expiringWithinDays * DAY_MS),
    },
    EXPIRY_HORIZONS.map((d) => new Date(now + d * DAY_MS)),
  );
  return {
    total: counts.total,
    statusTotal: counts.statusTotal,
    expiryTotal: counts.expiryTotal,
    byStatus: counts.byStatus,
    expiringWithinDays: Object.fromEntries(EXPIRY_HORIZONS.map((d, i) => [String(d), counts.expiringBefore[i]])),
  };
}

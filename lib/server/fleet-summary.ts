// GET /api/v1/shoots/summary: the fleet page's tiles (shoots per status label, and shoots with a
// version expiring within 7 and 30 days) for the same filters as the list, except the status,
// so that the tiles keep showing what clicking them would select.
import type { Db } from "../db/client.ts";
import { cachedCloudProfiles } from "../garden/embedded/cloud-profiles.ts";
import { countFleet } from "../garden/embedded/shoot-page.ts";
import { parseQuery } from "../http/parse-query.ts";
import { listShootsParams, shootFilterOf } from "./list-shoots.ts";

const summaryParams = listShootsParams.omit({ sort: true, limit: true, cursor: true, status: true });

/** The expiry horizons of the tiles, in days. */
export const EXPIRY_HORIZONS = [7, 30] as const;

export async function fleetSummary(db: Db, search: URLSearchParams, now: number) {
  const params = parseQuery(summaryParams, search);
  const profiles = await cachedCloudProfiles(db, now);
  const counts = await countFleet(db, shootFilterOf(params, profiles, now), EXPIRY_HORIZONS.map((d) => new Date(now + d * 86_400_000)));
  return {
    total: counts.total,
    byStatus: counts.byStatus,
    expiringWithinDays: Object.fromEntries(EXPIRY_HORIZONS.map((d, i) => [String(d), counts.expiringBefore[i]])),
  };
}

// The fleet page's tiles from shoot_tile_counts, which the database keeps per namespace, status
// label and earliest expiry moment as shoots are written (its triggers, migration
// 20261127154645_shoot_tile_counts): a sum over a few hundred rows however many shoots there are,
// and exactly what counting the shoots would say in the same snapshot. The expiry tiles move with
// the clock, so they are sums over the moments before each horizon, not counts kept per horizon.
import { Prisma } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";
import { SHOOT_STATUS_LABELS, type ShootStatusLabel } from "../engine/status-label.ts";
import type { FleetCounts } from "./shoot-page.ts";

export interface TileCount {
  readonly statusLabel: string;
  readonly earliestExpiry: Date;
  readonly shoots: number;
}

/** Shoots per status label and earliest expiry in `namespaces` (every namespace when undefined). */
export async function tileCountsIn(db: Queryable, namespaces: readonly string[] | undefined): Promise<TileCount[]> {
  const rows = await rawQuery<{ status_label: string; earliest_expiry: Date; shoots: number }>(
    db,
    Prisma.sql`SELECT status_label, earliest_expiry, sum(shoots)::int AS shoots FROM shoot_tile_counts ${
      namespaces === undefined ? Prisma.empty : Prisma.sql`WHERE namespace = ANY(${[...namespaces]}::text[])`
    } GROUP BY status_label, earliest_expiry`,
  );
  return rows.map((r) => ({ statusLabel: r.status_label, earliestExpiry: r.earliest_expiry, shoots: r.shoots }));
}

/**
 * The shoots in `namespaces` (every namespace when undefined) with one of `statusLabels` (any when
 * none) and expiring by `expiringBefore`, as a scalar subquery over the kept counts.
 */
export function tileCountSql(
  namespaces: readonly string[] | undefined,
  filter: { statusLabels?: readonly string[]; expiringBefore?: Date },
): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  if (namespaces !== undefined) conditions.push(Prisma.sql`namespace = ANY(${[...namespaces]}::text[])`);
  if (filter.statusLabels?.length) conditions.push(Prisma.sql`status_label = ANY(${[...filter.statusLabels]}::text[])`);
  if (filter.expiringBefore !== undefined) conditions.push(Prisma.sql`earliest_expiry <= ${filter.expiringBefore}`);
  return Prisma.sql`(SELECT coalesce(sum(shoots), 0)::int FROM shoot_tile_counts ${
    conditions.length === 0 ? Prisma.empty : Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}`
  })`;
}

/**
 * The tiles (lib/store/shoot-page.ts's countFleet) from the kept counts of the shoots the base
 * filter selects: each row counts where its label and expiry fall, as the count over the shoots
 * would have.
 */
export function fleetCountsOf(
  counts: readonly TileCount[],
  tiles: { statusLabels?: readonly string[]; expiringBefore?: Date },
  horizons: readonly Date[],
): FleetCounts {
  const ofStatus = (label: string) => !tiles.statusLabels?.length || tiles.statusLabels.includes(label);
  const ofExpiry = (at: Date) => tiles.expiringBefore === undefined || at.getTime() <= tiles.expiringBefore.getTime();
  const byStatus = Object.fromEntries(SHOOT_STATUS_LABELS.map((label) => [label, 0])) as Record<
    ShootStatusLabel,
    number
  >;
  const expiringBefore = horizons.map(() => 0);
  let total = 0;
  let statusTotal = 0;
  let expiryTotal = 0;
  for (const { statusLabel, earliestExpiry, shoots } of counts) {
    total += shoots;
    if (ofExpiry(earliestExpiry)) {
      statusTotal += shoots;
      if (statusLabel in byStatus) byStatus[statusLabel as ShootStatusLabel] += shoots;
    }
    if (ofStatus(statusLabel)) {
      expiryTotal += shoots;
      horizons.forEach((h, i) => {
        if (earliestExpiry.getTime() <= h.getTime()) expiringBefore[i] += shoots;
      });
    }
  }
  return { total, statusTotal, expiryTotal, byStatus, expiringBefore };
}

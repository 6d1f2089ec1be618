// Forced updates within N days and clusters that will be stuck, from the forecast's stored items
// (shoot_forecast_items, which the forecast's refresh keeps for both gardens): the items of shoots
// whose facts answer a forecast from now, between now and the horizon, read along the items'
// (at, ...) index. A shoot written since its facts were computed is left to the next sweep after
// the refresh (every ALMANAC_FORECAST_REFRESH_SECONDS), as its stored items may no longer hold.
import { Prisma } from "../db/generated/client.ts";
import { type Db, rawQuery } from "../db/client.ts";
import type { ForecastItem } from "../engine/forecast.ts";
import { forcedUpdateEvent, stuckEvent } from "../engine/notification-forecast-items.ts";
import { DAY_MS } from "../engine/time-units.ts";
import type { NewNotificationEvent } from "./notification-events.ts";
import { CHANGE_OVERLAP_MS, type SweepInput } from "./notification-events-producer.ts";

/** How far ahead a cluster that will be stuck is told (Gardener's dashboard warns 30 days ahead). */
export const STUCK_HORIZON_DAYS = 30;

interface ItemRow {
  namespace: string;
  name: string;
  project: string;
  at: Date;
  fails_from: Date | null;
  item: string;
  /** A machine image update's image name (the pool's, from the shoot's stored summary). */
  image: string | null;
}

/**
 * The stored forecast items, stuck or forced (not held), after `now` up to `until`, of shoots with
 * valid facts. With `changedSince` (the last sweep's moment) only those that can be new since: of
 * shoots whose facts were computed since (less CHANGE_OVERLAP_MS), or whose moment crossed one of
 * `days`' thresholds since (at in (changedSince + d, now + d]): index walks of a few rows each.
 */
async function forecastItems(
  db: Db,
  now: number,
  until: number,
  stuck: boolean,
  days: readonly number[],
  changedSince: number | undefined,
): Promise<ItemRow[]> {
  const at = new Date(now);
  const picked =
    changedSince === undefined
      ? Prisma.empty
      : Prisma.sql`AND (i.namespace, i.name, i.seq) IN (
          ${Prisma.join(
            days.map(
              (d) => Prisma.sql`SELECT namespace, name, seq FROM shoot_forecast_items
                WHERE at > ${new Date(changedSince + d * DAY_MS)} AND at <= ${new Date(now + d * DAY_MS)}`,
            ),
            " UNION ",
          )}
          UNION
          SELECT c.namespace, c.name, c.seq FROM shoots r JOIN shoot_forecast_items c ON c.namespace = r.namespace AND c.name = r.name
          WHERE r.forecast_computed_from > ${new Date(changedSince - CHANGE_OVERLAP_MS)})`;
  return rawQuery<ItemRow>(
    db,
    Prisma.sql`
    SELECT i.namespace, i.name, s.project, i.at, i.fails_from, i.item,
      CASE WHEN i.kind = 'machineImage' THEN (
        SELECT w->'image'->>'name' FROM jsonb_array_elements(s.summary->'workers') AS w
        WHERE w->>'name' = i.item::jsonb->>'worker' LIMIT 1) END AS image
    FROM shoot_forecast_items i
    JOIN shoots s ON s.namespace = i.namespace AND s.name = i.name
    WHERE i.at > ${at} AND i.at <= ${new Date(until)} AND i.stuck = ${stuck} AND NOT i.held
      AND s.forecast_computed_from <= ${at} AND s.forecast_valid_until >= ${at} ${picked}
    ORDER BY i.at, i.namespace, i.name, i.seq`,
  );
}

/** Whether a forecast to `horizon` holds the item: its shoot's facts do not fail by then. */
const holds = (row: ItemRow, horizon: number) => row.fails_from === null || row.fails_from.getTime() > horizon;

const shootOf = (row: ItemRow) => ({ namespace: row.namespace, name: row.name });

/** A forced update within each threshold of `days`: one event per item and threshold it falls within. */
export async function forcedUpdateEvents(
  db: Db,
  { now, days, changedSince }: SweepInput,
): Promise<NewNotificationEvent[]> {
  const horizon = now + Math.max(...days) * DAY_MS;
  const events: NewNotificationEvent[] = [];
  for (const row of await forecastItems(db, now, horizon, false, days, changedSince)) {
    const at = row.at.getTime();
    const item = JSON.parse(row.item) as ForecastItem;
    for (const d of days) {
      const end = now + d * DAY_MS;
      if (at > end || !holds(row, end)) continue;
      const event = forcedUpdateEvent(item, at, d, now, row.image ?? undefined);
      events.push({
        kind: "forced-update",
        key: event.key,
        occurredAt: new Date(now),
        until: row.at,
        projects: [row.project],
        shoot: shootOf(row),
        days: d,
        summary: event.summary,
        data: event.data,
      });
    }
  }
  return events;
}

/** A cluster that will be stuck within STUCK_HORIZON_DAYS: one event per stuck item. */
export async function stuckEvents(db: Db, { now, changedSince }: SweepInput): Promise<NewNotificationEvent[]> {
  const horizon = now + STUCK_HORIZON_DAYS * DAY_MS;
  return (await forecastItems(db, now, horizon, true, [STUCK_HORIZON_DAYS], changedSince))
    .filter((row) => holds(row, row.at.getTime()))
    .map((row) => {
      const event = stuckEvent(JSON.parse(row.item) as ForecastItem, row.at.getTime(), now, row.image ?? undefined);
      return {
        kind: "stuck",
        key: event.key,
        occurredAt: new Date(now),
        until: row.at,
        projects: [row.project],
        shoot: shootOf(row),
        summary: event.summary,
        data: event.data,
      };
    });
}

// The forecast's Kubernetes markers (lib/engine/forecast-summary.ts, kubernetesMarkers, their
// definition) as a query over the stored items: per version moved from and ISO week, the count,
// the stuck ones and the first few items, without reading every item.
import { Prisma } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";
import { type ForecastMarker, MARKER_ITEMS } from "../engine/forecast-summary.ts";
import { DAY_MS } from "../engine/time-units.ts";
import { type ForecastScope, type FreshForecastPart, forecastItemSource } from "./shoot-forecasts.ts";

export async function forecastMarkersUntil(
  db: Queryable,
  scope: ForecastScope,
  to: number,
  fresh: FreshForecastPart,
): Promise<ForecastMarker[]> {
  // The week's Monday: 1 January 1970 (day 0) was a Thursday, weekday 3 counting from Monday.
  const rows = await rawQuery<{ from_version: string; updates: number; stuck: number; first: string }>(
    db,
    Prisma.sql`
    WITH k AS (
      SELECT x.from_version, x.stuck, x.item, x.at, x.namespace, x.name, x.seq,
        floor(extract(epoch FROM x.at) * 1000 / ${DAY_MS})::bigint AS day
      FROM ${forecastItemSource(scope, to, fresh)} WHERE x.kind = 'kubernetes'),
    w AS (SELECT k.*, day - ((day + 3) % 7) AS week,
        row_number() OVER (PARTITION BY from_version, day - ((day + 3) % 7) ORDER BY at, namespace, name, seq) AS n
      FROM k)
    SELECT from_version, count(*)::int AS updates, (count(*) FILTER (WHERE stuck))::int AS stuck,
      '[' || string_agg(item, ',' ORDER BY n) FILTER (WHERE n <= ${MARKER_ITEMS}) || ']' AS first
    FROM w GROUP BY from_version, week ORDER BY from_version COLLATE "C", week`,
  );
  return rows.map((r) => {
    const first = JSON.parse(r.first) as ForecastMarker["first"];
    return { from: r.from_version, at: first[0].at, updates: r.updates, stuck: r.stuck, first };
  });
}

// The forecast's summary (lib/engine/forecast-summary.ts, its definition) as aggregates over the
// stored items' facets: the fleet page's numbers without sending it 200,000 items. One pass
// groups the selected items per shoot (for the counts of shoots) and per UTC day.
import { Prisma } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";
import type { ForecastNarrowing, ForecastSummary } from "../engine/forecast-summary.ts";
import { DAY_MS } from "../engine/time-units.ts";
import type { UpdateRiskCause } from "../engine/update-risk.ts";
import {
  type ForecastScope,
  type FreshForecastPart,
  forecastItemSource,
  narrowingBesidesRisk,
} from "./shoot-forecasts.ts";

interface Totals {
  updates: number;
  forced: number;
  forced_shoots: number;
  stuck: number;
  stuck_shoots: number;
  held: number;
  held_shoots: number;
  risk_of: number;
  risk_updates: number;
  risk_shoots: number;
}

export async function forecastSummaryUntil(
  db: Queryable,
  scope: ForecastScope,
  to: number,
  fresh: FreshForecastPart,
  narrowing: ForecastNarrowing,
): Promise<ForecastSummary> {
  // `selected`: what every narrowing selects; the rows are those of every narrowing but "at risk".
  const selected = narrowing.atRisk ? Prisma.sql`x.risk_causes IS NOT NULL` : Prisma.sql`true`;
  const rows = Prisma.sql`
    SELECT x.namespace, x.name, x.at, x.kind, x.stuck, x.held, x.risk_causes, ${selected} AS selected
    FROM ${forecastItemSource(scope, to, fresh)}
    WHERE true ${narrowingBesidesRisk(narrowing)}`;
  const [totals, causes, days] = await Promise.all([
    rawQuery<Totals>(
      db,
      Prisma.sql`
      WITH per_shoot AS (
        SELECT count(*) FILTER (WHERE selected) AS updates,
          count(*) FILTER (WHERE selected AND NOT held) AS forced,
          count(*) FILTER (WHERE selected AND stuck) AS stuck,
          count(*) FILTER (WHERE selected AND held) AS held,
          count(*) AS risk_of,
          count(*) FILTER (WHERE risk_causes IS NOT NULL) AS risk_updates
        FROM (${rows}) AS r GROUP BY namespace, name)
      SELECT coalesce(sum(updates), 0)::int AS updates,
        coalesce(sum(forced), 0)::int AS forced, (count(*) FILTER (WHERE forced > 0))::int AS forced_shoots,
        coalesce(sum(stuck), 0)::int AS stuck, (count(*) FILTER (WHERE stuck > 0))::int AS stuck_shoots,
        coalesce(sum(held), 0)::int AS held, (count(*) FILTER (WHERE held > 0))::int AS held_shoots,
        coalesce(sum(risk_of), 0)::int AS risk_of,
        coalesce(sum(risk_updates), 0)::int AS risk_updates, (count(*) FILTER (WHERE risk_updates > 0))::int AS risk_shoots
      FROM per_shoot`,
    ),
    // A shoot's items all carry its one risk (it is read from the shoot's record).
    rawQuery<{ cause: UpdateRiskCause; shoots: number }>(
      db,
      Prisma.sql`
      SELECT cause, count(*)::int AS shoots FROM (
        SELECT DISTINCT ON (namespace, name) risk_causes FROM (${rows}) AS r
        WHERE risk_causes IS NOT NULL ORDER BY namespace, name) AS s, unnest(s.risk_causes) AS cause
      GROUP BY cause ORDER BY cause`,
    ),
    rawQuery<{ day: number; kubernetes: number; machine_image: number; stuck: number }>(
      db,
      Prisma.sql`
      SELECT floor(extract(epoch FROM at) * 1000 / ${DAY_MS})::float8 AS day,
        (count(*) FILTER (WHERE NOT stuck AND kind = 'kubernetes'))::int AS kubernetes,
        (count(*) FILTER (WHERE NOT stuck AND kind = 'machineImage'))::int AS machine_image,
        (count(*) FILTER (WHERE stuck))::int AS stuck
      FROM (${rows}) AS r WHERE selected GROUP BY 1 ORDER BY 1`,
    ),
  ]);
  const t = totals[0];
  return {
    updates: t.updates,
    forced: t.forced,
    forcedShoots: t.forced_shoots,
    stuck: t.stuck,
    stuckShoots: t.stuck_shoots,
    held: t.held,
    heldShoots: t.held_shoots,
    risk: {
      of: t.risk_of,
      updates: t.risk_updates,
      shoots: t.risk_shoots,
      byCause: Object.fromEntries(causes.map((c) => [c.cause, c.shoots])),
    },
    days: days.map((d) => ({
      start: new Date(d.day * DAY_MS).toISOString(),
      kubernetes: d.kubernetes,
      machineImage: d.machine_image,
      stuck: d.stuck,
    })),
  };
}

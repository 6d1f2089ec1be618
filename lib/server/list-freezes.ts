// GET /api/v1/freezes?from=&to=&project=&forcedUpdates=: the freeze periods a caller may read (the
// landscape-wide ones, and those of projects they hold a role on), current and upcoming first by
// start, then past ones, the latest ended first. With forcedUpdates, each current or upcoming one
// carries the forced updates Gardener will still make inside it: the stored forecast items in its
// time (and its project's namespace), after the stale shoots' facts are computed and stored, as a
// forecast read does, so that they are the forecast's.
import type { FreezeJson, FreezeListAnswer } from "../api/freezes.ts";
import { FREEZE_FORCED_FIRST } from "../api/freezes.ts";
import type { FreezesParams } from "../api/operations/freezes.ts";
import { invalid } from "../api/refusal.ts";
import { allows } from "../api/roles.ts";
import { refusalByRole } from "../auth/authorize.ts";
import type { Db } from "../db/client.ts";
import type { ForecastItem } from "../engine/forecast.ts";
import { FORECAST_MAX_DAYS } from "../engine/forecast-facts.ts";
import { freezeAppliesTo, parseRfc3339 } from "../engine/freezes.ts";
import { DAY_MS } from "../engine/time-units.ts";
import { forcedUpdatesInside, listFreezes as storedFreezes, projectNamespaces } from "../store/freezes.ts";
import { storedForecast } from "./fleet-forecast.ts";
import { type FleetScope, scopedNamespaces } from "./fleet-scope.ts";
import { freezeJson, freezePeriod } from "./freeze-view.ts";

function queryMoment(field: "from" | "to", text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const ms = parseRfc3339(text);
  if (ms === undefined)
    throw invalid(`query.${field} is not an RFC 3339 date-time with an offset.`, [
      { field: `query.${field}`, type: "Invalid", detail: "RFC 3339 with an offset, e.g. 2026-12-20T00:00:00+01:00" },
    ]);
  return new Date(ms);
}

export async function listFreezes(
  db: Db,
  params: FreezesParams,
  scope: FleetScope,
  now: number,
): Promise<FreezeListAnswer> {
  const from = queryMoment("from", params.from);
  const to = queryMoment("to", params.to);
  const { principal } = scope;
  if (params.project !== undefined) {
    const byRole = refusalByRole(principal, "read", params.project);
    if (byRole) throw byRole;
  }
  const readable = (await storedFreezes(db, { ...(from ? { from } : {}), ...(to ? { to } : {}) })).filter(
    (f) =>
      (f.project === null || allows(principal.bindings, "read", f.project)) &&
      (params.project === undefined || freezeAppliesTo(freezePeriod(f), params.project)),
  );
  const ahead = readable.filter((f) => f.end.getTime() > now);
  const past = readable.filter((f) => f.end.getTime() <= now).sort((a, b) => b.end.getTime() - a.end.getTime());
  let items: FreezeJson[] = [...ahead, ...past].map((f) => freezeJson(f, now));
  if (params.forcedUpdates && ahead.length > 0) {
    const namespaces = scopedNamespaces(scope);
    const lastEnd = Math.max(...ahead.map((f) => f.end.getTime()));
    // The facts of shoots written since the last background pass are computed and stored first,
    // as a forecast read does (the whole horizon: stale is stale whatever the days asked).
    const days = Math.min(FORECAST_MAX_DAYS, Math.max(1, Math.ceil((lastEnd - now) / DAY_MS)));
    await (
      await storedForecast(db, { days, scope: namespaces !== undefined ? { namespaces } : {}, limit: 0 }, now)
    ).written;
    const namespaceOf = await projectNamespaces(db, [
      ...new Set(ahead.flatMap((f) => (f.project === null ? [] : [f.project]))),
    ]);
    const forced = await Promise.all(
      ahead.map(async (f) => {
        const namespace = f.project === null ? undefined : namespaceOf.get(f.project);
        if (f.project !== null && namespace === undefined) return { total: 0, shoots: 0, items: [] };
        const found = await forcedUpdatesInside(db, {
          stretches: [
            {
              from: new Date(Math.max(now, f.start.getTime())),
              to: f.end,
              ...(namespace !== undefined ? { namespace } : {}),
            },
          ],
          ...(namespaces !== undefined ? { namespaces } : {}),
          until: f.end,
          first: FREEZE_FORCED_FIRST,
        });
        return { ...found, items: found.items.map((text) => JSON.parse(text) as ForecastItem) };
      }),
    );
    items = items.map((item, index) => (index < ahead.length ? { ...item, forcedUpdates: forced[index] } : item));
  }
  return { now: new Date(now).toISOString(), items };
}

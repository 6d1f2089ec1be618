// GET /api/v1/forecast?days=: every forced update the maintenance controller will make in the
// coming days, across the fleet (or one namespace), from the engine's forecast; for a caller
// without a landscape-wide role, across the namespaces of their projects.
import { z } from "zod";
import type { ForecastAnswer } from "../api/forecast.ts";
import type { Db } from "../db/client.ts";
import { forecastHorizon } from "../engine/forecast.ts";
import { DAY_MS, MINUTE_MS } from "../engine/time-units.ts";
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import { allShoots, runningVersionsOf } from "../store/shoots.ts";
import type { RunningVersions } from "../engine/running-versions.ts";
import { parseQuery } from "../http/parse-query.ts";
import { answerCache } from "./answer-cache.ts";
import { type FleetScope, refuseUnreadable, scopedNamespaces } from "./fleet-scope.ts";
import { sharedComputations } from "./shared-computation.ts";

const MAX_DAYS = 366;

export const forecastParams = z.strictObject({
  days: z.coerce.number().int().min(1).max(MAX_DAYS).default(30),
  namespace: z.string().min(1).max(253).optional(),
});

type ForecastParams = ReturnType<typeof parseForecastParams>;

export function parseForecastParams(search: URLSearchParams) {
  return parseQuery(forecastParams, search);
}

// Forecasting steps every shoot through its coming windows (seconds for a large fleet), so it
// must not run again for every `days` a client cares to ask (nor for every concurrent request):
// it runs once per revision, namespace and one of these horizons, and each answer is read off
// the smallest that reaches its days. Looking a year ahead costs about 2.5 times a month, so
// the pages' usual 7 and 30 days do not pay for the year.
const HORIZON_DAYS = [30, 90, MAX_DAYS] as const;

export interface ForecastInput {
  readonly shoots: readonly Shoot[];
  readonly profiles: ReadonlyMap<string, CloudProfile>;
  /** What the shoots run, keyed "namespace/name" (rollouts held for a window are forecast too). */
  readonly running?: ReadonlyMap<string, RunningVersions>;
}

/** What one answer covers: `days` ahead, over `namespaces` (undefined: the whole fleet). */
export interface ForecastRequest {
  readonly days: number;
  readonly namespaces: readonly string[] | undefined;
}

/**
 * The forecast's answers, with their caches. `compute` is the engine's (tests count its calls);
 * `load` reads the fleet (or some namespaces) when a horizon must be computed.
 */
export function fleetForecaster(compute: typeof forecastHorizon = forecastHorizon) {
  // The answer moves slowly with the clock: a minute, unless the garden changes.
  const horizons = sharedComputations<ReturnType<typeof forecastHorizon>>(MINUTE_MS, 32);
  const answers = answerCache(MINUTE_MS, 64);
  return async (
    load: (namespaces: readonly string[] | undefined) => Promise<ForecastInput>,
    request: ForecastRequest,
    gardenRevision: number | undefined,
    now: number,
  ): Promise<string> => {
    // The namespaces read are part of every key, so a narrowed answer is never the fleet's (or
    // another caller's); names are DNS labels, so "*" and "," cannot occur in one.
    const over = request.namespaces === undefined ? "*" : request.namespaces.join(",");
    const key = `${request.days}|${over}`;
    const cached = answers.get(key, gardenRevision, now);
    if (cached !== undefined) return cached;
    const days = HORIZON_DAYS.find((h) => h >= request.days) ?? MAX_DAYS;
    const horizon = await horizons.get(`${days}|${over}`, gardenRevision, now, async () => {
      const { shoots, profiles, running } = await load(request.namespaces);
      return compute(shoots, profiles, now, now + days * DAY_MS, (s) =>
        running?.get(`${s.metadata.namespace ?? ""}/${s.metadata.name}`),
      );
    });
    const body = JSON.stringify({
      days: request.days,
      ...horizon.until(horizon.from + request.days * DAY_MS),
    } satisfies ForecastAnswer);
    // Kept as long as the horizon it was read from.
    answers.set(key, gardenRevision, horizon.from, body);
    return body;
  };
}

const forecaster = fleetForecaster();

/**
 * The forecast for what `scope` may read: one namespace when asked for (refused unless readable),
 * else every shoot the caller may read.
 */
export async function fleetForecastJson(
  db: Db,
  params: ForecastParams,
  scope: FleetScope,
  gardenRevision: number | undefined,
  now: number,
) {
  await refuseUnreadable(db, scope, params);
  return forecaster(
    async (namespaces) => {
      const [profiles, shoots, running] = await Promise.all([
        cachedCloudProfiles(db, now),
        allShoots(db, namespaces),
        runningVersionsOf(db, namespaces),
      ]);
      return { shoots, profiles, running };
    },
    { days: params.days, namespaces: params.namespace !== undefined ? [params.namespace] : scopedNamespaces(scope) },
    gardenRevision,
    now,
  );
}

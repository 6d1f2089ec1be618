// GET /api/v1/forecast?days=: every forced update the maintenance controller will make in the
// coming days, across the fleet (or one namespace), from the engine's forecast.
import { z } from "zod";
import type { ForecastAnswer } from "../api/forecast.ts";
import type { Db } from "../db/client.ts";
import { forecast } from "../engine/forecast.ts";
import { DAY_MS, MINUTE_MS } from "../engine/time-units.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import { allShoots } from "../store/shoots.ts";
import { parseQuery } from "../http/parse-query.ts";
import { answerCache } from "./answer-cache.ts";

const forecastParams = z.strictObject({
  days: z.coerce.number().int().min(1).max(366).default(30),
  namespace: z.string().min(1).max(253).optional(),
});

export function parseForecastParams(search: URLSearchParams) {
  return parseQuery(forecastParams, search);
}

// Forecasting steps every shoot through its coming windows (seconds for a large fleet), and
// the answer moves slowly with the clock: keep it a minute unless the garden changes.
const cache = answerCache(MINUTE_MS, 32);

export async function fleetForecastJson(
  db: Db,
  params: ReturnType<typeof parseForecastParams>,
  gardenRevision: number | undefined,
  now: number,
): Promise<string> {
  const key = `${params.days}|${params.namespace ?? ""}`;
  const cached = cache.get(key, gardenRevision, now);
  if (cached !== undefined) return cached;
  const [profiles, shoots] = await Promise.all([cachedCloudProfiles(db, now), allShoots(db, params.namespace)]);
  const body = JSON.stringify({
    days: params.days,
    ...forecast(shoots, profiles, now, now + params.days * DAY_MS),
  } satisfies ForecastAnswer);
  cache.set(key, gardenRevision, now, body);
  return body;
}

// GET /api/v1/forecast?days=: every forced update the maintenance controller will make in the
// coming days, across the fleet (or one namespace), from the engine's forecast.
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { forecast } from "../engine/forecast.ts";
import { cachedCloudProfiles } from "../garden/embedded/cloud-profiles.ts";
import { allShoots } from "../garden/embedded/shoots.ts";
import { parseQuery } from "../http/parse-query.ts";

const forecastParams = z.strictObject({
  days: z.coerce.number().int().min(1).max(366).default(30),
  namespace: z.string().min(1).max(253).optional(),
});

export function parseForecastParams(search: URLSearchParams) {
  return parseQuery(forecastParams, search);
}

export async function fleetForecast(db: Db, params: ReturnType<typeof parseForecastParams>, now: number) {
  const [profiles, shoots] = await Promise.all([cachedCloudProfiles(db, now), allShoots(db)]);
  const selected = params.namespace ? shoots.filter((s) => s.metadata.namespace === params.namespace) : shoots;
  return { days: params.days, ...forecast(selected, profiles, now, now + params.days * 86_400_000) };
}

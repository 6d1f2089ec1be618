import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { fleetForecast, parseForecastParams } from "@/lib/server/fleet-forecast.ts";

export const GET = route(async ({ request }) => {
  const params = parseForecastParams(new URL(request.url).searchParams);
  return json(await fleetForecast(db(), params, Date.now()));
});

import { databaseUrl, db } from "@/lib/db/client.ts";
import { revision } from "@/lib/db/change-feed.ts";
import { route } from "@/lib/http/route.ts";
import { fleetForecastJson, parseForecastParams } from "@/lib/server/fleet-forecast.ts";

export const GET = route({ need: "read" }, async ({ request }) => {
  const params = parseForecastParams(new URL(request.url).searchParams);
  const body = await fleetForecastJson(db(), params, revision(databaseUrl()), Date.now());
  return new Response(body, { headers: { "content-type": "application/json" } });
});

import { databaseUrl, db } from "@/lib/db/client.ts";
import { revision } from "@/lib/db/change-feed.ts";
import { route } from "@/lib/http/route.ts";
import { fleetForecastJson, parseForecastParams } from "@/lib/server/fleet-forecast.ts";

// One namespace's forecast needs a role on its project; the whole fleet's, a landscape-wide one.
export const GET = route({ need: "read", project: "namespace" }, async ({ request }) => {
  const params = parseForecastParams(new URL(request.url).searchParams);
  const body = await fleetForecastJson(db(), params, revision(databaseUrl()), Date.now());
  return new Response(body, { headers: { "content-type": "application/json" } });
});

import { databaseUrl, db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { revision } from "@/lib/db/change-feed.ts";
import { getForecast } from "@/lib/api/operations/forecast.ts";
import { jsonStream } from "@/lib/http/json-stream.ts";
import { jsonText, route } from "@/lib/http/route.ts";
import { forecastPieces } from "@/lib/server/fleet-forecast.ts";
import { forecastWithFreezes } from "@/lib/server/forecast-freezes.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";

// A role on any project may ask: the forecast covers the caller's projects' shoots, and a
// `namespace` outside them is refused. Every item (no `limit`) is sent as it is read. Updates
// inside freezes are marked (lib/server/forecast-freezes.ts).
export const GET = route(getForecast, async ({ query, principal }) => {
  const scope = await fleetScope(db(), principal, gardenAccess());
  const body = await forecastWithFreezes(db(), query, scope, revision(databaseUrl()), Date.now());
  return typeof body === "string" ? jsonText(body) : jsonStream(forecastPieces(body), "GET /api/v1/forecast");
});

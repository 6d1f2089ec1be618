import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { summarizeShoots } from "@/lib/api/operations/shoots.ts";
import { json, route } from "@/lib/http/route.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";
import { fleetSummary } from "@/lib/server/fleet-summary.ts";

// A role on any project may count: the tiles count only the shoots of the caller's projects.
export const GET = route(summarizeShoots, async ({ query, principal }) =>
  json(await fleetSummary(db(), query, await fleetScope(db(), principal, gardenAccess()), Date.now())),
);

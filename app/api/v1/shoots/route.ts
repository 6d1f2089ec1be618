import { databaseUrl, db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { revision } from "@/lib/db/change-feed.ts";
import { listShoots } from "@/lib/api/operations/shoots.ts";
import { jsonText, route } from "@/lib/http/route.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";
import { listShootsJson } from "@/lib/server/list-shoots.ts";

// A role on any project may list: the answer holds only the shoots of the caller's projects.
export const GET = route(listShoots, async ({ query, principal }) => {
  const scope = await fleetScope(db(), principal, gardenAccess());
  return jsonText(await listShootsJson(db(), query, scope, revision(databaseUrl()), Date.now()));
});

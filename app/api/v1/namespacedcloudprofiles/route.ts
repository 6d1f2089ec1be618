import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { json, route } from "@/lib/http/route.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";
import { listNamespacedProfiles } from "@/lib/server/namespaced-cloud-profiles.ts";

// A role on any project may ask: the list holds those in the caller's projects' namespaces.
export const GET = route({ need: "read", project: "any" }, async ({ request, principal }) =>
  json(
    await listNamespacedProfiles(
      db(),
      new URL(request.url).searchParams,
      await fleetScope(db(), principal, gardenAccess()),
    ),
  ),
);

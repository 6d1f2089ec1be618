import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { listNamespacedCloudProfiles } from "@/lib/api/operations/landscape.ts";
import { json, route } from "@/lib/http/route.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";
import { listNamespacedProfiles } from "@/lib/server/namespaced-cloud-profiles.ts";

// A role on any project may ask: the list holds those in the caller's projects' namespaces.
export const GET = route(listNamespacedCloudProfiles, async ({ query, principal }) =>
  json(await listNamespacedProfiles(db(), query, await fleetScope(db(), principal, gardenAccess()))),
);

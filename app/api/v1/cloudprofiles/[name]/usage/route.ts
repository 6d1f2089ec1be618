import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { json, route } from "@/lib/http/route.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";
import { getCloudProfileUsage } from "@/lib/server/get-cloud-profile-usage.ts";

// A role on any project may ask: the counts cover the shoots of the caller's projects.
export const GET = route<{ name: string }>({ need: "read", project: "any" }, async ({ principal }, { name }) =>
  json(await getCloudProfileUsage(db(), name, await fleetScope(db(), principal, gardenAccess()))),
);

import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { getCloudProfileUsage as getCloudProfileUsageOp } from "@/lib/api/operations/landscape.ts";
import { json, route } from "@/lib/http/route.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";
import { getCloudProfileUsage } from "@/lib/server/get-cloud-profile-usage.ts";

// A role on any project may ask: the counts cover the shoots of the caller's projects.
export const GET = route(getCloudProfileUsageOp, async ({ params, principal }) =>
  json(await getCloudProfileUsage(db(), params.name, await fleetScope(db(), principal, gardenAccess()))),
);

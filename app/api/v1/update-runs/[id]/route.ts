import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { getUpdateRun as getOp } from "@/lib/api/operations/update-runs.ts";
import { json, route } from "@/lib/http/route.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";
import { getUpdateRun } from "@/lib/server/update-runs.ts";

export const GET = route(getOp, async ({ params, principal, actor, identity }) => {
  const scope = await fleetScope(db(), principal, gardenAccess());
  return json(await getUpdateRun(db(), params.id, { scope, actor, identity }));
});

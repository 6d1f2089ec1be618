import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { getBulkAction as getOp } from "@/lib/api/operations/bulk-actions.ts";
import { json, route } from "@/lib/http/route.ts";
import { getBulkAction } from "@/lib/server/bulk-actions.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";

export const GET = route(getOp, async ({ params, principal, actor, identity }) => {
  const scope = await fleetScope(db(), principal, gardenAccess());
  return json(await getBulkAction(db(), params.id, { scope, actor, identity }));
});

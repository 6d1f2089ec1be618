import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { cancelBulkAction as cancelOp } from "@/lib/api/operations/bulk-actions.ts";
import { json, route } from "@/lib/http/route.ts";
import { cancelBulkAction } from "@/lib/server/bulk-actions.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";

export const POST = route(cancelOp, async ({ params, principal, actor, identity }) => {
  const scope = await fleetScope(db(), principal, gardenAccess());
  return json(await cancelBulkAction(db(), params.id, { scope, actor, identity }), { status: 202 });
});

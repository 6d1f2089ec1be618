import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { listBulkActions as listOp, startBulkAction } from "@/lib/api/operations/bulk-actions.ts";
import { json, route } from "@/lib/http/route.ts";
import { listBulkActions, previewOrStartBulkAction } from "@/lib/server/bulk-actions.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";

export const POST = route(startBulkAction, async ({ body, principal, actor, identity }) => {
  const scope = await fleetScope(db(), principal, gardenAccess());
  const outcome = await previewOrStartBulkAction(db(), body, { scope, actor, identity }, Date.now());
  return json(outcome.answer, { status: outcome.dryRun ? 200 : 202 });
});

export const GET = route(listOp, async ({ query, principal, actor, identity }) => {
  const scope = await fleetScope(db(), principal, gardenAccess());
  return json(await listBulkActions(db(), query, { scope, actor, identity }));
});

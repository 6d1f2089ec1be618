import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { listUpdateRuns as listOp, startUpdateRun } from "@/lib/api/operations/update-runs.ts";
import { json, route } from "@/lib/http/route.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";
import { listUpdateRuns, previewOrStartUpdateRun } from "@/lib/server/update-runs.ts";

export const POST = route(startUpdateRun, async ({ body, principal, actor, identity }) => {
  const scope = await fleetScope(db(), principal, gardenAccess());
  const outcome = await previewOrStartUpdateRun(db(), body, { scope, actor, identity }, Date.now());
  return json(outcome.answer, { status: outcome.dryRun ? 200 : 201 });
});

export const GET = route(listOp, async ({ query, principal, actor, identity }) => {
  const scope = await fleetScope(db(), principal, gardenAccess());
  return json(await listUpdateRuns(db(), query, { scope, actor, identity }));
});

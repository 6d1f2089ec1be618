import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { resumeUpdateRun as op } from "@/lib/api/operations/update-runs.ts";
import { json, route } from "@/lib/http/route.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";
import { actOnUpdateRun } from "@/lib/server/update-runs.ts";

export const POST = route(op, async ({ params, principal, actor, identity }) => {
  const scope = await fleetScope(db(), principal, gardenAccess());
  return json(await actOnUpdateRun(db(), params.id, "resume", { scope, actor, identity }, Date.now()), {
    status: 202,
  });
});

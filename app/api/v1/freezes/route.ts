import { config } from "@/lib/config/load-config.ts";
import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { createFreeze as createFreezeOp, listFreezes as listFreezesOp } from "@/lib/api/operations/freezes.ts";
import { json, route } from "@/lib/http/route.ts";
import { createFreeze } from "@/lib/server/create-freeze.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";
import { listFreezes } from "@/lib/server/list-freezes.ts";

// A role on any project may read: landscape-wide freezes and those of the caller's projects.
export const GET = route(listFreezesOp, async ({ query, principal }) =>
  json(await listFreezes(db(), query, await fleetScope(db(), principal, gardenAccess()), Date.now())),
);

// Who may make it depends on what it covers (admin landscape-wide, operator on its project): the use case decides.
export const POST = route(createFreezeOp, async ({ body, principal, actor, requestId }) =>
  json(
    await createFreeze(db(), {
      body,
      principal,
      actor,
      requestId,
      now: Date.now(),
      maxDays: config().server.freezeMaxDays,
    }),
    { status: 201 },
  ),
);

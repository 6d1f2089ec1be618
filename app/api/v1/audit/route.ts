import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { json, route } from "@/lib/http/route.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";
import { listAudit, parseAuditParams } from "@/lib/server/list-audit.ts";

// A role on any project may read the log: it then holds the events on the caller's projects only.
export const GET = route({ need: "read", project: "any" }, async ({ request, principal }) => {
  const params = parseAuditParams(new URL(request.url).searchParams);
  return json(await listAudit(db(), params, await fleetScope(db(), principal, gardenAccess())));
});

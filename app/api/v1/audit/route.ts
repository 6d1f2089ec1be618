import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { listAudit as listAuditOp } from "@/lib/api/operations/audit.ts";
import { json, route } from "@/lib/http/route.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";
import { listAudit } from "@/lib/server/list-audit.ts";

// A role on any project may read the log: it then holds the events on the caller's projects only.
export const GET = route(listAuditOp, async ({ query, principal }) =>
  json(await listAudit(db(), query, await fleetScope(db(), principal, gardenAccess()))),
);

import { db } from "@/lib/db/client.ts";
import { getMaintenancePlan } from "@/lib/api/operations/shoots.ts";
import { json, route } from "@/lib/http/route.ts";
import { maintenancePlan } from "@/lib/server/maintenance-plan.ts";

export const GET = route(getMaintenancePlan, async ({ params, query }) =>
  json(await maintenancePlan(db(), params.namespace, params.name, query.at ?? Date.now())),
);

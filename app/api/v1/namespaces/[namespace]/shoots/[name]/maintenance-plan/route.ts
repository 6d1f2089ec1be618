import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { maintenancePlan, parsePlanParams } from "@/lib/server/maintenance-plan.ts";

export const GET = route<{ namespace: string; name: string }>(
  { need: "read", project: "namespace" },
  async ({ request }, { namespace, name }) => {
    const from = parsePlanParams(new URL(request.url).searchParams, Date.now());
    return json(await maintenancePlan(db(), namespace, name, from));
  },
);

import { shootWrites } from "@/lib/garden/garden.ts";
import { maintainShootNow } from "@/lib/api/operations/shoots.ts";
import { json, route } from "@/lib/http/route.ts";
import { requestMaintainNow } from "@/lib/server/maintain-now.ts";

export const POST = route(maintainShootNow, async ({ params, actor, requestId, identity }) => {
  const answer = await requestMaintainNow(shootWrites(), { ...params, actor, requestId, identity, now: Date.now() });
  return json(answer, { status: 202 });
});

import { shootWrites } from "@/lib/garden/garden.ts";
import { json, route } from "@/lib/http/route.ts";
import { requestMaintainNow } from "@/lib/server/maintain-now.ts";

export const POST = route<{ namespace: string; name: string }>(
  { need: "operate", project: "namespace" },
  async ({ actor, requestId, identity }, { namespace, name }) => {
    const answer = await requestMaintainNow(shootWrites(), {
      namespace,
      name,
      actor,
      requestId,
      identity,
      now: Date.now(),
    });
    return json(answer, { status: 202 });
  },
);

import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { queueClient } from "@/lib/jobs/queue-client.ts";
import { requestMaintainNow } from "@/lib/server/maintain-now.ts";

export const POST = route<{ namespace: string; name: string }>(async ({ actor, requestId }, { namespace, name }) => {
  const answer = await requestMaintainNow(db(), await queueClient(), { namespace, name, actor, requestId, now: Date.now() });
  return json(answer, { status: 202 });
});

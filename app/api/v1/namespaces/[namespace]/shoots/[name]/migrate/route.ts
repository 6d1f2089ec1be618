import { db } from "@/lib/db/client.ts";
import { json, readJsonBody, route } from "@/lib/http/route.ts";
import { queueClient } from "@/lib/jobs/queue-client.ts";
import { startShootMigration } from "@/lib/server/start-migration.ts";

export const POST = route<{ namespace: string; name: string }>(async ({ request, actor, requestId }, { namespace, name }) => {
  const body = await readJsonBody(request);
  const answer = await startShootMigration(db(), await queueClient(), { namespace, name, body, actor, requestId, now: Date.now() });
  return json(answer, { status: 202 });
});

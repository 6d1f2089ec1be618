import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { retryFailedJob } from "@/lib/server/failed-jobs.ts";

export const POST = route<{ id: string }>({ need: "administer" }, async ({ actor, requestId }, { id }) =>
  json(await retryFailedJob(db(), { id, actor, requestId }), { status: 202 }),
);

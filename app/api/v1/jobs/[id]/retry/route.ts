import { db } from "@/lib/db/client.ts";
import { retryFailedJob as retryFailedJobOp } from "@/lib/api/operations/upkeep.ts";
import { json, route } from "@/lib/http/route.ts";
import { retryFailedJob } from "@/lib/server/failed-jobs.ts";

export const POST = route(retryFailedJobOp, async ({ params, actor, requestId }) =>
  json(await retryFailedJob(db(), { id: params.id, actor, requestId }), { status: 202 }),
);

import { db } from "@/lib/db/client.ts";
import { listFailedJobs as listFailedJobsOp } from "@/lib/api/operations/upkeep.ts";
import { json, route } from "@/lib/http/route.ts";
import { listFailedJobs } from "@/lib/server/failed-jobs.ts";

export const GET = route(listFailedJobsOp, async () => json(await listFailedJobs(db())));

import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { listFailedJobs } from "@/lib/server/failed-jobs.ts";

export const GET = route({ need: "administer" }, async () => json(await listFailedJobs(db())));

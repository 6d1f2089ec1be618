import { db } from "@/lib/db/client.ts";
import { listProjects as listProjectsOp } from "@/lib/api/operations/landscape.ts";
import { json, route } from "@/lib/http/route.ts";
import { listProjects } from "@/lib/server/list-projects.ts";

export const GET = route(listProjectsOp, async () => json(await listProjects(db())));

import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { listProjects } from "@/lib/server/list-projects.ts";

export const GET = route({ need: "read", project: "any" }, async () => json(await listProjects(db())));

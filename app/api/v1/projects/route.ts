import { db } from "@/lib/db/client.ts";
import { listProjects } from "@/lib/garden/embedded/projects.ts";
import { json, route } from "@/lib/http/route.ts";

export const GET = route(async () => json({ items: await listProjects(db()) }));

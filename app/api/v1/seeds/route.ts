import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { listSeeds } from "@/lib/server/list-seeds.ts";

export const GET = route({ need: "read", project: "any" }, async () => json(await listSeeds(db())));

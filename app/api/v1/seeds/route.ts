import { db } from "@/lib/db/client.ts";
import { listSeeds } from "@/lib/garden/embedded/seeds.ts";
import { json, route } from "@/lib/http/route.ts";

export const GET = route(async () => json({ items: await listSeeds(db()) }));

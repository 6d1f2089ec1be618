import { db } from "@/lib/db/client.ts";
import { listSeeds as listSeedsOp } from "@/lib/api/operations/landscape.ts";
import { json, route } from "@/lib/http/route.ts";
import { listSeeds } from "@/lib/server/list-seeds.ts";

export const GET = route(listSeedsOp, async () => json(await listSeeds(db())));

import { db } from "@/lib/db/client.ts";
import { getShootCleanup } from "@/lib/api/operations/shoots.ts";
import { json, route } from "@/lib/http/route.ts";
import { shootCleanup } from "@/lib/server/shoot-cleanup.ts";

export const GET = route(getShootCleanup, async ({ params }) =>
  json(await shootCleanup(db(), params.namespace, params.name)),
);

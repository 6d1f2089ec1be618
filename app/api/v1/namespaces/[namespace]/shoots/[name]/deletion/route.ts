import { db } from "@/lib/db/client.ts";
import { getShootDeletion } from "@/lib/api/operations/shoots.ts";
import { json, route } from "@/lib/http/route.ts";
import { shootDeletion } from "@/lib/server/delete-shoot.ts";

export const GET = route(getShootDeletion, async ({ params }) =>
  json(await shootDeletion(db(), params.namespace, params.name)),
);

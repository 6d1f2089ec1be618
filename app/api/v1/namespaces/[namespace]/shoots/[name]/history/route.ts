import { db } from "@/lib/db/client.ts";
import { getShootHistory } from "@/lib/api/operations/shoots.ts";
import { json, route } from "@/lib/http/route.ts";
import { shootHistory } from "@/lib/server/shoot-history.ts";

export const GET = route(getShootHistory, async ({ params, query }) =>
  json(await shootHistory(db(), params.namespace, params.name, query.limit)),
);

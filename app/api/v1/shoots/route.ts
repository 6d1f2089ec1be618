import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { listShoots, parseListShootsParams } from "@/lib/server/list-shoots.ts";

export const GET = route(async ({ request }) => {
  const params = parseListShootsParams(new URL(request.url).searchParams);
  return json(await listShoots(db(), params, Date.now()));
});

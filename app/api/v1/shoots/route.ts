import { databaseUrl, db } from "@/lib/db/client.ts";
import { revision } from "@/lib/db/change-feed.ts";
import { route } from "@/lib/http/route.ts";
import { listShootsJson, parseListShootsParams } from "@/lib/server/list-shoots.ts";

export const GET = route(async ({ request }) => {
  const search = new URL(request.url).searchParams;
  const params = parseListShootsParams(search);
  const body = await listShootsJson(db(), params, search.toString(), revision(databaseUrl()), Date.now());
  return new Response(body, { headers: { "content-type": "application/json" } });
});

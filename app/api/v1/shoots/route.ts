import { databaseUrl, db } from "@/lib/db/client.ts";
import { revision } from "@/lib/db/change-feed.ts";
import { route } from "@/lib/http/route.ts";
import { listShootsJson } from "@/lib/server/list-shoots.ts";

export const GET = route({ need: "read" }, async ({ request }) => {
  const body = await listShootsJson(db(), new URL(request.url).searchParams, revision(databaseUrl()), Date.now());
  return new Response(body, { headers: { "content-type": "application/json" } });
});

import { db } from "@/lib/db/client.ts";
import { json, readJsonBody, route } from "@/lib/http/route.ts";
import { createToken } from "@/lib/server/create-token.ts";
import { listTokens } from "@/lib/server/list-tokens.ts";

export const GET = route({ need: "administer" }, async () => json(await listTokens(db())));

export const POST = route({ need: "administer" }, async ({ request, actor, requestId }) => {
  const body = await readJsonBody(request);
  // The value is in this answer only: no cache may keep it.
  return json(await createToken(db(), { body, actor, requestId, now: Date.now() }), {
    status: 201,
    headers: { "cache-control": "no-store" },
  });
});

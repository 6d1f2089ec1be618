import { db } from "@/lib/db/client.ts";
import { createToken as createTokenOp, listTokens as listTokensOp } from "@/lib/api/operations/access.ts";
import { json, route } from "@/lib/http/route.ts";
import { createToken } from "@/lib/server/create-token.ts";
import { listTokens } from "@/lib/server/list-tokens.ts";

export const GET = route(listTokensOp, async () => json(await listTokens(db())));

export const POST = route(createTokenOp, async ({ body, actor, requestId }) =>
  // The value is in this answer only: no cache may keep it.
  json(await createToken(db(), { body, actor, requestId, now: Date.now() }), {
    status: 201,
    headers: { "cache-control": "no-store" },
  }),
);

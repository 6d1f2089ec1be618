import { db } from "@/lib/db/client.ts";
import { revokeToken as revokeTokenOp } from "@/lib/api/operations/access.ts";
import { json, route } from "@/lib/http/route.ts";
import { revokeToken } from "@/lib/server/revoke-token.ts";

export const DELETE = route(revokeTokenOp, async ({ params, actor, requestId }) =>
  json(await revokeToken(db(), { id: params.id, actor, requestId, now: Date.now() })),
);

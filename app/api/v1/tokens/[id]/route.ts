import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { revokeToken } from "@/lib/server/revoke-token.ts";

export const DELETE = route<{ id: string }>({ need: "administer" }, async ({ actor, requestId }, { id }) =>
  json(await revokeToken(db(), { id, actor, requestId, now: Date.now() })),
);

import { db } from "@/lib/db/client.ts";
import { removeAccount as removeAccountOp } from "@/lib/api/operations/access.ts";
import { json, route } from "@/lib/http/route.ts";
import { removeAccount } from "@/lib/server/remove-account.ts";

export const DELETE = route(removeAccountOp, async ({ params, principal, actor, requestId }) =>
  json(await removeAccount(db(), { id: params.id, principal, actor, requestId })),
);

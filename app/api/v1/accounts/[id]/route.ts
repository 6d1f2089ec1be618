import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { removeAccount } from "@/lib/server/remove-account.ts";

export const DELETE = route<{ id: string }>({ need: "administer" }, async ({ principal, actor, requestId }, { id }) =>
  json(await removeAccount(db(), { id, principal, actor, requestId })),
);

import { db } from "@/lib/db/client.ts";
import { setAccountRoles } from "@/lib/api/operations/access.ts";
import { json, route } from "@/lib/http/route.ts";
import { changeAccountRoles } from "@/lib/server/change-account-roles.ts";

export const PUT = route(setAccountRoles, async ({ params, body, actor, requestId }) =>
  json(await changeAccountRoles(db(), { id: params.id, body, actor, requestId })),
);

import { db } from "@/lib/db/client.ts";
import { json, readJsonBody, route } from "@/lib/http/route.ts";
import { changeAccountRoles } from "@/lib/server/change-account-roles.ts";

export const PUT = route<{ id: string }>({ need: "administer" }, async ({ request, actor, requestId }, { id }) => {
  const body = await readJsonBody(request);
  return json(await changeAccountRoles(db(), { id, body, actor, requestId }));
});

import { db } from "@/lib/db/client.ts";
import { json, readJsonBody, route } from "@/lib/http/route.ts";
import { addAccount } from "@/lib/server/add-account.ts";
import { listAccounts } from "@/lib/server/list-accounts.ts";

export const GET = route({ need: "administer" }, async () => json(await listAccounts(db())));

export const POST = route({ need: "administer" }, async ({ request, actor, requestId }) => {
  const body = await readJsonBody(request);
  return json(await addAccount(db(), { body, actor, requestId }), { status: 201 });
});

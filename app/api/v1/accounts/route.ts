import { db } from "@/lib/db/client.ts";
import { createAccount, listAccounts as listAccountsOp } from "@/lib/api/operations/access.ts";
import { json, route } from "@/lib/http/route.ts";
import { addAccount } from "@/lib/server/add-account.ts";
import { listAccounts } from "@/lib/server/list-accounts.ts";

export const GET = route(listAccountsOp, async () => json(await listAccounts(db())));

export const POST = route(createAccount, async ({ body, actor, requestId }) =>
  json(await addAccount(db(), { body, actor, requestId }), { status: 201 }),
);

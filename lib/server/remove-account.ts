// DELETE /api/v1/accounts/{id}: an admin removes an account. Its sessions go with it in the same
// transaction, so a browser signed in as that person is refused on its next request. Nobody
// deletes themself, and the last landscape-wide admin stays.
import type { AccountJson } from "../api/accounts.ts";
import type { Principal } from "../auth/principal.ts";
import type { Db } from "../db/client.ts";
import { conflict, notFound } from "../api/refusal.ts";
import { deleteAccount, findAccount, lockAccounts } from "../store/accounts.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { accountJson, isLandscapeAdmin, roleChanges } from "./account-view.ts";
import { isLastLandscapeAdmin, lastAdminRefusal } from "./change-account-roles.ts";

export async function removeAccount(
  db: Db,
  input: { id: string; principal: Principal; actor: string; requestId: string },
): Promise<AccountJson> {
  if (input.principal.kind === "user" && input.principal.id === input.id) {
    throw conflict("You cannot delete your own account; another admin can.", { extensions: { reason: "OwnAccount" } });
  }
  return db.$transaction(async (tx) => {
    await lockAccounts(tx);
    const account = await findAccount(tx, input.id);
    if (!account) throw notFound(`There is no account with the id ${input.id}.`);
    if (isLandscapeAdmin(account.bindings) && (await isLastLandscapeAdmin(tx, account)))
      throw lastAdminRefusal(account.email, "deleting the account");
    await deleteAccount(tx, account.id);
    await recordAuditEvent(tx, {
      actor: input.actor,
      action: "account.delete",
      target: { kind: "Account", name: account.email },
      changes: [{ field: "name", before: account.name, after: null }, ...roleChanges(account.bindings, [])],
      requestId: input.requestId,
    });
    return accountJson(account);
  });
}

// PUT /api/v1/accounts/{id}/roles: an admin replaces an account's roles. The last person with the
// admin role on the whole landscape keeps it, so nobody can lock the landscape out.
import type { z } from "zod";
import type { AccountJson, accountRolesSchema } from "../api/accounts.ts";
import type { Db } from "../db/client.ts";
import { conflict, notFound } from "../api/refusal.ts";
import { countHolders, findAccount, lockAccounts, replaceBindings } from "../store/accounts.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { accountJson, isLandscapeAdmin, requireScopes, roleChanges } from "./account-view.ts";
import { LANDSCAPE } from "../auth/roles.ts";

export const lastAdminRefusal = (email: string, what: string) =>
  conflict(
    `${email} is the last person with the admin role on the whole landscape: ${what} would leave nobody who can manage accounts. Give another account the admin role on "*" first.`,
    { extensions: { reason: "LastLandscapeAdmin" } },
  );

/** Whether taking the account's landscape-wide admin role away would leave no such admin. */
export async function isLastLandscapeAdmin(
  tx: Parameters<typeof countHolders>[0],
  account: { id: string },
): Promise<boolean> {
  return (await countHolders(tx, "admin", LANDSCAPE, account.id)) === 0;
}

export async function changeAccountRoles(
  db: Db,
  input: { id: string; body: z.output<typeof accountRolesSchema>; actor: string; requestId: string },
): Promise<AccountJson> {
  const bindings = input.body.bindings;
  return db.$transaction(async (tx) => {
    await lockAccounts(tx);
    const account = await findAccount(tx, input.id);
    if (!account) throw notFound(`There is no account with the id ${input.id}.`);
    await requireScopes(
      tx,
      bindings.map((b) => b.scope),
      (i) => `bindings[${i}].scope`,
      new Set(account.bindings.map((b) => b.scope)),
    );
    if (isLandscapeAdmin(account.bindings) && !isLandscapeAdmin(bindings) && (await isLastLandscapeAdmin(tx, account)))
      throw lastAdminRefusal(account.email, "taking that role away");
    const changes = roleChanges(account.bindings, bindings);
    if (changes.length > 0) {
      await replaceBindings(tx, account.id, bindings);
      await recordAuditEvent(tx, {
        actor: input.actor,
        action: "role.change",
        target: { kind: "Account", name: account.email },
        changes,
        requestId: input.requestId,
      });
    }
    return accountJson({ ...account, bindings: [...bindings].sort((a, b) => a.scope.localeCompare(b.scope)) });
  });
}

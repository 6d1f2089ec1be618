// POST /api/v1/accounts: an admin makes a built-in account (email and password) with one role. The
// password goes to better-auth's hash and nowhere else: not to the audit log, not to an error.
import type { z } from "zod";
import type { AccountJson, createAccountSchema } from "../api/accounts.ts";
import { createPasswordAccount } from "../auth/create-account.ts";
import type { Db } from "../db/client.ts";
import { conflict } from "../api/refusal.ts";
import { deleteAccount, emailTaken, findAccount } from "../store/accounts.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { grantRole } from "../store/role-bindings.ts";
import { accountJson, isUniqueViolation, requireScopes, roleChanges } from "./account-view.ts";

export async function addAccount(
  db: Db,
  input: { body: z.output<typeof createAccountSchema>; actor: string; requestId: string },
): Promise<AccountJson> {
  const { name, email, password, role, scope } = input.body;
  const taken = () =>
    conflict(`An account with the email address ${email.toLowerCase()} exists already.`, {
      errors: [{ field: "email", type: "Duplicate", detail: "an account with this email address exists already" }],
    });
  if (await emailTaken(db, email)) throw taken();
  await requireScopes(db, [scope], () => "scope");

  let created;
  try {
    created = await createPasswordAccount(db, { name, email, password });
  } catch (error) {
    if (isUniqueViolation(error) || (await emailTaken(db, email))) throw taken();
    throw error;
  }
  try {
    await db.$transaction(async (tx) => {
      await grantRole(tx, created.id, role, scope);
      await recordAuditEvent(tx, {
        actor: input.actor,
        action: "account.create",
        target: { kind: "Account", name: created.email },
        changes: [{ field: "name", before: null, after: name }, ...roleChanges([], [{ role, scope }])],
        requestId: input.requestId,
      });
    });
  } catch (error) {
    // Without its role and its audit event the account is not made: take the user away again.
    await deleteAccount(db, created.id);
    throw error;
  }
  const account = await findAccount(db, created.id);
  if (!account) throw new Error(`The account ${created.id} vanished right after it was made.`);
  return accountJson(account);
}

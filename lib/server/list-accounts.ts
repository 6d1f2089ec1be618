// GET /api/v1/accounts: every person who may sign in, with their roles.
import type { AccountListAnswer } from "../api/accounts.ts";
import type { Db } from "../db/client.ts";
import { listAccounts as storedAccounts } from "../store/accounts.ts";
import { accountJson } from "./account-view.ts";

export async function listAccounts(db: Db): Promise<AccountListAnswer> {
  return { items: (await storedAccounts(db)).map(accountJson) };
}

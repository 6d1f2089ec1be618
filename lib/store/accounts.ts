// The people who may sign in (better-auth's users table), with their role bindings, as admins
// manage them. Deleting a user deletes their sessions, credentials and roles with it (ON DELETE
// CASCADE), in the same statement.
import type { Queryable, Tx } from "../db/client.ts";
import type { StoredBinding } from "./role-bindings.ts";

export interface StoredAccount {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly createdAt: Date;
  /** Their company groups at their last OIDC sign-in (empty for built-in accounts). */
  readonly groups: readonly string[];
  readonly bindings: readonly StoredBinding[];
}

const SELECT = {
  id: true,
  name: true,
  email: true,
  createdAt: true,
  groups: true,
  roleBindings: { select: { role: true, scope: true }, orderBy: { scope: "asc" } },
} as const;

type Row = {
  id: string;
  name: string;
  email: string;
  createdAt: Date;
  groups: string[];
  roleBindings: StoredBinding[];
};
const toAccount = ({ roleBindings, ...rest }: Row): StoredAccount => ({ ...rest, bindings: roleBindings });

/** Every account, by email. */
export async function listAccounts(db: Queryable): Promise<StoredAccount[]> {
  return (await db.user.findMany({ select: SELECT, orderBy: { email: "asc" } })).map(toAccount);
}

export async function findAccount(db: Queryable, id: string): Promise<StoredAccount | undefined> {
  const row = await db.user.findUnique({ where: { id }, select: SELECT });
  return row ? toAccount(row) : undefined;
}

/** The account with this email; emails are stored in lower case, so `email` must be too. */
export async function findAccountByEmail(db: Queryable, email: string): Promise<StoredAccount | undefined> {
  const row = await db.user.findUnique({ where: { email }, select: SELECT });
  return row ? toAccount(row) : undefined;
}

/**
 * Adds a user without a password or role unless the email (or id) is taken; answers whether it
 * did. ON CONFLICT DO NOTHING: two requests that both saw no user make one, and neither fails.
 */
export async function addAccountIfMissing(
  db: Queryable,
  user: { id: string; name: string; email: string },
): Promise<boolean> {
  const { count } = await db.user.createMany({ data: [{ ...user, emailVerified: false }], skipDuplicates: true });
  return count === 1;
}

export async function emailTaken(db: Queryable, email: string): Promise<boolean> {
  return (await db.user.count({ where: { email: email.toLowerCase() } })) > 0;
}

// Any constant unique to this lock: account and role changes take turns, so two admins who take
// each other's admin role at the same moment cannot both succeed and leave nobody.
const ACCOUNTS_LOCK_KEY = 0x41_43_43_54; // "ACCT"

/** Serialises changes to accounts and roles until the transaction ends. */
export async function lockAccounts(tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ACCOUNTS_LOCK_KEY})`;
}

/** How many people other than `exceptUserId` hold `role` on `scope`. */
export async function countHolders(db: Queryable, role: string, scope: string, exceptUserId: string): Promise<number> {
  return db.roleBinding.count({ where: { role, scope, userId: { not: exceptUserId } } });
}

/** Replaces every binding of the user with `bindings`. */
export async function replaceBindings(tx: Tx, userId: string, bindings: readonly StoredBinding[]): Promise<void> {
  await tx.roleBinding.deleteMany({ where: { userId } });
  if (bindings.length > 0) {
    await tx.roleBinding.createMany({ data: bindings.map((b) => ({ userId, role: b.role, scope: b.scope })) });
  }
}

/** Deletes the user with their sessions, credentials and roles; answers whether there was one. */
export async function deleteAccount(tx: Queryable, id: string): Promise<boolean> {
  return (await tx.user.deleteMany({ where: { id } })).count === 1;
}

/** Replaces the company groups of a person (at their sign-in, from the issuer's verified answer). */
export async function setGroups(db: Queryable, userId: string, groups: readonly string[]): Promise<void> {
  await db.user.update({ where: { id: userId }, data: { groups: [...groups] } });
}

// The person a trusted proxy names, as an Almanac user: found by email, or made on first sight
// (without a password, which they never need here), so that admins can grant them roles on the
// accounts page like anyone else's. Their roles are those stored for them and those their groups
// bring (ALMANAC_GROUP_ROLES); the groups come with every request, so they are not stored.
import type { Db } from "../db/client.ts";
import { addAccountIfMissing, findAccountByEmail, type StoredAccount } from "../store/accounts.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { auth } from "./better-auth.ts";
import { personBindings } from "./group-roles.ts";
import type { ProxyIdentity } from "./proxy-headers.ts";
import type { Binding } from "./roles.ts";

export interface ProxyPerson {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly bindings: readonly Binding[];
}

/**
 * The user key of the proxy's value. Built-in accounts keep their email in lower case, so the
 * value is compared in lower case too, and a proxy that sends Alice@Example.com finds
 * alice@example.com's account and roles. A value without "@" (Apache's REMOTE_USER, a login
 * name) is kept as it is, lower-cased, in the email column: that column is the one unique name
 * of a person, and no built-in account can collide with it (their emails must have an "@").
 */
const proxyUserKey = (user: string): string => user.trim().toLowerCase();

/** Makes the person's row the first time only: every later request is a single read. */
async function accountOf(db: Db, identity: ProxyIdentity): Promise<StoredAccount> {
  const email = proxyUserKey(identity.user);
  const found = await findAccountByEmail(db, email);
  if (found) return found;
  // The same id generator better-auth uses for the users it makes.
  const id = (await (await auth(db)).$context).generateId({ model: "user" });
  if (id === false) throw new Error("better-auth is configured to leave user ids to the database.");
  const name = identity.user.trim();
  await db.$transaction(async (tx) => {
    if (!(await addAccountIfMissing(tx, { id, name, email }))) return;
    await recordAuditEvent(tx, {
      actor: email,
      action: "account.create",
      target: { kind: "Account", name: email },
      changes: [
        { field: "name", before: null, after: name },
        { field: "signed in by", before: null, after: "trusted proxy" },
      ],
    });
  });
  const made = await findAccountByEmail(db, email);
  if (!made) throw new Error(`The account of ${email} vanished right after it was made.`);
  return made;
}

/** The person behind `identity`, with their stored roles and their groups' roles together. */
export async function proxyPerson(db: Db, identity: ProxyIdentity): Promise<ProxyPerson> {
  const account = await accountOf(db, identity);
  return {
    id: account.id,
    name: account.name,
    email: account.email,
    bindings: personBindings(account.bindings, identity.groups),
  };
}

// A built-in account (email and password) made by Almanac itself, not by self sign-up (which is
// off): the first admin from the setup link, later accounts by an admin. The password is hashed
// by better-auth, as its own sign-up would.
import type { Db } from "../db/client.ts";
import { auth } from "./better-auth.ts";

export async function createPasswordAccount(
  db: Db,
  person: { name: string; email: string; password: string },
): Promise<{ id: string; email: string }> {
  const context = await (await auth(db)).$context;
  const hash = await context.password.hash(person.password);
  const user = await context.internalAdapter.createUser(
    { name: person.name, email: person.email.toLowerCase(), emailVerified: true },
    { method: "admin" },
  );
  await context.internalAdapter.linkAccount({
    userId: user.id,
    providerId: "credential",
    accountId: user.id,
    password: hash,
  });
  return { id: user.id, email: user.email };
}

// The first admin, without a default password: while no account exists, `npm start` prints a
// setup link with a random one-time token (valid for a day); whoever opens it names the first
// admin. Once an account exists, no link is made and old ones stop working.
import type { z } from "zod";
import type { setupBody } from "../api/operations/upkeep.ts";
import { createPasswordAccount } from "../auth/create-account.ts";
import { LANDSCAPE } from "../auth/roles.ts";
import { newToken, tokenHash } from "../auth/token-hash.ts";
import type { Db } from "../db/client.ts";
import { DAY_MS } from "../engine/time-units.ts";
import { forbidden } from "../api/refusal.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { grantRole } from "../store/role-bindings.ts";
import { hasUsers, insertSetupToken, releaseSetupToken, useSetupToken } from "../store/setup-tokens.ts";

/** A new setup link while no account exists, else undefined. */
export async function firstAdminLink(db: Db, baseUrl: string, now: number): Promise<string | undefined> {
  if (await hasUsers(db)) return undefined;
  const token = newToken("setup");
  await insertSetupToken(db, tokenHash(token), new Date(now + DAY_MS));
  return `${baseUrl}/setup?token=${token}`;
}

export const PASSWORD_MIN = 12;

/** POST /api/v1/setup: makes the first admin with the link's token, once. */
export async function createFirstAdmin(
  db: Db,
  body: z.output<typeof setupBody>,
  now: number,
): Promise<{ email: string }> {
  const { token, name, email, password } = body;
  const refused = () =>
    forbidden(
      "This setup link is not valid: it was used already, it expired, or it is mistyped. Restart Almanac for a new one while no account exists.",
    );
  if (await hasUsers(db)) throw refused();
  // The token is taken first, atomically, so two people with the link cannot both become admin.
  const hash = tokenHash(token);
  if (!(await useSetupToken(db, hash, new Date(now)))) throw refused();
  let account;
  try {
    account = await createPasswordAccount(db, { name, email, password });
  } catch (error) {
    await releaseSetupToken(db, hash); // nothing was made: the link works again
    throw error;
  }
  await grantRole(db, account.id, "admin", LANDSCAPE);
  await recordAuditEvent(db, {
    actor: account.email,
    action: "account.create",
    target: { kind: "Account", name: account.email },
    changes: [{ field: "role[*]", before: null, after: "admin" }],
  });
  return { email: account.email };
}

// API tokens made straight in a test's database, to act under a name and role of the test's
// choosing (the audit log then names the token).
import { randomBytes } from "node:crypto";
import { tokenHash } from "../../lib/auth/token-hash.ts";
import type { Role } from "../../lib/auth/roles.ts";
import type { Db } from "../../lib/db/client.ts";
import { insertToken } from "../../lib/store/api-tokens.ts";

/** The Authorization header of a new token named `name` with `role` on `scope` ("*" by default). */
export async function tokenHeader(db: Db, name: string, role: Role, scope = "*"): Promise<{ authorization: string }> {
  const value = `test_${randomBytes(24).toString("base64url")}`;
  await insertToken(db, { name, tokenHash: tokenHash(value), role, scope, createdBy: "test", expiresAt: null });
  return { authorization: `Bearer ${value}` };
}

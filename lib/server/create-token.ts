// POST /api/v1/tokens: a new API token. Its value is in this answer only: the table keeps its
// SHA-256, and the audit log its name, role, scope and expiry.
import type { z } from "zod";
import type { CreatedTokenAnswer, createTokenSchema } from "../api/tokens.ts";
import { newToken, tokenHash } from "../auth/token-hash.ts";
import type { Db } from "../db/client.ts";
import { DAY_MS } from "../engine/time-units.ts";
import { conflict } from "../api/refusal.ts";
import { insertToken, tokenNameTaken } from "../store/api-tokens.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { isUniqueViolation, requireScopes, roleChanges, tokenJson } from "./account-view.ts";

export async function createToken(
  db: Db,
  input: { body: z.output<typeof createTokenSchema>; actor: string; requestId: string; now: number },
): Promise<CreatedTokenAnswer> {
  const { name, role, scope, expiresInDays } = input.body;
  const taken = () =>
    conflict(`A token named ${name} exists already (revoked ones keep their name).`, {
      errors: [{ field: "name", type: "Duplicate", detail: "a token with this name exists already" }],
    });
  if (await tokenNameTaken(db, name)) throw taken();
  await requireScopes(db, [scope], () => "scope");

  const value = newToken("almanac");
  const expiresAt = expiresInDays === null ? null : new Date(input.now + expiresInDays * DAY_MS);
  try {
    const stored = await db.$transaction(async (tx) => {
      const token = await insertToken(tx, {
        name,
        tokenHash: tokenHash(value),
        role,
        scope,
        createdBy: input.actor,
        expiresAt,
      });
      await recordAuditEvent(tx, {
        actor: input.actor,
        action: "token.create",
        target: { kind: "ApiToken", name },
        changes: [
          ...roleChanges([], [{ role, scope }]),
          { field: "expires", before: null, after: expiresAt?.toISOString() ?? null },
        ],
        requestId: input.requestId,
      });
      return token;
    });
    return { ...tokenJson(stored), value };
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

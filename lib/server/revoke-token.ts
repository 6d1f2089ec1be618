// DELETE /api/v1/tokens/{id}: revokes an API token. Every request looks its token up, so the next
// one with this token is refused (401).
import type { ApiTokenJson } from "../api/tokens.ts";
import type { Db } from "../db/client.ts";
import { notFound } from "../api/refusal.ts";
import { revokeToken as storeRevoke } from "../store/api-tokens.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { tokenJson } from "./account-view.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function revokeToken(
  db: Db,
  input: { id: string; actor: string; requestId: string; now: number },
): Promise<ApiTokenJson> {
  const missing = () => notFound(`There is no API token with the id ${input.id}.`);
  if (!UUID.test(input.id)) throw missing();
  return db.$transaction(async (tx) => {
    const result = await storeRevoke(tx, input.id, new Date(input.now));
    if (!result) throw missing();
    if (result.revokedNow) {
      await recordAuditEvent(tx, {
        actor: input.actor,
        action: "token.revoke",
        target: { kind: "ApiToken", name: result.token.name },
        changes: [{ field: "revoked", before: null, after: result.token.revokedAt?.toISOString() ?? null }],
        requestId: input.requestId,
      });
    }
    return tokenJson(result.token);
  });
}

// GET /api/v1/audit: the audit log, newest first, filterable, paged by event id. A caller without
// a landscape-wide role sees the events on their projects' namespaces only: events without a
// namespace (accounts, tokens, sign-ins, the landscape) are the landscape's business.
import type { AuditAnswer } from "../api/audit.ts";
import type { AuditParams } from "../api/operations/audit.ts";
import type { Db } from "../db/client.ts";
import { listAuditEvents } from "../store/audit.ts";
import { type FleetScope, refuseUnreadable, scopedNamespaces } from "./fleet-scope.ts";

export async function listAudit(db: Db, params: AuditParams, scope: FleetScope): Promise<AuditAnswer> {
  const { cursor, limit, ...filter } = params;
  await refuseUnreadable(db, scope, filter);
  const events = await listAuditEvents(db, {
    ...filter,
    namespaces: scopedNamespaces(scope),
    limit: limit + 1,
    ...(cursor ? { beforeId: BigInt(cursor) } : {}),
  });
  const page = events.slice(0, limit);
  return { items: page, nextCursor: events.length > limit ? page.at(-1)!.id : null };
}

// GET /api/v1/audit: the audit log, newest first, filterable, paged by event id. A caller without
// a landscape-wide role sees the events on their projects' namespaces only: events without a
// namespace (accounts, tokens, sign-ins, the landscape) are the landscape's business.
import { z } from "zod";
import type { AuditAnswer } from "../api/audit.ts";
import type { Db } from "../db/client.ts";
import { listAuditEvents } from "../store/audit.ts";
import { parseQuery } from "../api/parse-query.ts";
import { type FleetScope, refuseUnreadable, scopedNamespaces } from "./fleet-scope.ts";

const isoDate = z
  .string()
  .refine(
    (s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)) && Number(s.slice(0, 4)) >= 1,
    "must be an ISO 8601 date or date-time from year 1 to 9999, like 2026-11-22 or 2026-11-22T10:00:00Z",
  )
  .transform((s) => new Date(s));

export const auditParams = z.strictObject({
  actor: z.string().min(1).max(256).optional(),
  action: z.string().min(1).max(100).optional(),
  kind: z.string().min(1).max(100).optional(),
  namespace: z.string().min(1).max(253).optional(),
  name: z.string().min(1).max(253).optional(),
  since: isoDate.optional(),
  until: isoDate.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, "must be the nextCursor of a previous page")
    .optional(),
});

export function parseAuditParams(search: URLSearchParams) {
  return parseQuery(auditParams, search);
}

export async function listAudit(
  db: Db,
  params: ReturnType<typeof parseAuditParams>,
  scope: FleetScope,
): Promise<AuditAnswer> {
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

// The audit log: append-only (the database refuses UPDATE, DELETE and TRUNCATE), written in the
// same transaction as the change it describes. Its text is made plain on the way in and out
// (lib/engine/plain-text.ts): a sign-in's typed "email" can hold CR/LF or bidi overrides, and
// rows written before that rule are cleaned when read, so pages, exports and logs never see them.
import type { AuditEvent, FieldChange } from "../api/audit.ts";
import { Prisma as PrismaSql } from "../db/generated/client.ts";
import type { Db, Queryable, Tx } from "../db/client.ts";
import { plainText, plainValues } from "../engine/plain-text.ts";
import { bulkActionOfRequest } from "../api/bulk-actions.ts";
import { updateRunOfRequest } from "../api/update-runs.ts";
import { bulkActionRequestIds } from "./bulk-actions.ts";

export interface AuditEventInput {
  readonly actor: string;
  readonly action: string;
  readonly target: AuditEvent["target"];
  readonly changes: readonly FieldChange[];
  readonly requestId?: string;
  /** Defaults to the database's clock. */
  readonly at?: Date;
}

// JSON has no `undefined`: an absent value is recorded as null.
const jsonValue = (v: unknown) => (v === undefined ? null : plainValues(v));
const plainOrNull = (text: string | undefined | null) => (text === undefined || text === null ? null : plainText(text));

/** Many events in one statement (a maintenance batch writes hundreds). */
export async function recordAuditEvents(tx: Queryable, events: readonly AuditEventInput[]): Promise<void> {
  if (events.length === 0) return;
  const col = <T>(pick: (e: AuditEventInput) => T) => events.map(pick);
  await tx.$executeRaw(PrismaSql.sql`
    INSERT INTO audit_events (at, actor, action, target_kind, target_namespace, target_name, changes, request_id)
    SELECT COALESCE(e.at, now()), e.actor, e.action, e.target_kind, e.target_namespace, e.target_name, e.changes, e.request_id
    FROM unnest(${col((e) => e.at ?? null)}::timestamptz[], ${col((e) => plainText(e.actor))}::text[], ${col((e) => e.action)}::text[],
                ${col((e) => e.target.kind)}::text[], ${col((e) => plainOrNull(e.target.namespace))}::text[], ${col((e) => plainOrNull(e.target.name))}::text[],
                ${col((e) => JSON.stringify(e.changes.map((c) => ({ field: plainText(c.field), before: jsonValue(c.before), after: jsonValue(c.after) }))))}::jsonb[],
                ${col((e) => e.requestId ?? null)}::text[])
      AS e(at, actor, action, target_kind, target_namespace, target_name, changes, request_id)`);
}

export async function recordAuditEvent(tx: Queryable, event: AuditEventInput): Promise<void> {
  await recordAuditEvents(tx, [event]);
}

export interface AuditQuery {
  /** A part of the actor's name, matched case-insensitively ("alice" finds "Alice@example.com"). */
  readonly actor?: string;
  readonly action?: string;
  readonly kind?: string;
  readonly namespace?: string;
  /** Only events on these namespaces (a caller's readable ones): events without one are left out. */
  readonly namespaces?: readonly string[];
  readonly name?: string;
  /** Only the events of this bulk action's writes (by their request ids). */
  readonly bulkAction?: string;
  /** Only the events of this update run: its own and its writes (request ids `run:<id>`, `run:<id>:<n>`). */
  readonly updateRun?: string;
  readonly since?: Date;
  readonly until?: Date;
  /** Events older than this id (the previous page's last). */
  readonly beforeId?: bigint;
  readonly limit: number;
}

type AuditRow = Awaited<ReturnType<Db["auditEvent"]["findMany"]>>[number];

function toEvent(row: AuditRow): AuditEvent {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    actor: plainText(row.actor),
    action: row.action,
    target: {
      kind: row.targetKind,
      ...(row.targetNamespace !== null ? { namespace: plainText(row.targetNamespace) } : {}),
      ...(row.targetName !== null ? { name: plainText(row.targetName) } : {}),
    },
    changes: plainValues(row.changes) as FieldChange[],
    ...(row.requestId !== null ? { requestId: row.requestId } : {}),
    ...(bulkActionOfRequest(row.requestId) !== undefined ? { bulkActionId: bulkActionOfRequest(row.requestId) } : {}),
    ...(updateRunOfRequest(row.requestId) !== undefined ? { updateRunId: updateRunOfRequest(row.requestId) } : {}),
  };
}

/** `text` for LIKE: its %, _ and \\ taken literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Newest first. */
export async function listAuditEvents(tx: Tx | Db, query: AuditQuery): Promise<AuditEvent[]> {
  const requestIds = query.bulkAction !== undefined ? await bulkActionRequestIds(tx, query.bulkAction) : undefined;
  const rows = await tx.auditEvent.findMany({
    where: {
      ...(requestIds !== undefined ? { requestId: { in: requestIds } } : {}),
      // A part of the name, any case: Prisma's `contains` is ILIKE '%…%', which leaves the
      // value's own wildcards to us (PostgreSQL's LIKE escape character is the backslash).
      ...(query.actor !== undefined
        ? { actor: { contains: escapeLike(query.actor), mode: "insensitive" as const } }
        : {}),
      ...(query.action !== undefined ? { action: query.action } : {}),
      ...(query.kind !== undefined ? { targetKind: query.kind } : {}),
      ...(query.namespace !== undefined ? { targetNamespace: query.namespace } : {}),
      AND: [
        ...(query.namespaces !== undefined ? [{ targetNamespace: { in: [...query.namespaces] } }] : []),
        ...(query.updateRun !== undefined
          ? [
              {
                OR: [{ requestId: `run:${query.updateRun}` }, { requestId: { startsWith: `run:${query.updateRun}:` } }],
              },
            ]
          : []),
      ],
      ...(query.name !== undefined ? { targetName: query.name } : {}),
      ...(query.since || query.until
        ? { at: { ...(query.since ? { gte: query.since } : {}), ...(query.until ? { lt: query.until } : {}) } }
        : {}),
      ...(query.beforeId !== undefined ? { id: { lt: query.beforeId } } : {}),
    },
    orderBy: { id: "desc" },
    take: query.limit,
  });
  return rows.map(toEvent);
}

// GET /api/v1/audit: the audit log, newest first, filterable, paged by event id. A caller without
// a landscape-wide role sees the events on their projects' namespaces only: events without a
// namespace (accounts, tokens, sign-ins, the landscape) are the landscape's business. One
// exception: asked for one update run's events (`updateRun`) by someone who may read that run
// (the viewer role on each of its projects), its own events (made, approved, paused, each stage;
// they have no namespace) are theirs too.
import type { AuditAnswer } from "../api/audit.ts";
import type { AuditParams } from "../api/operations/audit.ts";
import { allows } from "../api/roles.ts";
import type { Db } from "../db/client.ts";
import { listAuditEvents } from "../store/audit.ts";
import { findUpdateRun } from "../store/update-runs.ts";
import { type FleetScope, refuseUnreadable, scopedNamespaces } from "./fleet-scope.ts";

/** Whether the caller may read the run (as GET /update-runs/{id} judges it). */
async function readsRun(db: Db, scope: FleetScope, runId: string): Promise<boolean> {
  const run = await findUpdateRun(db, runId);
  return run !== undefined && run.projects.every((p) => allows(scope.principal.bindings, "read", p));
}

export async function listAudit(db: Db, params: AuditParams, scope: FleetScope): Promise<AuditAnswer> {
  const { cursor, limit, ...filter } = params;
  await refuseUnreadable(db, scope, filter);
  const namespaces = scopedNamespaces(scope);
  const query = { ...filter, limit: limit + 1, ...(cursor ? { beforeId: BigInt(cursor) } : {}) };
  const [scoped, runOwn] = await Promise.all([
    listAuditEvents(db, { ...query, ...(namespaces ? { namespaces } : {}) }),
    namespaces !== undefined &&
    filter.updateRun !== undefined &&
    filter.namespace === undefined &&
    (filter.kind === undefined || filter.kind === "UpdateRun") &&
    (await readsRun(db, scope, filter.updateRun))
      ? listAuditEvents(db, { ...query, kind: "UpdateRun" })
      : [],
  ]);
  // Both newest first by id; merged, each event once.
  const byId = new Map([...scoped, ...runOwn].map((e) => [e.id, e]));
  const events = [...byId.values()].sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1)).slice(0, limit + 1);
  const page = events.slice(0, limit);
  return { items: page, nextCursor: events.length > limit ? page.at(-1)!.id : null };
}

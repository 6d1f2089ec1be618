// POST|GET /api/v1/bulk-actions and .../{id}/cancel: preview or start a bulk action, follow it,
// list recent ones, cancel one. The shoots are chosen when the action is made (its items); the
// caller's role, and whether an update run under way owns the shoot, are judged per shoot then
// (refused items are never acted on); the work itself is
// the job's (bulk-action-job.ts).
import type {
  BulkActionAnswer,
  BulkActionListAnswer,
  BulkActionName,
  BulkActionRequest,
  BulkActionSummary,
  BulkPreviewAnswer,
  BulkStartAnswer,
} from "../api/bulk-actions.ts";
import { conflict, notFound } from "../api/refusal.ts";
import { allows } from "../api/roles.ts";
import type { GardenIdentity } from "../auth/garden-identity.ts";
import type { ShootKey } from "../garden/shoot-writes.ts";
import { projectOfNamespace } from "../auth/project-of-namespace.ts";
import type { Db } from "../db/client.ts";
import { queueClient } from "../jobs/queue-client.ts";
import { type PgBoss, QUEUES, sendInTx } from "../jobs/queue.ts";
import {
  bulkActionItems,
  cancelBulkAction as cancelStored,
  findBulkAction,
  insertBulkAction,
  listBulkActions as listStored,
  type StoredBulkAction,
} from "../store/bulk-actions.ts";
import { holdStartLock } from "../store/update-runs.ts";
import { previewShoots, runRefusals, startRefusals } from "./bulk-action-preview.ts";
import { bulkChangeOf, selectedShoots } from "./bulk-action-request.ts";
import type { FleetScope } from "./fleet-scope.ts";
import { freezeBlocking } from "./freeze-blocking.ts";

export interface BulkActionCaller {
  readonly scope: FleetScope;
  readonly actor: string;
  readonly identity: GardenIdentity;
}

/**
 * THE place where a bulk action's start checks for a freeze period (issue 29, item 4): the freeze
 * in force now for the projects of the shoots (or landscape-wide) refuses the start, 409 naming it
 * (lib/server/freeze-blocking.ts). A preview is not refused: it changes nothing.
 */
export async function refuseDuringFreeze(
  db: Db,
  shoots: readonly { readonly namespace: string; readonly name: string }[],
  now: number,
): Promise<void> {
  const namespaces = [...new Set(shoots.map((s) => s.namespace))];
  const projects = (await Promise.all(namespaces.map((ns) => projectOfNamespace(db, ns)))).filter(
    (p): p is string => p !== undefined,
  );
  const block = await freezeBlocking({ at: now, projects }, db);
  if (block) throw block.refusal;
}

export async function previewOrStartBulkAction(
  db: Db,
  body: BulkActionRequest,
  caller: BulkActionCaller,
  now: number,
  boss: () => Promise<PgBoss> | PgBoss = queueClient,
): Promise<
  | { readonly dryRun: true; readonly answer: BulkPreviewAnswer }
  | { readonly dryRun: false; readonly answer: BulkStartAnswer }
> {
  const params = body.params ?? {};
  const change = bulkChangeOf(body.action, params);
  const action = body.action as BulkActionName;
  const keys = await selectedShoots(db, body, caller.scope, now);
  const principal = caller.scope.principal;
  if (body.dryRun) {
    const items = await previewShoots(db, keys, change, principal, now);
    const count = (o: string) => items.filter((i) => i.outcome === o).length;
    return {
      dryRun: true,
      answer: {
        action,
        total: items.length,
        counts: { act: count("act"), unchanged: count("unchanged"), refused: count("refused") },
        items,
      },
    };
  }
  // The caller's role and the update runs under way, judged now; a refused shoot is never acted on.
  const refusals = await startRefusals(db, keys, principal);
  // Only the shoots the caller may act on: another project's freeze is not theirs to hear of.
  await refuseDuringFreeze(
    db,
    keys.filter((_, i) => refusals[i] === undefined),
    now,
  );
  const jobs = await boss();
  const id = await db.$transaction(async (tx) => {
    // A run started since the check above owns its shoots by now: under the lock runs are started
    // with, the shoots still open are checked again, so the two never both take a cluster.
    await holdStartLock(tx);
    const late = await runRefusals(
      tx,
      keys.filter((_, i) => refusals[i] === undefined),
    );
    const refusalOf = (key: ShootKey, i: number) => refusals[i] ?? late.get(`${key.namespace}/${key.name}`);
    const made = await insertBulkAction(tx, {
      action,
      params,
      selection: body.filter !== undefined ? { filter: body.filter } : { shoots: keys },
      actor: caller.actor,
      identity: caller.identity,
      items: keys.map((key, i) => {
        const refused = refusalOf(key, i);
        return { ...key, ...(refused !== undefined ? { refused } : {}) };
      }),
    });
    await sendInTx(jobs, tx, QUEUES.bulkAction, { bulkActionId: made }, { singletonKey: made });
    return made;
  });
  return { dryRun: false, answer: { id, total: keys.length } };
}

function summaryOf(stored: StoredBulkAction): BulkActionSummary {
  const total = Object.values(stored.counts).reduce((a, b) => a + b, 0);
  const open = stored.counts.Pending + stored.counts.Acting;
  return {
    id: stored.id,
    action: stored.action as BulkActionName,
    params: stored.params,
    state: stored.state,
    actor: stored.actor,
    createdAt: stored.createdAt.toISOString(),
    ...(stored.finishedAt ? { finishedAt: stored.finishedAt.toISOString() } : {}),
    total,
    counts: stored.counts,
    progress: total === 0 ? 1 : (total - open) / total,
  };
}

/** Who may see a bulk action: whoever started it, and anyone who reads the whole landscape. */
const maySee = (caller: BulkActionCaller, stored: StoredBulkAction) =>
  stored.actor === caller.actor || allows(caller.scope.principal.bindings, "read");

export async function getBulkAction(db: Db, id: string, caller: BulkActionCaller): Promise<BulkActionAnswer> {
  const stored = await findBulkAction(db, id);
  if (!stored || !maySee(caller, stored)) throw notFound(`There is no bulk action ${id}.`);
  const items = await bulkActionItems(db, id);
  return {
    ...summaryOf(stored),
    items: items.map((i) => ({
      namespace: i.namespace,
      name: i.name,
      state: i.state,
      ...(i.message !== null ? { message: i.message } : {}),
      changes: i.changes,
    })),
  };
}

export async function listBulkActions(
  db: Db,
  query: { readonly limit: number; readonly cursor?: string },
  caller: BulkActionCaller,
): Promise<BulkActionListAnswer> {
  const rows = await listStored(db, {
    actor: allows(caller.scope.principal.bindings, "read") ? undefined : caller.actor,
    beforeSeq: query.cursor !== undefined ? BigInt(query.cursor) : undefined,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(summaryOf),
    nextCursor: rows.length > query.limit ? String(page.at(-1)!.seq) : null,
  };
}

/** Cancels a running action (its starter, or a landscape admin); finished ones are 409. */
export async function cancelBulkAction(db: Db, id: string, caller: BulkActionCaller): Promise<BulkActionAnswer> {
  const stored = await findBulkAction(db, id);
  if (!stored || !maySee(caller, stored)) throw notFound(`There is no bulk action ${id}.`);
  if (stored.actor !== caller.actor && !allows(caller.scope.principal.bindings, "administer"))
    throw conflict(`Bulk action ${id} was started by ${stored.actor}; only they or an admin may cancel it.`);
  const cancelled = await db.$transaction((tx) =>
    cancelStored(tx, id, `Cancelled by ${caller.actor} before it was acted on.`),
  );
  if (!cancelled) throw conflict(`Bulk action ${id} has ended (${stored.state}); there is nothing to cancel.`);
  return getBulkAction(db, id, caller);
}

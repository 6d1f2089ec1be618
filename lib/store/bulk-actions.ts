// The bulk actions and their shoots (bulk_actions, bulk_action_items). An item's state moves
// Pending -> Acting -> Succeeded | Failed | Refused | Cancelled, every move a conditional UPDATE
// under the row's lock, so that no two workers ever take the same item the same way.
import { Prisma as PrismaSql } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";
import type { BulkActionState, BulkItemState, FieldChange } from "../api/bulk-actions.ts";
import { bulkRequestId } from "../api/bulk-actions.ts";
import { jobItemRows } from "./job-item-rows.ts";

export interface NewBulkItem {
  readonly namespace: string;
  readonly name: string;
  /** Refused already (the caller's role on the shoot): never acted on. */
  readonly refused?: string;
}

export interface NewBulkAction {
  readonly action: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly selection: unknown;
  readonly actor: string;
  readonly identity: unknown;
  readonly items: readonly NewBulkItem[];
}

/** Writes the action and its shoots (the selection's snapshot); answers its id. */
export async function insertBulkAction(tx: Queryable, action: NewBulkAction): Promise<string> {
  const [row] = await rawQuery<{ id: string }>(
    tx,
    PrismaSql.sql`INSERT INTO bulk_actions (id, action, params, selection, actor, identity)
      VALUES (gen_random_uuid(), ${action.action}, ${JSON.stringify(action.params)}::jsonb,
              ${JSON.stringify(action.selection)}::jsonb, ${action.actor}, ${JSON.stringify(action.identity)}::jsonb)
      RETURNING id::text`,
  );
  const id = row!.id;
  const items = action.items;
  if (items.length > 0) {
    await tx.$executeRaw(PrismaSql.sql`
      INSERT INTO bulk_action_items (bulk_action_id, position, namespace, name, request_id, state, message)
      SELECT ${id}::uuid, i.position, i.namespace, i.name, i.request_id, i.state, i.message
      FROM unnest(${items.map((_, p) => p)}::int[], ${items.map((i) => i.namespace)}::text[],
                  ${items.map((i) => i.name)}::text[], ${items.map((_, p) => bulkRequestId(id, p))}::text[],
                  ${items.map((i) => (i.refused !== undefined ? "Refused" : "Pending"))}::text[],
                  ${items.map((i) => i.refused ?? null)}::text[])
        AS i(position, namespace, name, request_id, state, message)`);
  }
  return id;
}

export interface StoredBulkAction {
  readonly id: string;
  readonly seq: bigint;
  readonly action: string;
  readonly params: Record<string, unknown>;
  readonly actor: string;
  readonly identity: unknown;
  readonly state: BulkActionState;
  readonly createdAt: Date;
  readonly finishedAt: Date | null;
  readonly counts: Record<BulkItemState, number>;
}

export interface StoredBulkItem {
  readonly position: number;
  readonly namespace: string;
  readonly name: string;
  readonly requestId: string;
  readonly state: BulkItemState;
  readonly message: string | null;
  readonly changes: FieldChange[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface ActionRow {
  id: string;
  seq: bigint;
  action: string;
  params: Record<string, unknown>;
  actor: string;
  identity: unknown;
  state: BulkActionState;
  created_at: Date;
  finished_at: Date | null;
  counts: Record<string, number> | null;
}

const toAction = (r: ActionRow): StoredBulkAction => ({
  id: r.id,
  seq: BigInt(r.seq),
  action: r.action,
  params: r.params,
  actor: r.actor,
  identity: r.identity,
  state: r.state,
  createdAt: r.created_at,
  finishedAt: r.finished_at,
  counts: {
    Pending: 0,
    Acting: 0,
    Succeeded: 0,
    Failed: 0,
    Refused: 0,
    Cancelled: 0,
    ...(r.counts ?? {}),
  },
});

const actionColumns = PrismaSql.sql`a.id::text, a.seq, a.action, a.params, a.actor, a.identity, a.state, a.created_at, a.finished_at,
  (SELECT jsonb_object_agg(state, n) FROM (SELECT state, count(*)::int AS n FROM bulk_action_items i
     WHERE i.bulk_action_id = a.id GROUP BY state) c) AS counts`;

export async function findBulkAction(db: Queryable, id: string): Promise<StoredBulkAction | undefined> {
  if (!UUID.test(id)) return undefined;
  const [row] = await rawQuery<ActionRow>(
    db,
    PrismaSql.sql`SELECT ${actionColumns} FROM bulk_actions a WHERE a.id = ${id}::uuid`,
  );
  return row ? toAction(row) : undefined;
}

/** Only the action's state (what a shoot's turn asks: was it cancelled?), without counting its items. */
export async function bulkActionState(db: Queryable, id: string): Promise<BulkActionState | undefined> {
  const [row] = await rawQuery<{ state: BulkActionState }>(
    db,
    PrismaSql.sql`SELECT state FROM bulk_actions WHERE id = ${id}::uuid`,
  );
  return row?.state;
}

/** Newest first; `actor`: only theirs; `beforeSeq`: older than the previous page's last. */
export async function listBulkActions(
  db: Queryable,
  query: { readonly actor?: string; readonly beforeSeq?: bigint; readonly limit: number },
): Promise<StoredBulkAction[]> {
  const rows = await rawQuery<ActionRow>(
    db,
    PrismaSql.sql`SELECT ${actionColumns} FROM bulk_actions a
      WHERE (${query.actor ?? null}::text IS NULL OR a.actor = ${query.actor ?? null}::text)
        AND (${query.beforeSeq ?? null}::bigint IS NULL OR a.seq < ${query.beforeSeq ?? null}::bigint)
      ORDER BY a.seq DESC LIMIT ${query.limit}`,
  );
  return rows.map(toAction);
}

interface ItemRow {
  position: number;
  namespace: string;
  name: string;
  request_id: string;
  state: BulkItemState;
  message: string | null;
  changes: FieldChange[];
}

const toItem = (r: ItemRow): StoredBulkItem => ({
  position: r.position,
  namespace: r.namespace,
  name: r.name,
  requestId: r.request_id,
  state: r.state,
  message: r.message,
  changes: r.changes,
});

export async function bulkActionItems(db: Queryable, id: string): Promise<StoredBulkItem[]> {
  const rows = await rawQuery<ItemRow>(
    db,
    PrismaSql.sql`SELECT position, namespace, name, request_id, state, message, changes FROM bulk_action_items
      WHERE bulk_action_id = ${id}::uuid ORDER BY position`,
  );
  return rows.map(toItem);
}

/** The request ids of a bulk action's writes (to find its audit events). */
export async function bulkActionRequestIds(db: Queryable, id: string): Promise<string[]> {
  if (!UUID.test(id)) return [];
  const rows = await rawQuery<{ request_id: string }>(
    db,
    PrismaSql.sql`SELECT request_id FROM bulk_action_items WHERE bulk_action_id = ${id}::uuid`,
  );
  return rows.map((r) => r.request_id);
}

/** Items still to settle (Pending, or Acting left by a worker that died), in order. */
export async function openItems(
  db: Queryable,
  id: string,
  limit: number,
): Promise<{ position: number; namespace: string; name: string }[]> {
  return rawQuery<{ position: number; namespace: string; name: string }>(
    db,
    PrismaSql.sql`SELECT position, namespace, name FROM bulk_action_items
      WHERE bulk_action_id = ${id}::uuid AND state IN ('Pending', 'Acting') ORDER BY position LIMIT ${limit}`,
  );
}

/** The running bulk actions that still have shoots to act on. */
export async function unfinishedBulkActions(db: Queryable): Promise<string[]> {
  const rows = await rawQuery<{ id: string }>(
    db,
    PrismaSql.sql`SELECT a.id::text AS id FROM bulk_actions a WHERE a.state = 'Running'
      AND EXISTS (SELECT 1 FROM bulk_action_items i WHERE i.bulk_action_id = a.id AND i.state IN ('Pending', 'Acting'))
      ORDER BY a.created_at`,
  );
  return rows.map((r) => r.id);
}

const itemRows = jobItemRows<ItemRow, StoredBulkItem, BulkItemState>({
  table: "bulk_action_items",
  parent: "bulk_action_id",
  lockKey: "bulk-action",
  columns: PrismaSql.sql`position, namespace, name, request_id, state, message, changes`,
  toItem,
});

export const lockBulkItem = itemRows.lock;
export const moveBulkItem = itemRows.move;
export const holdBulkItem = itemRows.hold;

/** Cancels a running action: Pending items become Cancelled. Answers whether it was running. */
export async function cancelBulkAction(tx: Queryable, id: string, message: string): Promise<boolean> {
  const cancelled = await tx.$executeRaw(PrismaSql.sql`
    UPDATE bulk_actions SET state = 'Cancelled', finished_at = now() WHERE id = ${id}::uuid AND state = 'Running'`);
  if (cancelled === 0) return false;
  await tx.$executeRaw(PrismaSql.sql`
    UPDATE bulk_action_items SET state = 'Cancelled', message = ${message}, updated_at = now()
    WHERE bulk_action_id = ${id}::uuid AND state = 'Pending'`);
  return true;
}

/**
 * Ends a running action whose items are all settled: Succeeded when every one succeeded or had
 * nothing to do, else Failed. Answers the state it ended in (undefined: not ended now).
 */
export async function finishBulkAction(tx: Queryable, id: string): Promise<BulkActionState | undefined> {
  const [row] = await rawQuery<{ state: BulkActionState }>(
    tx,
    PrismaSql.sql`UPDATE bulk_actions a SET state = CASE WHEN EXISTS (
          SELECT 1 FROM bulk_action_items i WHERE i.bulk_action_id = a.id AND i.state IN ('Failed', 'Refused'))
        THEN 'Failed' ELSE 'Succeeded' END, finished_at = now()
      WHERE a.id = ${id}::uuid AND a.state = 'Running'
        AND NOT EXISTS (SELECT 1 FROM bulk_action_items i WHERE i.bulk_action_id = a.id AND i.state IN ('Pending', 'Acting'))
      RETURNING a.state`,
  );
  return row?.state;
}

/**
 * The audit event a write with this request id left, if any (both gardens write one per accepted
 * change). A live garden's "outcome-unknown" event says the opposite: nobody could tell.
 */
export async function auditedWrite(
  db: Queryable,
  requestId: string,
): Promise<{ readonly action: string; readonly changes: FieldChange[] } | undefined> {
  const [row] = await rawQuery<{ action: string; changes: FieldChange[] }>(
    db,
    PrismaSql.sql`SELECT action, changes FROM audit_events
      WHERE request_id = ${requestId} AND action NOT LIKE '%.outcome-unknown' ORDER BY id LIMIT 1`,
  );
  return row;
}

/**
 * A live garden's write intent for this request id (lib/store/garden-write-intents.ts), if one was
 * written: its state says whether the garden was asked and what it answered, when it is known.
 */
export async function writeIntentState(
  db: Queryable,
  key: { readonly namespace: string; readonly name: string },
  requestId: string,
): Promise<string | undefined> {
  const [row] = await rawQuery<{ state: string }>(
    db,
    PrismaSql.sql`SELECT state FROM garden_write_intents
      WHERE namespace = ${key.namespace} AND name = ${key.name} AND request_id = ${requestId}
      ORDER BY created_at DESC LIMIT 1`,
  );
  return row?.state;
}

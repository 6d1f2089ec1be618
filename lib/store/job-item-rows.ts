// The rows of the shoots a job works through one by one (bulk_action_items, update_run_items):
// locked for a transaction, moved on only from a state it expects, and held by one worker at a time.
// Both jobs keep their items alike (lib/server/act-once.ts: lock, move, hold); only the table,
// its parent's column and the item's shape differ.
import type { FieldChange } from "../api/audit.ts";
import { type Queryable, rawQuery } from "../db/client.ts";
import { Prisma as PrismaSql } from "../db/generated/client.ts";

interface ItemTable<Row, Item> {
  /** The items' table and the column naming their job (constants, never a caller's text). */
  readonly table: "bulk_action_items" | "update_run_items";
  readonly parent: "bulk_action_id" | "run_id";
  /** What an item's advisory lock is keyed by, with the job's id. */
  readonly lockKey: "bulk-action" | "update-run";
  readonly columns: PrismaSql.Sql;
  readonly toItem: (row: Row) => Item;
}

export interface JobItemRows<Item, State extends string> {
  /** The item, its row locked until the transaction ends. */
  lock(tx: Queryable, id: string, position: number): Promise<Item | undefined>;
  /** Moves the item from one of `from` to `to`; false when another worker, or a cancel, moved it first. */
  move(
    tx: Queryable,
    id: string,
    position: number,
    from: readonly State[],
    to: State,
    outcome?: { readonly message?: string; readonly changes?: readonly FieldChange[] },
  ): Promise<boolean>;
  /**
   * Holds the item for this transaction, if no other worker holds it (a transaction-level advisory
   * lock: it ends with the worker's connection, so a killed worker's items are free again).
   */
  hold(tx: Queryable, id: string, position: number): Promise<boolean>;
}

export function jobItemRows<Row, Item, State extends string>(spec: ItemTable<Row, Item>): JobItemRows<Item, State> {
  const table = PrismaSql.raw(spec.table);
  const parent = PrismaSql.raw(spec.parent);
  return {
    async lock(tx, id, position) {
      const [row] = await rawQuery<Row>(
        tx,
        PrismaSql.sql`SELECT ${spec.columns} FROM ${table}
          WHERE ${parent} = ${id}::uuid AND position = ${position} FOR UPDATE`,
      );
      return row ? spec.toItem(row) : undefined;
    },
    async move(tx, id, position, from, to, outcome = {}) {
      const moved = await tx.$executeRaw(PrismaSql.sql`
        UPDATE ${table} SET state = ${to}, updated_at = now(),
          message = COALESCE(${outcome.message ?? null}::text, message),
          changes = COALESCE(${outcome.changes ? JSON.stringify(outcome.changes) : null}::jsonb, changes)
        WHERE ${parent} = ${id}::uuid AND position = ${position} AND state = ANY(${[...from]}::text[])`);
      return moved === 1;
    },
    async hold(tx, id, position) {
      const [row] = await rawQuery<{ held: boolean }>(
        tx,
        PrismaSql.sql`SELECT pg_try_advisory_xact_lock(hashtext(${`${spec.lockKey}:${id}`}), ${position}) AS held`,
      );
      return row!.held;
    },
  };
}

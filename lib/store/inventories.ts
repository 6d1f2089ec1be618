// What runs inside each shoot (webhooks, CA certificates, resources), as the simulated garden knows it.
import { Prisma } from "../db/generated/client.ts";
import type pg from "pg";
import type { Queryable, Tx } from "../db/client.ts";
import { copyRows } from "../db/copy-rows.ts";
import type { ShootInventory } from "../engine/shoot-inventory.ts";

export async function insertInventories(
  tx: Tx,
  rows: readonly { namespace: string; name: string; inventory: ShootInventory }[],
): Promise<void> {
  if (rows.length === 0) return;
  // Column arrays rather than createMany, which walks every JSON document it is given (slow for
  // a 100,000-shoot seed).
  await tx.$executeRaw(Prisma.sql`
    INSERT INTO shoot_inventories (namespace, name, document)
    SELECT * FROM unnest(${rows.map((r) => r.namespace)}::text[], ${rows.map((r) => r.name)}::text[],
                         ${rows.map((r) => JSON.stringify(r.inventory))}::jsonb[])`);
}

/** The same rows as insertInventories, through COPY on the caller's transaction's `connection`. */
export async function copyInventories(
  connection: pg.ClientBase,
  rows: Iterable<{ namespace: string; name: string; inventory: ShootInventory }>,
): Promise<number> {
  function* values() {
    for (const r of rows) yield [r.namespace, r.name, JSON.stringify(r.inventory)];
  }
  return copyRows(connection, "shoot_inventories", ["namespace", "name", "document"], values());
}

export async function findInventory(
  db: Queryable,
  namespace: string,
  name: string,
): Promise<ShootInventory | undefined> {
  const row = await db.shootInventory.findUnique({ where: { namespace_name: { namespace, name } } });
  return row ? (row.document as unknown as ShootInventory) : undefined;
}

// What runs inside each shoot (webhooks, CA certificates, resources, worker nodes once a roll
// touched them), as the simulated garden knows it. A shoot the demo did not make (created through
// the API) has no inventory until a roll stores its nodes: that row holds the nodes only, and
// findInventory answers it as no inventory, as before.
import { Prisma } from "../db/generated/client.ts";
import type pg from "pg";
import type { Queryable, Tx } from "../db/client.ts";
import { copyRows } from "../db/copy-rows.ts";
import type { NodeRoll } from "../engine/node-roll.ts";
import type { ShootInventory } from "../engine/shoot-inventory.ts";
import type { CriticalComponentFault } from "../engine/simulated-nodes.ts";

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
  const document = row?.document as Partial<ShootInventory> | undefined;
  // A row saveNodeRoll made for a shoot without an inventory holds nodes only.
  return document?.webhookConfigurations ? (document as ShootInventory) : undefined;
}

/** What the shoot's nodes need from its inventory: the stored roll and the demo's fault, if any. */
export async function findNodeInventory(
  db: Queryable,
  namespace: string,
  name: string,
): Promise<Pick<ShootInventory, "nodeRoll" | "criticalComponentFault">> {
  const rows = await db.$queryRaw<{ node_roll: NodeRoll | null; fault: CriticalComponentFault | null }[]>`
    SELECT document->'nodeRoll' AS node_roll, document->'criticalComponentFault' AS fault
    FROM shoot_inventories WHERE namespace = ${namespace} AND name = ${name}`;
  const row = rows[0];
  return {
    ...(row?.node_roll ? { nodeRoll: row.node_roll } : {}),
    ...(row?.fault ? { criticalComponentFault: row.fault } : {}),
  };
}

/** Keeps the shoot's nodes as a roll left them (a nodes-only row for a shoot without an inventory). */
export async function saveNodeRoll(tx: Tx, namespace: string, name: string, roll: NodeRoll): Promise<void> {
  const document = JSON.stringify(roll);
  await tx.$executeRaw`
    INSERT INTO shoot_inventories (namespace, name, document)
    VALUES (${namespace}, ${name}, jsonb_build_object('nodeRoll', ${document}::jsonb))
    ON CONFLICT (namespace, name) DO UPDATE
      SET document = jsonb_set(shoot_inventories.document, '{nodeRoll}', ${document}::jsonb), updated_at = now()`;
}

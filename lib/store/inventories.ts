// What runs inside each shoot (webhooks, CA certificates, resources), as the simulated garden knows it.
import type { Prisma } from "../db/generated/client.ts";
import type { Queryable, Tx } from "../db/client.ts";
import type { ShootInventory } from "../engine/shoot-inventory.ts";

export async function insertInventories(
  tx: Tx,
  rows: readonly { namespace: string; name: string; inventory: ShootInventory }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.shootInventory.createMany({
    data: rows.map((r) => ({
      namespace: r.namespace,
      name: r.name,
      document: r.inventory as unknown as Prisma.InputJsonObject,
    })),
  });
}

export async function findInventory(
  db: Queryable,
  namespace: string,
  name: string,
): Promise<ShootInventory | undefined> {
  const row = await db.shootInventory.findUnique({ where: { namespace_name: { namespace, name } } });
  return row ? (row.document as unknown as ShootInventory) : undefined;
}

// Shoot deletions in Postgres: the cleanup flow (lib/engine/deletion-cleanup.ts) as a document.
// Not tied to the shoot row, which the last step removes: the record stays as history.
import type { Queryable, Tx } from "../db/client.ts";
import type { Prisma } from "../db/generated/client.ts";
import type { Deletion } from "../engine/deletion-cleanup.ts";

export interface StoredDeletion {
  readonly id: string;
  readonly namespace: string;
  readonly name: string;
  readonly actor: string;
  readonly flow: Deletion;
}

export async function insertDeletion(
  tx: Tx,
  d: { namespace: string; name: string; actor: string; flow: Deletion },
  /** The id, when it was chosen before (a live garden's write intent). */
  id?: string,
): Promise<string> {
  const row = await tx.shootDeletion.create({
    data: {
      ...(id !== undefined ? { id } : {}),
      namespace: d.namespace,
      name: d.name,
      actor: d.actor,
      state: d.flow.state,
      flow: d.flow as unknown as Prisma.InputJsonObject,
    },
  });
  return row.id;
}

/** One deletion, locked until the transaction ends. */
export async function lockDeletion(tx: Tx, id: string): Promise<StoredDeletion | undefined> {
  const rows = await tx.$queryRaw<StoredDeletion[]>`
    SELECT id::text AS id, namespace, name, actor, flow FROM shoot_deletions WHERE id = ${id}::uuid FOR UPDATE`;
  return rows[0];
}

export async function saveDeletion(tx: Tx, id: string, flow: Deletion): Promise<void> {
  await tx.shootDeletion.update({
    where: { id },
    data: {
      flow: flow as unknown as Prisma.InputJsonObject,
      state: flow.state,
      finishedAt: flow.finishedAt ? new Date(flow.finishedAt) : null,
    },
  });
}

/** The latest deletion of a shoot (also after the shoot is gone). */
export async function latestDeletion(
  db: Queryable,
  namespace: string,
  name: string,
): Promise<StoredDeletion | undefined> {
  const row = await db.shootDeletion.findFirst({ where: { namespace, name }, orderBy: { createdAt: "desc" } });
  return row
    ? { id: row.id, namespace: row.namespace, name: row.name, actor: row.actor, flow: row.flow as unknown as Deletion }
    : undefined;
}

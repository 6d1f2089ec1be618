// Control-plane migrations in Postgres: the flow state as a document, with its shoot and seeds.
import type { Migration } from "../engine/migration-flow.ts";
import type { Prisma } from "../db/generated/client.ts";
import type { Queryable, Tx } from "../db/client.ts";

export interface StoredMigration {
  readonly id: string;
  readonly namespace: string;
  readonly name: string;
  readonly actor: string;
  readonly flow: Migration;
  readonly createdAt: Date;
}

type Row = { id: string; namespace: string; name: string; actor: string; flow: unknown; createdAt: Date };
const toStored = (row: Row): StoredMigration => ({
  id: row.id,
  namespace: row.namespace,
  name: row.name,
  actor: row.actor,
  flow: row.flow as Migration,
  createdAt: row.createdAt,
});

export async function insertMigration(
  tx: Tx,
  m: { namespace: string; name: string; actor: string; flow: Migration },
  /** The id, when it was chosen before (a live garden's write intent). */
  id?: string,
): Promise<string> {
  const row = await tx.controlPlaneMigration.create({
    data: {
      ...(id !== undefined ? { id } : {}),
      namespace: m.namespace,
      name: m.name,
      actor: m.actor,
      source: m.flow.source,
      destination: m.flow.destination,
      state: m.flow.state,
      flow: m.flow as unknown as Prisma.InputJsonObject,
    },
  });
  return row.id;
}

/** One migration, locked until the transaction ends. */
export async function lockMigration(tx: Tx, id: string): Promise<StoredMigration | undefined> {
  const rows = await tx.$queryRaw<
    { id: string; namespace: string; name: string; actor: string; flow: unknown; created_at: Date }[]
  >`
    SELECT id::text AS id, namespace, name, actor, flow, created_at FROM control_plane_migrations WHERE id = ${id}::uuid FOR UPDATE`;
  return rows[0] ? toStored({ ...rows[0], createdAt: rows[0].created_at }) : undefined;
}

export async function saveMigration(tx: Tx, id: string, flow: Migration): Promise<void> {
  await tx.controlPlaneMigration.update({
    where: { id },
    data: {
      state: flow.state,
      flow: flow as unknown as Prisma.InputJsonObject,
      finishedAt: flow.finishedAt ? new Date(flow.finishedAt) : null,
    },
  });
}

export async function latestMigration(
  db: Queryable,
  namespace: string,
  name: string,
): Promise<StoredMigration | undefined> {
  const row = await db.controlPlaneMigration.findFirst({ where: { namespace, name }, orderBy: { createdAt: "desc" } });
  return row ? toStored(row) : undefined;
}

/**
 * Migrations across the fleet (or of shoots in `namespaces`), newest first; running ones
 * (Processing, Error) when `active`.
 */
export async function listMigrations(
  db: Queryable,
  options: { active?: boolean; namespaces?: readonly string[]; limit: number },
): Promise<StoredMigration[]> {
  const rows = await db.controlPlaneMigration.findMany({
    where: {
      ...(options.active ? { state: { in: ["Processing", "Error"] } } : {}),
      ...(options.namespaces !== undefined ? { namespace: { in: [...options.namespaces] } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.limit,
  });
  return rows.map(toStored);
}

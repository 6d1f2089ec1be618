// A live garden's writes, before and after the garden answers (the garden_write_intents table).
// The intent is written before the garden is asked; the outcome after it. Recording an accepted
// write (its audit event, its migration or deletion record, the intent's state) touches no shoot
// row's lock but the migration's foreign key, so the mirror's long transactions cannot hold it for
// long; whoever records it first (the writer, or a later pass) does so once: the intent row is
// locked and its state checked.
import { Prisma as PrismaSql } from "../db/generated/client.ts";
import type { Prisma } from "../db/generated/client.ts";
import type { Queryable, Tx } from "../db/client.ts";
import type { Deletion } from "../engine/deletion-cleanup.ts";
import type { Migration } from "../engine/migration-flow.ts";
import type { FieldChange } from "../engine/shoot-patch.ts";
import { recordAuditEvent } from "./audit.ts";
import { insertDeletion } from "./deletions.ts";
import { insertMigration } from "./migrations.ts";

export type IntentState = "pending" | "accepted" | "recorded" | "refused" | "unknown";

/** What a change records beside its audit event. */
export type IntendedRecord =
  { readonly kind: "migration"; readonly flow: Migration } | { readonly kind: "deletion"; readonly flow: Deletion };

export interface WriteIntent {
  readonly id: string;
  readonly createdAt: Date;
  readonly actor: string;
  readonly requestId?: string;
  readonly action: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid?: string;
  readonly state: IntentState;
  readonly changes: readonly FieldChange[];
  readonly record?: IntendedRecord;
  /** The record's id, chosen before the garden is asked. */
  readonly recordId?: string;
}

export interface NewWriteIntent {
  readonly actor: string;
  readonly requestId?: string;
  readonly action: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid?: string;
  readonly changes: readonly FieldChange[];
  readonly record?: IntendedRecord;
}

type Row = Awaited<ReturnType<Tx["gardenWriteIntent"]["findMany"]>>[number];

const json = (value: unknown) => JSON.parse(JSON.stringify(value ?? null)) as Prisma.InputJsonValue;

function toIntent(row: Row): WriteIntent {
  const record =
    row.recordKind && row.record
      ? ({ kind: row.recordKind, flow: row.record } as unknown as IntendedRecord)
      : undefined;
  return {
    id: row.id,
    createdAt: row.createdAt,
    actor: row.actor,
    ...(row.requestId !== null ? { requestId: row.requestId } : {}),
    action: row.action,
    namespace: row.namespace,
    name: row.name,
    ...(row.uid !== null ? { uid: row.uid } : {}),
    state: row.state as IntentState,
    changes: row.changes as unknown as FieldChange[],
    ...(record ? { record } : {}),
    ...(row.recordId !== null ? { recordId: row.recordId } : {}),
  };
}

/** Writes the intent (state pending) before the garden is asked; answers it with its record's id. */
export async function insertWriteIntent(db: Queryable, intent: NewWriteIntent): Promise<WriteIntent> {
  const row = await db.gardenWriteIntent.create({
    data: {
      actor: intent.actor,
      requestId: intent.requestId ?? null,
      action: intent.action,
      namespace: intent.namespace,
      name: intent.name,
      uid: intent.uid ?? null,
      changes: json(intent.changes),
      recordKind: intent.record?.kind ?? null,
      recordId: intent.record ? crypto.randomUUID() : null,
      record: intent.record ? json(intent.record.flow) : PrismaSql.DbNull,
    },
  });
  return toIntent(row);
}

/** The intent, locked until the transaction ends, while it is still in one of `states`. */
async function lockIntent(tx: Tx, id: string, states: readonly IntentState[]): Promise<WriteIntent | undefined> {
  const ids = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM garden_write_intents WHERE id = ${id}::uuid AND state = ANY(${[...states]}) FOR UPDATE`;
  if (ids.length === 0) return undefined;
  const row = await tx.gardenWriteIntent.findUnique({ where: { id } });
  return row ? toIntent(row) : undefined;
}

/** The garden refused: nothing to record. */
export async function markIntentRefused(db: Queryable, id: string): Promise<void> {
  await db.gardenWriteIntent.updateMany({
    where: { id, state: "pending" },
    data: { state: "refused", resolvedAt: new Date() },
  });
}

/**
 * The garden accepted, but its audit event and record could not be written yet: what they are to
 * be, kept in the intent (one small row, no other lock), for a later pass to write.
 */
export async function markIntentAccepted(
  db: Queryable,
  id: string,
  outcome: { readonly changes: readonly FieldChange[]; readonly record?: IntendedRecord },
): Promise<void> {
  await db.gardenWriteIntent.updateMany({
    where: { id, state: "pending" },
    data: {
      state: "accepted",
      changes: json(outcome.changes),
      ...(outcome.record ? { record: json(outcome.record.flow) } : {}),
    },
  });
}

/**
 * Records an accepted write: its audit event, its record (a migration only while its shoot is
 * still mirrored, the table's foreign key), and the intent's state. `outcome` as the garden's
 * answer makes it (by default, as the intent has it). False when the intent was already resolved.
 */
export async function recordAcceptedIntent(
  tx: Tx,
  id: string,
  outcome?: { readonly changes: readonly FieldChange[]; readonly record?: IntendedRecord },
  options: { readonly fromStates?: readonly IntentState[] } = {},
): Promise<boolean> {
  const intent = await lockIntent(tx, id, options.fromStates ?? ["pending", "accepted"]);
  if (!intent) return false;
  const changes = outcome?.changes ?? intent.changes;
  const record = outcome?.record ?? intent.record;
  // The event is dated when the change was asked for, also when a later pass writes it.
  await recordAuditEvent(tx, {
    at: intent.createdAt,
    actor: intent.actor,
    action: intent.action,
    target: { kind: "Shoot", namespace: intent.namespace, name: intent.name },
    changes,
    ...(intent.requestId !== undefined ? { requestId: intent.requestId } : {}),
  });
  const key = { namespace: intent.namespace, name: intent.name, actor: intent.actor };
  if (record?.kind === "deletion") await insertDeletion(tx, { ...key, flow: record.flow }, intent.recordId);
  if (record?.kind === "migration" && (await shootIsMirrored(tx, intent.namespace, intent.name)))
    await insertMigration(tx, { ...key, flow: record.flow }, intent.recordId);
  await tx.gardenWriteIntent.update({ where: { id }, data: { state: "recorded", resolvedAt: new Date() } });
  return true;
}

/**
 * Nobody saw the garden's answer and the mirror cannot tell: the audit log says so (the action
 * with ".outcome-unknown"), and the intent is closed. False when it was already resolved.
 */
export async function recordUnknownIntent(tx: Tx, id: string): Promise<boolean> {
  const intent = await lockIntent(tx, id, ["pending"]);
  if (!intent) return false;
  await recordAuditEvent(tx, {
    at: intent.createdAt,
    actor: intent.actor,
    action: `${intent.action}.outcome-unknown`,
    target: { kind: "Shoot", namespace: intent.namespace, name: intent.name },
    changes: intent.changes,
    ...(intent.requestId !== undefined ? { requestId: intent.requestId } : {}),
  });
  await tx.gardenWriteIntent.update({ where: { id }, data: { state: "unknown", resolvedAt: new Date() } });
  return true;
}

async function shootIsMirrored(tx: Tx, namespace: string, name: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM shoots WHERE namespace = ${namespace} AND name = ${name}`;
  return rows.length > 0;
}

/**
 * Intents a later pass resolves: accepted ones (their outcome is known) at once, pending ones only
 * once `pendingBefore` (their writer is surely done or dead), oldest first.
 */
export async function unresolvedIntents(db: Queryable, pendingBefore: Date, limit = 100): Promise<WriteIntent[]> {
  const rows = await db.gardenWriteIntent.findMany({
    where: { OR: [{ state: "accepted" }, { state: "pending", createdAt: { lt: pendingBefore } }] },
    orderBy: { createdAt: "asc" },
    take: limit,
  });
  return rows.map(toIntent);
}

/** The intents about one shoot, newest first. */
export async function intentsOfShoot(db: Queryable, namespace: string, name: string): Promise<WriteIntent[]> {
  const rows = await db.gardenWriteIntent.findMany({ where: { namespace, name }, orderBy: { createdAt: "desc" } });
  return rows.map(toIntent);
}

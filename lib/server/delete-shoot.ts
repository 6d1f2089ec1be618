// DELETE /api/v1/namespaces/{ns}/shoots/{name}: as Gardener, only with the confirmation
// annotation confirmation.gardener.cloud/deletion=true, and not while a migration runs. Marks the
// shoot deleted and starts the cleanup (lib/engine/deletion-cleanup.ts), in one transaction.
import { noteLocalChange, notifyChange } from "../db/change-feed.ts";
import type { Db } from "../db/client.ts";
import type { Prisma } from "../db/generated/client.ts";
import { cleanupPlan, type Deletion, deletionLastOperation, startDeletion } from "../engine/deletion-cleanup.ts";
import { blockingOperation } from "../engine/migration-admission.ts";
import { recordAuditEvent } from "../garden/embedded/audit.ts";
import { findCloudProfile } from "../garden/embedded/cloud-profiles.ts";
import { findInventory } from "../garden/embedded/inventories.ts";
import { shootColumns } from "../garden/embedded/shoot-columns.ts";
import { findShoot, updateShoot } from "../garden/embedded/shoots.ts";
import { cloudProfileNameOf } from "../gardener/types.ts";
import { conflict, notFound, unprocessable } from "../http/api-error.ts";
import type { PgBoss } from "../jobs/queue.ts";
import { queueDeletionStep } from "../jobs/run-deletion.ts";

export const ANNOTATION_CONFIRM_DELETION = "confirmation.gardener.cloud/deletion";

export async function deleteShoot(db: Db, boss: PgBoss, req: { namespace: string; name: string; actor: string; requestId: string; now: number }) {
  const result = await db.$transaction(async (tx) => {
    const stored = await findShoot(tx, req.namespace, req.name, true);
    if (!stored) throw notFound(`Shoot ${req.namespace}/${req.name} does not exist.`);
    const shoot = stored.shoot;
    if (shoot.metadata.deletionTimestamp) throw conflict(`Shoot ${req.namespace}/${req.name} is already being deleted.`);
    if (shoot.metadata.annotations?.[ANNOTATION_CONFIRM_DELETION] !== "true") {
      throw unprocessable(`Shoot ${req.namespace}/${req.name} must be annotated with ${ANNOTATION_CONFIRM_DELETION}=true before it can be deleted.`,
        [{ field: `metadata.annotations[${ANNOTATION_CONFIRM_DELETION}]`, type: "Forbidden", detail: "set it to \"true\" to confirm the deletion" }]);
    }
    const blocking = blockingOperation(shoot);
    if (blocking?.includes("migration")) throw conflict(`Shoot ${req.namespace}/${req.name} cannot be deleted now: ${blocking}.`);
    const inventory = await findInventory(tx, req.namespace, req.name);
    const flow: Deletion = startDeletion(cleanupPlan(shoot, inventory?.resources ?? []), req.now);
    const next = structuredClone(shoot);
    next.metadata.deletionTimestamp = new Date(req.now).toISOString().replace(/\.\d{3}Z$/, "Z");
    next.status = { ...next.status, lastOperation: deletionLastOperation(flow, req.now) };
    const profile = await findCloudProfile(tx, cloudProfileNameOf(shoot) ?? "");
    await updateShoot(tx, next, shootColumns(next, profile, req.now, stored.resourceVersion + 1), stored.resourceVersion);
    const row = await tx.shootDeletion.create({
      data: { namespace: req.namespace, name: req.name, actor: req.actor, state: flow.state, flow: flow as unknown as Prisma.InputJsonObject },
    });
    await recordAuditEvent(tx, {
      actor: req.actor, action: "shoot.delete", requestId: req.requestId,
      target: { kind: "Shoot", namespace: req.namespace, name: req.name },
      changes: [{ field: "metadata.deletionTimestamp", before: null, after: next.metadata.deletionTimestamp }],
    });
    await queueDeletionStep(tx, boss, { deletionId: row.id, phase: "begin", step: 0 });
    await notifyChange(tx, { kind: "Shoot", namespace: req.namespace, name: req.name });
    return { id: row.id, flow };
  });
  noteLocalChange({ kind: "Shoot", namespace: req.namespace, name: req.name });
  return { id: result.id, namespace: req.namespace, name: req.name, steps: result.flow.steps.map((s) => ({ name: s.name, deletes: s.deleted, keeps: s.kept, seconds: s.seconds, forced: s.forced })),
    message: `Shoot ${req.namespace}/${req.name} is being deleted; its resources are cleaned up in ${result.flow.steps.length - 1} steps.` };
}

/** GET .../deletion: the latest deletion of the shoot, with its steps (also after the shoot is gone). */
export async function shootDeletion(db: Db, namespace: string, name: string) {
  const row = await db.shootDeletion.findFirst({ where: { namespace, name }, orderBy: { createdAt: "desc" } });
  if (!row) throw notFound(`Shoot ${namespace}/${name} has not been deleted.`);
  const flow = row.flow as unknown as Deletion;
  const iso = (ms?: number) => (ms === undefined ? null : new Date(ms).toISOString());
  return {
    id: row.id, namespace, name, actor: row.actor, state: flow.state, startedAt: iso(flow.startedAt), finishedAt: iso(flow.finishedAt),
    steps: flow.steps.map((s) => ({ name: s.name, startedAt: iso(s.startedAt), endedAt: iso(s.endedAt), message: s.message ?? null, deletes: s.deleted, keeps: s.kept, forced: s.forced })),
  };
}

// POST .../maintain: "maintain now". Sets gardener.cloud/operation=maintain (as Gardener's users
// do with kubectl annotate) and queues the run, in one transaction; a worker runs it within
// seconds and removes the annotation. Asking again while a run is pending gives no second run.
import { noteLocalChange, notifyChange } from "../db/change-feed.ts";
import type { Db } from "../db/client.ts";
import { maintain } from "../engine/maintain.ts";
import { blockingOperation } from "../engine/migration-admission.ts";
import { maintenanceRecord } from "../engine/maintenance-record.ts";
import { ANNOTATION_OPERATION, hasMaintainNow } from "../engine/operation-annotations.ts";
import { recordAuditEvent } from "../garden/embedded/audit.ts";
import { findCloudProfile } from "../garden/embedded/cloud-profiles.ts";
import { shootColumns } from "../garden/embedded/shoot-columns.ts";
import { findShoot, updateShoot } from "../garden/embedded/shoots.ts";
import { cloudProfileNameOf } from "../gardener/types.ts";
import { conflict, notFound } from "../http/api-error.ts";
import { type PgBoss, QUEUES, sendInTx } from "../jobs/queue.ts";

export interface MaintainNowRequest {
  readonly namespace: string;
  readonly name: string;
  readonly actor: string;
  readonly requestId: string;
  readonly now: number;
}

export async function requestMaintainNow(db: Db, boss: PgBoss, req: MaintainNowRequest) {
  const result = await db.$transaction(async (tx) => {
    const stored = await findShoot(tx, req.namespace, req.name, true);
    if (!stored) throw notFound(`Shoot ${req.namespace}/${req.name} does not exist.`);
    const shoot = stored.shoot;
    if (shoot.metadata.deletionTimestamp) throw conflict(`Shoot ${req.namespace}/${req.name} is being deleted; it is not maintained any more.`);
    const migrating = blockingOperation(shoot);
    if (migrating) throw conflict(`Shoot ${req.namespace}/${req.name} is not maintained now: ${migrating}.`);
    const profile = await findCloudProfile(tx, cloudProfileNameOf(shoot) ?? "");
    // What the run will do, as the worker will compute it (unless the shoot changes first).
    const preview = profile ? maintenanceRecord(maintain(shoot, profile, req.now), shoot.spec) : undefined;
    const plan = {
      changes: preview?.changes ?? [],
      summary: !preview ? `The cloud profile "${cloudProfileNameOf(shoot)}" is missing, so the run will fail.`
        : preview.changes.length === 0 ? "Maintenance will change no versions." : preview.changes.map((c) => c.description).join(" "),
    };
    if (hasMaintainNow(shoot.metadata.annotations)) {
      // Already pending. Send the job again anyway, in case the first was lost: the run checks the
      // annotation under the shoot's lock, so however many jobs there are, one run happens.
      await sendInTx(boss, tx, QUEUES.maintainNow, { namespace: req.namespace, name: req.name });
      return { queued: false, resourceVersion: stored.resourceVersion, plan };
    }
    const before = shoot.metadata.annotations?.[ANNOTATION_OPERATION];
    const next = { ...shoot, metadata: { ...shoot.metadata, annotations: { ...shoot.metadata.annotations, [ANNOTATION_OPERATION]: "maintain" } } };
    const version = await updateShoot(tx, next, shootColumns(next, profile, req.now, stored.resourceVersion + 1), stored.resourceVersion);
    await recordAuditEvent(tx, {
      actor: req.actor, action: "shoot.maintain-now.request", requestId: req.requestId,
      target: { kind: "Shoot", namespace: req.namespace, name: req.name },
      changes: [{ field: `metadata.annotations[${ANNOTATION_OPERATION}]`, before, after: "maintain" }],
    });
    await sendInTx(boss, tx, QUEUES.maintainNow, { namespace: req.namespace, name: req.name });
    await notifyChange(tx, { kind: "Shoot", namespace: req.namespace, name: req.name });
    return { queued: true, resourceVersion: version ?? stored.resourceVersion + 1, plan };
  });
  if (result.queued) noteLocalChange({ kind: "Shoot", namespace: req.namespace, name: req.name });
  return {
    namespace: req.namespace,
    name: req.name,
    queued: result.queued,
    message: result.queued
      ? `Maintenance of ${req.namespace}/${req.name} is queued and runs within seconds.`
      : `Maintenance of ${req.namespace}/${req.name} was already queued; nothing more was queued.`,
    resourceVersion: String(result.resourceVersion),
    plan: result.plan,
  };
}

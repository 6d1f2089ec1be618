// PATCH /api/v1/namespaces/{ns}/shoots/{name}: a user's change, checked by the engine's
// validation, written with its audit event in one transaction. Optimistic concurrency: a
// resourceVersion from If-Match or metadata.resourceVersion must still be current (else 409);
// the row is locked while the change is made, so two writers never interleave.
import { noteLocalChange, notifyChange } from "../db/change-feed.ts";
import type { Db, Tx } from "../db/client.ts";
import { maintenanceSecondOfDay } from "../engine/maintenance-moment.ts";
import { ANNOTATION_OPERATION } from "../engine/operation-annotations.ts";
import { type PgBoss, QUEUES, sendInTx } from "../jobs/queue.ts";
import { scheduleMaintenance } from "../jobs/schedule-maintenance.ts";
import { startReconcileInTx } from "../jobs/start-reconcile.ts";
import { retryMigration } from "../engine/migration-flow.ts";
import { latestMigration, lockMigration, saveMigration } from "../garden/embedded/migrations.ts";
import { queueMigrationStep } from "../jobs/run-migration.ts";
import { blockingOperation } from "../engine/migration-admission.ts";
import { validateShootChange } from "../engine/validate-shoot.ts";
import { hibernationRefusal } from "../engine/webhook-constraints.ts";
import { recordAuditEvent } from "../garden/embedded/audit.ts";
import { findCloudProfile } from "../garden/embedded/cloud-profiles.ts";
import { NOT_MAINTAINED, shootColumns } from "../garden/embedded/shoot-columns.ts";
import { findShoot, updateShoot } from "../garden/embedded/shoots.ts";
import { cloudProfileNameOf, type Shoot } from "../gardener/types.ts";
import { badRequest, conflict, notFound, unprocessable } from "../http/api-error.ts";
import { zodProblems } from "../http/zod-problems.ts";
import { applyShootPatch, changedFields, shootPatchSchema } from "./shoot-patch.ts";

export interface UpdateShootRequest {
  readonly namespace: string;
  readonly name: string;
  readonly body: unknown;
  /** The If-Match header, if any. */
  readonly ifMatch: string | null;
  readonly actor: string;
  readonly requestId: string;
  readonly now: number;
  /** The job queue: follow-up work (new schedule, reconcile, maintain now) is queued with the change. */
  readonly boss?: PgBoss;
}

/**
 * If-Match: `*`, or a list of entity tags like `"7", "8"`. If-Match compares strongly, so a weak
 * tag (`W/"7"`) never matches. Answers the versions that would match, or "*".
 */
export function parseIfMatch(header: string | null): number[] | "*" | undefined {
  if (header === null || header.trim() === "") return undefined;
  const text = header.trim();
  if (text === "*") return "*";
  const versions: number[] = [];
  for (const part of text.split(",").map((p) => p.trim())) {
    const m = /^(W\/)?"(\d{1,15})"$/.exec(part);
    if (!m) throw badRequest(`If-Match must hold entity tags of this API, like "7"; got ${text}.`, [{ field: "header.If-Match", type: "Invalid", detail: `"${part}" is not an entity tag like "7"` }]);
    if (!m[1]) versions.push(Number(m[2]));
  }
  return versions;
}

export async function updateShootFromPatch(db: Db, req: UpdateShootRequest): Promise<Shoot> {
  if (typeof req.body !== "object" || req.body === null || Array.isArray(req.body)) {
    throw badRequest("A JSON merge patch must be a JSON object.");
  }
  const parsed = shootPatchSchema.safeParse(req.body);
  if (!parsed.success) throw badRequest("The patch names fields that cannot be changed, or has values of the wrong type.", zodProblems(parsed.error));
  const patch = parsed.data;
  const ifMatch = parseIfMatch(req.ifMatch);
  const bodyVersion = patch.metadata?.resourceVersion !== undefined ? Number(patch.metadata.resourceVersion) : undefined;

  const updated = await db.$transaction(async (tx) => {
    const stored = await findShoot(tx, req.namespace, req.name, true);
    if (!stored) throw notFound(`Shoot ${req.namespace}/${req.name} does not exist.`);
    const stale = (yours: string) => conflict(
      `Shoot ${req.namespace}/${req.name} was changed since you read it (your resourceVersion ${yours}, now ${stored.resourceVersion}); reload and apply your change again.`,
      { currentResourceVersion: String(stored.resourceVersion) }, { etag: `"${stored.resourceVersion}"` });
    if (Array.isArray(ifMatch) && !ifMatch.includes(stored.resourceVersion)) throw stale(ifMatch.join(" or ") || "(weak tags only)");
    if (bodyVersion !== undefined && bodyVersion !== stored.resourceVersion) throw stale(String(bodyVersion));
    const before = stored.shoot;
    if (before.metadata.deletionTimestamp) throw conflict(`Shoot ${req.namespace}/${req.name} is being deleted; it cannot be changed any more.`);
    const after = applyShootPatch(before, patch);
    // As gardener-apiserver: no spec change and no other operation while the control plane moves.
    const migrating = blockingOperation(before);
    const operation = after.metadata.annotations?.[ANNOTATION_OPERATION];
    if (migrating && (JSON.stringify(before.spec) !== JSON.stringify(after.spec) || (operation && operation !== before.metadata.annotations?.[ANNOTATION_OPERATION]))) {
      throw conflict(`Shoot ${req.namespace}/${req.name} cannot be changed now: ${migrating}.`);
    }
    const changes = changedFields(before, after);
    if (changes.length === 0) return before; // nothing to write, nothing to audit

    const profileName = cloudProfileNameOf(before) ?? "";
    const profile = await findCloudProfile(tx, profileName);
    if (!profile) {
      throw unprocessable(`The shoot's cloud profile "${profileName}" does not exist, so no change can be checked.`,
        [{ field: "spec.cloudProfile.name", type: "NotFound", detail: `cloud profile "${profileName}" not found` }]);
    }
    const problems = validateShootChange(before, after, profile, req.now);
    // gardener-apiserver refuses to hibernate a shoot whose webhooks could keep it from waking up.
    const refusal = after.spec.hibernation?.enabled === true && before.spec.hibernation?.enabled !== true ? hibernationRefusal(before.status?.constraints) : undefined;
    if (refusal) problems.push({ type: "Forbidden", field: "spec.hibernation.enabled", detail: refusal });
    if (problems.length > 0) {
      throw unprocessable(problems.map((p) => `${p.field}: ${p.detail}`).join("; "),
        problems.map((p) => ({ field: p.field, type: p.type, detail: p.detail })));
    }
    const specChanged = JSON.stringify(before.spec) !== JSON.stringify(after.spec);
    if (specChanged) {
      // What was running so far counts as reconciled, so a held change shows as pending.
      after.status = { ...after.status, observedGeneration: before.status?.observedGeneration ?? before.metadata.generation ?? 0 };
      after.metadata.generation = (before.metadata.generation ?? 0) + 1;
    }
    const columns = shootColumns(after, profile, req.now, stored.resourceVersion + 1);
    const version = await updateShoot(tx, after, columns, stored.resourceVersion);
    // The row is locked, so this cannot happen; if it does, say so rather than write half.
    if (version === undefined) throw conflict(`Shoot ${req.namespace}/${req.name} changed during the update; try again.`);
    await recordAuditEvent(tx, {
      actor: req.actor,
      action: "shoot.update",
      target: { kind: "Shoot", namespace: req.namespace, name: req.name },
      changes,
      requestId: req.requestId,
    });
    if (req.boss) await queueFollowUps(tx, req.boss, before, after, columns.maintenanceSecondOfDay, specChanged, req.now);
    await notifyChange(tx, { kind: "Shoot", namespace: req.namespace, name: req.name });
    return { ...after, metadata: { ...after.metadata, resourceVersion: String(version) } };
  });
  noteLocalChange({ kind: "Shoot", namespace: req.namespace, name: req.name });
  return updated;
}

/**
 * What a change sets going: a new maintenance schedule when the window moved; a reconcile when the
 * spec changed (held until the window when confineSpecUpdateRollout is set, as Gardener does),
 * or when a user asked for one (reconcile, retry); a run when a user asked to maintain now.
 */
async function queueFollowUps(tx: Tx, boss: PgBoss, before: Shoot, after: Shoot, secondOfDay: number, specChanged: boolean, now: number): Promise<void> {
  const key = { namespace: after.metadata.namespace ?? "", name: after.metadata.name };
  if (secondOfDay !== NOT_MAINTAINED && secondOfDay !== maintenanceSecondOfDay(before)) {
    await scheduleMaintenance(tx, boss, [{ ...key, secondOfDay }], now);
  }
  const operation = after.metadata.annotations?.[ANNOTATION_OPERATION];
  const asked = operation !== before.metadata.annotations?.[ANNOTATION_OPERATION] ? operation : undefined;
  const failedOperation = after.status?.lastOperation;
  if (asked === "retry" && (failedOperation?.type === "Migrate" || failedOperation?.type === "Restore") && failedOperation.state === "Failed") {
    // A failed migration is what a retry resumes.
    const latest = await latestMigration(tx, key.namespace, key.name);
    if (latest?.flow.state === "Failed") {
      const locked = await lockMigration(tx, latest.id);
      await saveMigration(tx, latest.id, retryMigration(locked!.flow, now));
      await queueMigrationStep(tx, boss, { migrationId: latest.id, phase: "begin" });
      return;
    }
  }
  if (asked === "maintain") {
    await sendInTx(boss, tx, QUEUES.maintainNow, key);
  } else if (asked === "reconcile" || asked === "retry" || (specChanged && !after.spec.maintenance?.confineSpecUpdateRollout)) {
    await startReconcileInTx(tx, boss, { ...key, generation: after.metadata.generation ?? 0 });
  }
}

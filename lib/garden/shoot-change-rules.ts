// How a garden decides on a change to a shoot before it writes anything, shared by both gardens:
// the simulated one writes what these decide, the live one sends the change to Gardener only when
// they let it through (the garden has the last word). What Gardener's API server would decide
// (the engine's rules) is here; the simulated garden's own webhooks and follow-up jobs are not.
import type { Queryable } from "../db/client.ts";
import { ANNOTATION_CONFIRM_DELETION, cleanupPlan, type Deletion, startDeletion } from "../engine/deletion-cleanup.ts";
import type { ClusterResource } from "../engine/deletion-cleanup.ts";
import { validateShootHibernation } from "../engine/hibernation-admission.ts";
import { maintain } from "../engine/maintain.ts";
import { maintenanceRecord } from "../engine/maintenance-record.ts";
import {
  blockingOperation,
  deletionRefusal,
  migrationRefusals,
  shootOnSeedRefusals,
  specChangeRefusal,
} from "../engine/migration-admission.ts";
import { type Migration, startMigration } from "../engine/migration-flow.ts";
import { asksLiveMigration } from "../engine/live-migration.ts";
import { ANNOTATION_OPERATION, hasMaintainNow, pendingOperations } from "../engine/operation-annotations.ts";
import { applyShootPatch, changedFields, type FieldChange, type ShootPatch } from "../engine/shoot-patch.ts";
import { prepareShootForUpdate } from "../engine/shoot-strategy.ts";
import { validateShootChange } from "../engine/validate-shoot.ts";
import { registryMirrorChangeProblems } from "../engine/registry-mirrors.ts";
import type { CloudProfile, Project, Shoot } from "../gardener/types.ts";
import { deletionConfirmed, sameSubjectConfirmed } from "../engine/deletion-confirmation.ts";
import { profileKeyOf } from "../gardener/profile-reference.ts";
import { shootProfile } from "../store/cloud-profiles.ts";
import { findSeed, listSeeds, seedUsage } from "../store/seeds.ts";
import { findShoot, type StoredShoot } from "../store/shoots.ts";
import type { MaintainNowAccepted, Precondition, ShootKey, ShootRefusal } from "./shoot-writes.ts";

type Refused = { readonly refusal: ShootRefusal };

export interface ShootForChange {
  readonly refusal?: undefined;
  readonly stored: StoredShoot;
  readonly shoot: Shoot;
  /** The shoot's cloud profile; undefined when it names one that does not exist. */
  readonly profile: CloudProfile | undefined;
}

/**
 * The shoot a change is about, with its cloud profile; an unknown shoot is NotFound, and one being
 * deleted is BeingDeleted unless `evenWhileDeleting` (migration admission words that itself).
 * With `forUpdate` the row stays locked until the transaction ends.
 */
export async function shootForChange(
  tx: Queryable,
  key: ShootKey,
  options: { forUpdate?: boolean; evenWhileDeleting?: boolean } = {},
): Promise<ShootForChange | Refused> {
  const stored = await findShoot(tx, key.namespace, key.name, options.forUpdate);
  if (!stored) return { refusal: { code: "NotFound" } };
  const shoot = stored.shoot;
  if (shoot.metadata.deletionTimestamp && !options.evenWhileDeleting) return { refusal: { code: "BeingDeleted" } };
  const profile = await shootProfile(tx, shoot);
  return { stored, shoot, profile };
}

/** The caller's optimistic-concurrency precondition against Almanac's resourceVersion of the row. */
export function staleRefusal(precondition: Precondition, current: number): ShootRefusal | undefined {
  const { anyOf, exactly } = precondition;
  if (anyOf && !anyOf.includes(current))
    return { code: "Stale", yours: anyOf.join(" or ") || "(weak tags only)", current };
  if (exactly !== undefined && exactly !== current) return { code: "Stale", yours: String(exactly), current };
  return undefined;
}

const specChanged = (before: Shoot, after: Shoot) => JSON.stringify(before.spec) !== JSON.stringify(after.spec);

export interface JudgedPatch {
  readonly refusal?: undefined;
  /** The shoot as the user asked for it. */
  readonly requested: Shoot;
  /** What gardener-apiserver's strategy makes of it (the generation raised or not, operations consumed). */
  readonly after: Shoot;
  /** What the user asked for, field by field (the audit); empty when the patch changes nothing. */
  readonly changes: readonly FieldChange[];
  /** The operation annotation the patch newly asks for, if any. */
  readonly asked?: string;
}

/**
 * gardener-apiserver's decisions on a user's merge patch: the patch applies, no operation under
 * way forbids it, the cloud profile exists, hibernation is possible, and the shoot's validation and
 * its seed's scheduling rules accept the result. `seedOf` reads a seed when the rules need one.
 */
export async function judgePatch(
  before: Shoot,
  patch: ShootPatch,
  profile: CloudProfile | undefined,
  seedOf: (name: string) => ReturnType<typeof findSeed>,
  now: number,
): Promise<JudgedPatch | Refused> {
  const patched = applyShootPatch(before, patch);
  if (patched.problem) return { refusal: { code: "Invalid", problems: [patched.problem] } };
  const requested = patched.shoot;
  const blocking = blockingOperation(before);
  const operation = requested.metadata.annotations?.[ANNOTATION_OPERATION];
  const asked = operation && operation !== before.metadata.annotations?.[ANNOTATION_OPERATION] ? operation : undefined;
  if (blocking?.code === "Migrating") {
    // gardener-apiserver (admission.go, validateScheduling): no spec change while the shoot is
    // rescheduled to a new seed or in a Migrate or Restore operation, Failed ones included.
    if (specChanged(before, requested))
      return { refusal: { code: "Blocked", operation: blocking, reason: specChangeRefusal(before) } };
    // Almanac's: no other operation meanwhile, but the retry that resumes a Failed migration.
    const resumesFailed = asked === "retry" && before.status?.lastOperation?.state === "Failed";
    if (asked && !resumesFailed) return { refusal: { code: "Blocked", operation: blocking } };
  } else if (blocking && (specChanged(before, requested) || asked)) {
    return { refusal: { code: "Blocked", operation: blocking } };
  }
  const changes = changedFields(before, requested);
  if (changes.length === 0) return { requested, after: before, changes, asked };
  if (!profile) return { refusal: { code: "ProfileMissing", profile: profileKeyOf(before) } };
  const after = prepareShootForUpdate(before, requested);
  // gardener-apiserver's shoot validator refuses to hibernate a shoot unless its
  // HibernationPossible constraint is True (or absent), before it validates the rest.
  const hibernation = validateShootHibernation(before, after);
  if (hibernation) return { refusal: { code: "HibernationNotPossible", ...hibernation } };
  const problems = validateShootChange(before, after, profile, now);
  // The registry-mirror extension's admission webhook (gardener-extension-registry-cache).
  problems.push(...registryMirrorChangeProblems(before, after));
  // gardener-apiserver (admission.go, validateScheduling) on the shoot's seed: three zones for a
  // zone-tolerant control plane; on a seed being deleted, only the deletion confirmation.
  const seed = before.spec.seedName ? await seedOf(before.spec.seedName) : undefined;
  for (const r of shootOnSeedRefusals(before, after, seed))
    problems.push({ type: "Forbidden", field: r.field, detail: r.detail });
  if (problems.length > 0) return { refusal: { code: "Invalid", problems } };
  return { requested, after, changes, asked };
}

/** The seed a patch's rules read, from the mirror or the simulated garden's table. */
export const seedsOf = (tx: Queryable) => (name: string) => findSeed(tx, name);

export type MaintenancePlan = Omit<MaintainNowAccepted, "queued" | "resourceVersion">;

/**
 * What a maintenance run would change if it ran now; `dryRun` answers the failure the garden's
 * webhooks would give the run's update (the simulated garden knows its own).
 */
export function maintenancePlan(
  shoot: Shoot,
  profile: CloudProfile | undefined,
  now: number,
  dryRun?: (maintained: Shoot) => string | undefined,
): MaintenancePlan {
  const outcome = profile ? maintain(shoot, profile, now, dryRun ? { dryRun } : {}) : undefined;
  const preview = outcome ? maintenanceRecord(outcome, shoot.spec) : undefined;
  return {
    changes: preview?.changes ?? [],
    ...(profile ? {} : { missingProfile: profileKeyOf(shoot) }),
    ...(outcome?.rejected && preview?.failureReason ? { failureReason: preview.failureReason } : {}),
  };
}

export interface JudgedMaintainNow {
  readonly refusal?: undefined;
  /** False when the shoot already carries gardener.cloud/operation=maintain. */
  readonly queued: boolean;
  /** The audited change of the annotation. */
  readonly changes: readonly FieldChange[];
}

/**
 * "Maintain now": refused while an operation stands in the way, or another operation asked with
 * the annotation is still pending (Gardener keeps it until done); nothing new when already asked.
 */
export function judgeMaintainNow(shoot: Shoot): JudgedMaintainNow | Refused {
  const blocking = blockingOperation(shoot);
  if (blocking) return { refusal: { code: "Blocked", operation: blocking } };
  const pending = pendingOperations(shoot.metadata.annotations);
  if (pending.length > 0) return { refusal: { code: "OperationPending", operations: pending } };
  if (hasMaintainNow(shoot.metadata.annotations)) return { queued: false, changes: [] };
  const before = shoot.metadata.annotations?.[ANNOTATION_OPERATION];
  return {
    queued: true,
    changes: [{ field: `metadata.annotations[${ANNOTATION_OPERATION}]`, before, after: "maintain" }],
  };
}

export interface JudgedMigration {
  readonly refusal?: undefined;
  /** The migration as it starts. */
  readonly flow: Migration;
  readonly changes: readonly FieldChange[];
}

/** Gardener's admission of a new spec.seedName through shoots/binding, with every reason it refuses. */
export async function judgeMigration(
  tx: Queryable,
  shoot: Shoot,
  destination: string,
  profile: CloudProfile | undefined,
  now: number,
): Promise<JudgedMigration | Refused> {
  const seeds = new Map((await listSeeds(tx)).map((s) => [s.metadata.name, s]));
  const usage = await seedUsage(tx);
  const refusals = migrationRefusals({ shoot, destination, seeds, cloudProfile: profile, seedUsage: usage });
  if (refusals.length > 0) return { refusal: { code: "MigrationRefused", destination, refusals } };
  const flow = startMigration(shoot.status!.seedName!, destination, now);
  return {
    flow: asksLiveMigration(shoot) ? { ...flow, live: true } : flow,
    changes: [{ field: "spec.seedName", before: shoot.spec.seedName ?? shoot.status!.seedName, after: destination }],
  };
}

/** Who deletes, and the shoot's project (whose dualApprovalForDeletion may ask for another subject). */
export interface DeletionApproval {
  readonly project?: Project;
  /** The subject the garden sees deleting; undefined when not known (the garden decides). */
  readonly deleter?: string;
}

/**
 * Gardener's conditions for deleting a shoot: the confirmation annotation (any true boolean),
 * under the project's dual approval a deleter other than the confirmer (deletion-confirmation.ts),
 * and (admission.go,
 * validateDeletion) not during a Migrate operation or an unfinished Restore; a shoot only waiting
 * for its destination may be deleted. Answers the cleanup the deletion runs.
 */
export function judgeDeletion(
  shoot: Shoot,
  inventory: readonly ClusterResource[],
  now: number,
  approval: DeletionApproval = {},
): { readonly refusal?: undefined; readonly flow: Deletion } | Refused {
  if (!deletionConfirmed(shoot))
    return { refusal: { code: "DeletionNotConfirmed", annotation: ANNOTATION_CONFIRM_DELETION } };
  const confirmer =
    approval.deleter !== undefined ? sameSubjectConfirmed(shoot, approval.project, approval.deleter) : undefined;
  if (confirmer !== undefined) return { refusal: { code: "DeletionNeedsAnotherSubject", confirmedBy: confirmer } };
  const blocking = blockingOperation(shoot);
  const refused = deletionRefusal(shoot);
  if (refused && blocking) return { refusal: { code: "Blocked", operation: blocking, reason: refused } };
  return { flow: startDeletion(cleanupPlan(shoot, inventory), now) };
}

/** The audited change of a deletion. */
export const deletionChanges = (deletionTimestamp: string | undefined): FieldChange[] => [
  { field: "metadata.deletionTimestamp", before: null, after: deletionTimestamp },
];

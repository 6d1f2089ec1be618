// What gardener-apiserver does to every update of a shoot before it stores it (Gardener:
// pkg/apiserver/registry/core/shoot/strategy.go, shootStrategy.PrepareForUpdate with
// mustIncreaseGeneration and mustIncreaseGenerationForSpecChanges): whether metadata.generation
// goes up, which is what makes the gardenlet act (it watches with a GenerationChangedPredicate),
// and whether the gardener.cloud/operation annotation is consumed on the way.
import type { Shoot } from "../gardener/types.ts";
import { sshAccessEnabled } from "./credential-rotation.ts";
import { ANNOTATION_OPERATION, ROTATION_OPERATIONS } from "./operation-annotations.ts";

/** Gardener's HibernationIsEnabled. */
export function hibernationIsEnabled(shoot: Pick<Shoot, "spec">): boolean {
  return shoot.spec.hibernation?.enabled === true;
}

/** apimachinery's Semantic.DeepEqual on JSON documents: an absent field equals an undefined one. */
function semanticallyEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => semanticallyEqual(x, b[i]));
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!semanticallyEqual(ao[k], bo[k])) return false;
  return true;
}

/**
 * Gardener's mustIncreaseGenerationForSpecChanges: any spec change, except that with
 * spec.maintenance.confineSpecUpdateRollout=true (on the new object) only a change of
 * hibernation counts; the rest waits for the maintenance window.
 */
export function mustIncreaseGenerationForSpecChanges(oldShoot: Shoot, newShoot: Shoot): boolean {
  if (newShoot.spec.maintenance?.confineSpecUpdateRollout === true)
    return hibernationIsEnabled(oldShoot) !== hibernationIsEnabled(newShoot);
  return !semanticallyEqual(oldShoot.spec, newShoot.spec);
}

// Operations the gardenlet performs and removes itself: the strategy bumps the generation but
// keeps the annotation (v1beta1constants.OperationRotate*).
const KEPT_ROTATION_OPERATIONS: ReadonlySet<string> = new Set(ROTATION_OPERATIONS);

interface GenerationDecision {
  readonly increase: boolean;
  readonly removeOperationAnnotation: boolean;
}

/**
 * Gardener's mustIncreaseGeneration, deciding on the stored status (PrepareForUpdate copies the
 * old status onto the new object first): a spec change that counts, the deletion timestamp being
 * set, or the operation annotation: `retry` only while the last operation is Failed, `reconcile`
 * (and the rotations) only while a last operation exists and is not Failed. An annotation that
 * does not act stays on the shoot.
 */
export function mustIncreaseGeneration(oldShoot: Shoot, newShoot: Shoot): GenerationDecision {
  const no = { increase: false, removeOperationAnnotation: false };
  if (mustIncreaseGenerationForSpecChanges(oldShoot, newShoot)) return { ...no, increase: true };
  if (!oldShoot.metadata.deletionTimestamp && newShoot.metadata.deletionTimestamp) return { ...no, increase: true };
  const lastOperation = oldShoot.status?.lastOperation;
  if (!lastOperation) return no;
  const operation = newShoot.metadata.annotations?.[ANNOTATION_OPERATION];
  if (operation === undefined) return no;
  if (lastOperation.state === "Failed")
    return operation === "retry" ? { increase: true, removeOperationAnnotation: true } : no;
  let decision: GenerationDecision = no;
  if (operation === "reconcile") decision = { increase: true, removeOperationAnnotation: true };
  else if (KEPT_ROTATION_OPERATIONS.has(operation)) decision = { increase: true, removeOperationAnnotation: false };
  else if (operation === "rotate-ssh-keypair")
    decision = sshAccessEnabled(newShoot)
      ? { increase: true, removeOperationAnnotation: false }
      : { increase: false, removeOperationAnnotation: true };
  if (operation.startsWith("rotate-rollout-workers") || operation.startsWith("rollout-workers"))
    decision = { increase: true, removeOperationAnnotation: false };
  return decision;
}

/**
 * The update as gardener-apiserver stores it: `next` with metadata.generation raised by one
 * when mustIncreaseGeneration says so, and the operation annotation removed when it was consumed.
 * Does not modify its arguments.
 */
export function prepareShootForUpdate(oldShoot: Shoot, next: Shoot): Shoot {
  const { increase, removeOperationAnnotation } = mustIncreaseGeneration(oldShoot, next);
  if (!increase && !removeOperationAnnotation) {
    return next.metadata.generation === oldShoot.metadata.generation
      ? next
      : { ...next, metadata: { ...next.metadata, generation: oldShoot.metadata.generation } };
  }
  const metadata = { ...next.metadata, generation: (oldShoot.metadata.generation ?? 0) + (increase ? 1 : 0) };
  if (removeOperationAnnotation && metadata.annotations) {
    const { [ANNOTATION_OPERATION]: _consumed, ...rest } = metadata.annotations;
    metadata.annotations = rest;
  }
  return { ...next, metadata };
}

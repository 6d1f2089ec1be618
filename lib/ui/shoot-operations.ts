// The lifecycle page's operations on a shoot: reconcile, retry a failed operation, hibernate and
// wake up (PATCH with Gardener's operation annotation or spec.hibernation.enabled), and deleting
// it (the confirmation annotation, then DELETE). Which of them the shoot's state offers and why
// not, the patch each sends, and how far the operation it starts has come, read from the shoot
// alone (as the Gardener dashboard must). The role each needs is lib/ui/permissions.ts's.
import { blockingHibernationConstraint } from "../engine/hibernation-admission";
import { blockingOperation, describeBlockingOperation } from "../engine/migration-admission";
import { ANNOTATION_CONFIRM_DELETION } from "../engine/deletion-cleanup";
import { ANNOTATION_OPERATION } from "../engine/operation-annotations";
import type { Condition, Shoot } from "../gardener/types";
import type { Permission } from "./permissions";

export type ShootOperation = "reconcile" | "retry" | "hibernate" | "wake";

/** The role each operation needs (lib/api/roles.ts): operators reconcile, retry and hibernate. */
export const OPERATION_PERMISSION: Record<ShootOperation | "delete", Permission> = {
  reconcile: "operate",
  retry: "operate",
  hibernate: "operate",
  wake: "operate",
  delete: "administer",
};

export interface OperationOffer {
  readonly operation: ShootOperation;
  /** Why the shoot's state does not allow it now; undefined when it does. */
  readonly unavailable?: string;
}

/**
 * The operations the shoot's state offers: reconcile, or retry instead when the last operation
 * failed (Gardener reconciles a failed shoot only on `retry`); hibernate or wake up. While the
 * shoot is being deleted or migrated they are offered but unavailable, with the reason. A failed
 * migration is retried from the migration panel.
 */
export function operationOffers(shoot: Shoot): OperationOffer[] {
  const blocking = blockingOperation(shoot);
  const blocked = blocking ? `Not available while ${describeBlockingOperation(blocking)}.` : undefined;
  const last = shoot.status?.lastOperation;
  const failed = last?.state === "Failed";
  const offers: OperationOffer[] = [];
  if (failed && !blocking) offers.push({ operation: "retry" });
  else
    offers.push({
      operation: "reconcile",
      unavailable:
        blocked ??
        (last
          ? undefined
          : "Gardener has not created this cluster yet, so there is nothing to reconcile; it is reconciled once created."),
    });
  offers.push({ operation: shoot.spec.hibernation?.enabled === true ? "wake" : "hibernate", unavailable: blocked });
  return offers;
}

/** Why deleting is not possible now (the server refuses it alike); undefined when it is. */
export function deletionUnavailable(shoot: Shoot): string | undefined {
  const blocking = blockingOperation(shoot);
  if (!blocking) return undefined;
  return blocking.code === "Deleting"
    ? "The cluster is already being deleted."
    : `Not available while ${describeBlockingOperation(blocking)}.`;
}

/** The merge patch an operation sends: no resourceVersion, as `kubectl annotate` (it asks, it does not edit). */
export function operationPatch(operation: ShootOperation) {
  if (operation === "hibernate" || operation === "wake")
    return { spec: { hibernation: { enabled: operation === "hibernate" } } };
  return { metadata: { annotations: { [ANNOTATION_OPERATION]: operation } } };
}

/** The patch that confirms a deletion, which Gardener requires before DELETE. */
export const CONFIRM_DELETION_PATCH = { metadata: { annotations: { [ANNOTATION_CONFIRM_DELETION]: "true" } } };

/** The HibernationPossible constraint that would make Gardener refuse to hibernate it now. */
export function hibernationWarning(shoot: Shoot): Condition | undefined {
  return shoot.spec.hibernation?.enabled === true
    ? undefined
    : blockingHibernationConstraint(shoot.status?.constraints);
}

/** Whether the typed text names the cluster (surrounding spaces aside, case as written). */
export const nameConfirmed = (typed: string, name: string) => typed.trim() === name;

/** An operation as the PATCH answered it: the generation the gardenlet must reach. */
export interface OperationWatch {
  readonly operation: ShootOperation;
  /** metadata.generation of the shoot PATCH answered with. */
  readonly generation: number;
  /** Whether the PATCH raised the generation (else Gardener starts nothing). */
  readonly started: boolean;
}

export type OperationStep = "nothing" | "queued" | "running" | "retrying" | "done" | "failed";

export interface OperationProgress {
  readonly step: OperationStep;
  /** The operation's percentage while it runs. */
  readonly progress?: number;
  readonly message: string;
}

const DONE_WORDS: Record<ShootOperation, string> = {
  reconcile: "The reconcile succeeded.",
  retry: "The retried operation succeeded.",
  hibernate: "The cluster is hibernated: its control plane is scaled down and its worker nodes are gone.",
  wake: "The cluster is awake again with its worker nodes.",
};

/**
 * How far the operation has come: queued until the gardenlet observes the new generation, then
 * the last operation's state (Error is retried by Gardener itself).
 */
export function operationProgress(shoot: Shoot, watch: OperationWatch): OperationProgress {
  if (!watch.started)
    return { step: "nothing", message: "Gardener started nothing: the cluster was already as asked." };
  const observed = Number(shoot.status?.observedGeneration ?? 0);
  const op = shoot.status?.lastOperation;
  if (observed < watch.generation || !op)
    return { step: "queued", message: "Asked: waiting for the gardenlet to pick it up." };
  const description = op.description ? ` ${op.description}` : "";
  switch (op.state) {
    case "Succeeded":
      return { step: "done", progress: 100, message: DONE_WORDS[watch.operation] };
    case "Failed":
    case "Aborted":
      return { step: "failed", message: `The ${op.type.toLowerCase()} ${op.state.toLowerCase()}.${description}` };
    case "Error":
      return {
        step: "retrying",
        progress: op.progress ?? 0,
        message: `The last attempt ended in an error; Gardener retries it.${description}`,
      };
    default:
      return {
        step: "running",
        progress: op.progress ?? 0,
        message: `${op.type} ${op.state.toLowerCase()}: ${op.progress ?? 0}%.${description}`,
      };
  }
}

export const operationUnderWay = (p: OperationProgress | undefined) =>
  p?.step === "queued" || p?.step === "running" || p?.step === "retrying";

/** GET .../deletion: the latest deletion and its cleanup steps (also after the shoot is gone). */
export interface DeletionView {
  readonly id: string;
  readonly actor: string;
  readonly state: "Processing" | "Error" | "Failed" | "Succeeded";
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  readonly steps: readonly {
    readonly name: string;
    readonly startedAt: string | null;
    readonly endedAt: string | null;
    readonly message: string | null;
    readonly deletes: readonly string[];
    readonly keeps: readonly string[];
    readonly forced: boolean;
    readonly skipped: boolean;
    readonly errors: readonly string[];
  }[];
}

export type CleanupStepState = "done" | "running" | "waiting" | "skipped" | "failed";

/** Each step's state, the steps done, and whether the deletion is over. */
export function deletionProgress(view: DeletionView) {
  const steps = view.steps.map((s) => {
    const state: CleanupStepState = s.skipped
      ? "skipped"
      : s.endedAt || view.state === "Succeeded"
        ? "done"
        : s.startedAt
          ? view.state === "Failed"
            ? "failed"
            : "running"
          : "waiting";
    return { ...s, state };
  });
  const done = steps.filter((s) => s.state === "done" || s.state === "skipped").length;
  return {
    steps,
    done,
    total: steps.length,
    percent: steps.length === 0 ? 0 : Math.round((done / steps.length) * 100),
    finished: view.state === "Succeeded" || view.state === "Failed",
  };
}

/**
 * What a migration's confirmation must say and ask: a production cluster (spec.purpose
 * "production") needs its name typed; a destination in another region is spelled out.
 */
export function migrationConfirmation(shoot: Shoot, sourceRegion: string | undefined, destinationRegion?: string) {
  const regionChange =
    sourceRegion && destinationRegion && sourceRegion !== destinationRegion
      ? { from: sourceRegion, to: destinationRegion }
      : undefined;
  return { typeName: shoot.spec.purpose === "production", regionChange };
}

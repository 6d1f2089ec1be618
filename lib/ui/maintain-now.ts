// How far a "maintain now" has come, read from the shoot alone (as the Gardener dashboard must:
// it only sees the operation annotation disappear). Queued while `gardener.cloud/operation=maintain`
// is set; then the run's result is `status.lastMaintenance` (written only when the run changed
// something); then, when the spec changed, the Reconcile that rolls it out, until the new
// generation is observed.
import { maintain } from "../engine/maintain";
import { maintenanceRecord } from "../engine/maintenance-record";
import { ANNOTATION_OPERATION } from "../engine/operation-annotations";
import type { CloudProfile, LastMaintenance, Shoot } from "../gardener/types";
import type { PlannedChange } from "./api-types";

export interface MaintainWatch {
  /** The resourceVersion POST .../maintain answered with: older reads predate the request. */
  readonly since: number;
  /** `status.lastMaintenance.triggeredTime` before the request, to tell a new result from an old one. */
  readonly lastMaintenanceBefore?: string;
}

type MaintainStep = "queued" | "rolling-out" | "done" | "failed" | "rollout-failed";

export interface MaintainProgress {
  readonly step: MaintainStep;
  /** This run's result, when it wrote one. */
  readonly result?: LastMaintenance;
  /** The rollout's percentage while it runs. */
  readonly progress?: number;
  readonly message: string;
}

export function maintainProgress(shoot: Shoot, watch: MaintainWatch): MaintainProgress {
  const version = Number(shoot.metadata.resourceVersion ?? 0);
  if (version < watch.since || shoot.metadata.annotations?.[ANNOTATION_OPERATION] === "maintain") {
    return { step: "queued", message: "Queued: the maintenance runs within seconds." };
  }
  const last = shoot.status?.lastMaintenance;
  const result = last && last.triggeredTime !== watch.lastMaintenanceBefore ? last : undefined;
  if (result?.state === "Failed") {
    return {
      step: "failed",
      result,
      message: result.failureReason ? `The maintenance failed: ${result.failureReason}` : "The maintenance failed.",
    };
  }
  const op = shoot.status?.lastOperation;
  const observed = Number(shoot.status?.observedGeneration ?? 0);
  const pending = (shoot.metadata.generation ?? 0) > observed;
  if (op && op.state === "Failed" && pending) {
    return {
      step: "rollout-failed",
      result,
      message: `The maintenance ran, but rolling it out failed: ${op.description}`,
    };
  }
  if (pending || (op?.state === "Processing" && op.type === "Reconcile")) {
    const progress = op?.state === "Processing" ? (op.progress ?? 0) : 0;
    const retrying =
      op?.state === "Error" ? ` The last attempt ended in an error and is retried: ${op.description}` : "";
    return { step: "rolling-out", result, progress, message: `Rolling out the changes (${progress}%).${retrying}` };
  }
  return {
    step: "done",
    result,
    message: result
      ? result.description
      : "The maintenance ran and changed nothing: every version was already where it should be.",
  };
}

/** What "maintain now" will do if it runs at `at`: the engine's run, as POST .../maintain previews it. */
export interface NowPlan {
  /** The moment the plan is computed for (ISO). */
  readonly at: string;
  readonly changes: readonly PlannedChange[];
  readonly operations: readonly string[];
  readonly errors: readonly string[];
}

/**
 * The plan of a maintenance that runs at `at` (the moment the dialog opened), not in the next
 * window: `GET .../maintenance-plan?at=` answers for the next window at or after `at`, while a
 * run requested now applies the rules at this moment (a version that expires before the window
 * is not forced yet). Computed with the engine exactly as the server's preview of the request.
 */
export function planIfRunNow(shoot: Shoot, profile: CloudProfile, at: number): NowPlan {
  const outcome = maintain(shoot, profile, at);
  const record = maintenanceRecord(outcome, shoot.spec);
  return {
    at: new Date(at).toISOString(),
    changes: record.changes.map((c) => ({
      target: c.target,
      kind: c.kind,
      from: c.from ?? "",
      to: c.to as string,
      reason: c.reason,
      successful: c.successful,
      description: c.description,
    })),
    operations: outcome.operations,
    errors: outcome.errors,
  };
}

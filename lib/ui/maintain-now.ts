// How far a "maintain now" has come, read from the shoot alone (as the Gardener dashboard must:
// it only sees the operation annotation disappear). Queued while `gardener.cloud/operation=maintain`
// is set; then the run's result is `status.lastMaintenance` (written only when the run changed
// something); then, when the spec changed, the Reconcile that rolls it out, until the new
// generation is observed.
import type { LastMaintenance, Shoot } from "../gardener/types";

export interface MaintainWatch {
  /** The resourceVersion POST .../maintain answered with: older reads predate the request. */
  readonly since: number;
  /** `status.lastMaintenance.triggeredTime` before the request, to tell a new result from an old one. */
  readonly lastMaintenanceBefore?: string;
}

export type MaintainStep = "queued" | "rolling-out" | "done" | "failed" | "rollout-failed";

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
  if (version < watch.since || shoot.metadata.annotations?.["gardener.cloud/operation"] === "maintain") {
    return { step: "queued", message: "Queued: the maintenance runs within seconds." };
  }
  const last = shoot.status?.lastMaintenance;
  const result = last && last.triggeredTime !== watch.lastMaintenanceBefore ? last : undefined;
  if (result?.state === "Failed") {
    return { step: "failed", result, message: result.failureReason ? `The maintenance failed: ${result.failureReason}` : "The maintenance failed." };
  }
  const op = shoot.status?.lastOperation;
  const observed = Number(shoot.status?.observedGeneration ?? 0);
  const pending = (shoot.metadata.generation ?? 0) > observed;
  if (op && op.state === "Failed" && pending) {
    return { step: "rollout-failed", result, message: `The maintenance ran, but rolling it out failed: ${op.description}` };
  }
  if (pending || (op?.state === "Processing" && op.type === "Reconcile")) {
    const progress = op?.state === "Processing" ? op.progress ?? 0 : 0;
    const retrying = op?.state === "Error" ? ` The last attempt ended in an error and is retried: ${op.description}` : "";
    return { step: "rolling-out", result, progress, message: `Rolling out the changes (${progress}%).${retrying}` };
  }
  return {
    step: "done",
    result,
    message: result ? result.description : "The maintenance ran and changed nothing: every version was already where it should be.",
  };
}

// What an update run's health gate reads of one shoot (issue 29, item 2): ready when its status
// label is healthy, its last operation Succeeded, the spec the run changed is the one the garden
// reconciled (status.observedGeneration has caught up with metadata.generation: right after the
// run's write the old operation's success says nothing yet) and no "maintain now" is still pending.
import type { Shoot } from "../gardener/types.ts";
import { hasMaintainNow } from "./operation-annotations.ts";
import { shootStatusLabel } from "./status-label.ts";
import type { ShootHealth } from "./update-run-progress.ts";

export function shootReadiness(shoot: Shoot | undefined): ShootHealth {
  if (!shoot) return { ready: false, reason: "the shoot no longer exists" };
  if (shoot.metadata.deletionTimestamp) return { ready: false, reason: "being deleted" };
  const op = shoot.status?.lastOperation;
  const generation = shoot.metadata.generation;
  if (generation !== undefined && shoot.status?.observedGeneration !== generation)
    return { ready: false, reason: "its change is not reconciled yet" };
  if (hasMaintainNow(shoot.metadata.annotations)) return { ready: false, reason: "maintenance is still pending" };
  if (op && op.state !== "Succeeded") return { ready: false, reason: `last operation ${op.type} ${op.state}` };
  const label = shootStatusLabel(shoot);
  if (label !== "healthy") return { ready: false, reason: `status ${label}` };
  return { ready: true };
}

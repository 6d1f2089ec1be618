// The forecast's items for versions a shoot's spec asks but the cluster does not run yet, held by
// confineSpecUpdateRollout for the next maintenance window (version-rollout.ts): that window's
// reconcile rolls them out, so they are updates in that window like the forced ones.
import type { Shoot } from "../gardener/types.ts";
import type { ForecastItem } from "./forecast.ts";
import { nextMaintenanceMoment } from "./maintenance-moment.ts";
import type { RunningVersions } from "./running-versions.ts";
import { formatTime } from "./time-format.ts";
import { versionRollout } from "./version-rollout.ts";

export const HELD_ROLLOUT_REASON = "Asked in the spec, held for the maintenance window (confineSpecUpdateRollout)";

/** The held rollout of `shoot` as forecast items in its next window, when that is before `to`. */
export function heldRolloutItems(
  shoot: Shoot,
  running: RunningVersions | undefined,
  cloudProfile: string,
  from: number,
  to: number,
): ForecastItem[] {
  // Maintenance skips a shoot being deleted, and with it the rollout.
  if (shoot.metadata.deletionTimestamp) return [];
  const rollout = versionRollout(shoot, running);
  if (rollout?.when !== "window") return [];
  const moment = nextMaintenanceMoment(shoot, from);
  if (moment.at > to) return [];
  const window = { begin: formatTime(moment.begin), end: formatTime(moment.end) };
  return rollout.changes.map((c) => {
    const who = c.target === "controlPlane" ? "Control plane" : `Worker pool "${c.target}"`;
    const what = c.kind === "kubernetes" ? "Kubernetes" : `machine image ${c.subject}`;
    return {
      namespace: shoot.metadata.namespace ?? "",
      name: shoot.metadata.name,
      cloudProfile,
      target: c.target === "controlPlane" ? "controlPlane" : "worker",
      ...(c.target === "controlPlane" ? {} : { worker: c.target }),
      kind: c.kind,
      at: formatTime(moment.at),
      window,
      from: c.running,
      to: c.asked,
      reason: HELD_ROLLOUT_REASON,
      stuck: false,
      held: true,
      message: `${who} rolls out ${what} ${c.running} → ${c.asked} in the window of ${window.begin.slice(0, 16).replace("T", " ")} UTC: the spec asks for it, and confineSpecUpdateRollout holds it until then.`,
    } satisfies ForecastItem;
  });
}

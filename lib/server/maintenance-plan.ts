// GET .../maintenance-plan?at=: when the shoot's next maintenance runs and what it would change
// then, computed by the engine exactly as the scheduled run will compute it.
import type { MaintenancePlan } from "../api/maintenance-plan.ts";
import type { Db } from "../db/client.ts";
import { maintain } from "../engine/maintain.ts";
import { maintenanceRecord } from "../engine/maintenance-record.ts";
import { nextMaintenanceMoment } from "../engine/maintenance-moment.ts";
import { shootProfile } from "../store/cloud-profiles.ts";
import { missingProfileMessage } from "../gardener/profile-reference.ts";
import { unprocessable } from "../api/refusal.ts";
import { getShoot } from "./get-shoot.ts";
import { rolloutPending } from "../engine/rollout-pending.ts";
import { type VersionRollout, versionRollout } from "../engine/version-rollout.ts";

export async function maintenancePlan(db: Db, namespace: string, name: string, from: number): Promise<MaintenancePlan> {
  const { shoot, running } = await getShoot(db, namespace, name);
  const rollout = versionRollout(shoot, running);
  const profile = await shootProfile(db, shoot);
  if (!profile) {
    const missing = missingProfileMessage(shoot);
    throw unprocessable(`The shoot's ${missing.replace(/ not found$/, "")} does not exist.`, [
      { field: "spec.cloudProfile.name", type: "NotFound", detail: missing },
    ]);
  }
  const moment = nextMaintenanceMoment(shoot, from);
  const outcome = maintain(shoot, profile, moment.at);
  const { changes, specChanged: changed } = maintenanceRecord(outcome, shoot.spec);
  const lastMaintenance = outcome.requirePatch ? outcome.shoot.status?.lastMaintenance : undefined;
  return {
    namespace,
    name,
    at: new Date(moment.at).toISOString(),
    window: { begin: new Date(moment.begin).toISOString(), end: new Date(moment.end).toISOString() },
    willChangeSpec: changed,
    // confineSpecUpdateRollout: spec changes held until this window.
    rolloutPending: rolloutPending(shoot) || rollout?.when === "window",
    rollout,
    changes,
    operations: outcome.operations,
    errors: outcome.errors,
    ...(lastMaintenance
      ? {
          description: lastMaintenance.description,
          state: lastMaintenance.state,
          ...(lastMaintenance.failureReason ? { failureReason: lastMaintenance.failureReason } : {}),
        }
      : {}),
    summary: [
      ...(rollout?.when === "window"
        ? [`Maintenance on ${new Date(moment.at).toISOString()} rolls out ${rolloutSummary(rollout)}.`]
        : []),
      changes.length === 0
        ? `Maintenance on ${new Date(moment.at).toISOString()} will change no ${rollout?.when === "window" ? "further " : ""}versions.`
        : changes.map((c) => c.description).join(" "),
    ].join(" "),
  };
}

/** "Kubernetes 1.32.7 -> 1.33.6 (control plane), gardenlinux 1592.4.0 -> 1877.3.0 (pool worker)". */
function rolloutSummary(rollout: VersionRollout): string {
  return rollout.changes
    .map(
      (c) =>
        `${c.subject} ${c.running} -> ${c.asked} (${c.target === "controlPlane" ? "control plane" : `pool ${c.target}`})`,
    )
    .join(", ");
}

// The time-independent part of a fleet-list row, stored with every shoot: what the list shows
// and filters, without the documents. shootFromSummary rebuilds as much of a Shoot as the engine
// needs to classify its versions and place its maintenance.
import type { ShootRow } from "../api/shoot-list.ts";
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { fleetProfileName, profileReferenceOf } from "../gardener/profile-reference.ts";
import { autoUpdateFlags } from "../engine/maintain.ts";
import { shootStatusLabel } from "../engine/status-label.ts";
import { rolloutPending } from "../engine/rollout-pending.ts";
import { riskBrief, updateRisk } from "../engine/update-risk.ts";
import type { RunningVersions } from "../engine/running-versions.ts";
import { versionRollout } from "../engine/version-rollout.ts";
import type { HibernationSchedule } from "../engine/hibernation-schedule.ts";
import { shootHibernationSchedules } from "../engine/scheduled-hibernation.ts";

/** The stored, time-independent part of a fleet-list row: the row's own members, and the versions it classifies. */
export interface ShootSummary extends Pick<
  ShootRow,
  | "namespace"
  | "name"
  | "uid"
  | "project"
  | "cloudProfile"
  | "namespacedCloudProfile"
  | "seed"
  | "region"
  | "purpose"
  | "createdAt"
  | "statusLabel"
  | "hibernated"
  | "conditions"
  | "lastOperation"
  | "lastErrorCodes"
  | "rolloutPending"
  | "updateRisk"
  | "rollout"
  | "maintenance"
> {
  readonly kubernetesVersion: string;
  /** spec.hibernation.schedules, only when the shoot has some (the row's next moments come from them). */
  readonly hibernationSchedules?: readonly HibernationSchedule[];
  readonly workers: {
    name: string;
    machineType: string;
    image?: { name: string; version?: string };
    kubernetesVersion?: string;
    minimum?: number;
    maximum?: number;
  }[];
}

/** "garden-payments" -> "payments"; Gardener's own "garden" namespace belongs to project "garden". */
function projectOfNamespace(namespace: string): string {
  return namespace.startsWith("garden-") ? namespace.slice("garden-".length) : namespace;
}

/**
 * The summary of `shoot`, which runs `running` (the record kept for it, when any), on `profile`
 * (its resolved profile, when there is one: a NamespacedCloudProfile's names its parent).
 */
export function summarize(shoot: Shoot, running?: RunningVersions, profile?: CloudProfile): ShootSummary {
  const reference = profileReferenceOf(shoot);
  const rollout = versionRollout(shoot, running);
  const namespace = shoot.metadata.namespace ?? "";
  const status = shoot.status ?? {};
  const op = status.lastOperation;
  const tw = shoot.spec.maintenance?.timeWindow;
  const schedules = shootHibernationSchedules(shoot);
  return {
    ...(schedules.length > 0 ? { hibernationSchedules: schedules } : {}),
    namespace,
    name: shoot.metadata.name,
    uid: shoot.metadata.uid ?? "",
    project: projectOfNamespace(namespace),
    cloudProfile: fleetProfileName(shoot, profile),
    ...(reference?.kind === "NamespacedCloudProfile" ? { namespacedCloudProfile: reference.name } : {}),
    seed: status.seedName ?? shoot.spec.seedName ?? null,
    region: shoot.spec.region ?? null,
    purpose: shoot.spec.purpose ?? null,
    createdAt: shoot.metadata.creationTimestamp ?? null,
    statusLabel: shootStatusLabel(shoot),
    hibernated: shoot.spec.hibernation?.enabled === true,
    conditions: (status.conditions ?? []).map((c) => ({
      type: c.type,
      status: c.status,
      ...(c.reason ? { reason: c.reason } : {}),
    })),
    lastOperation: op
      ? {
          type: op.type,
          state: op.state,
          ...(op.progress !== undefined ? { progress: op.progress } : {}),
          ...(op.description ? { description: op.description } : {}),
          ...(op.lastUpdateTime ? { lastUpdateTime: op.lastUpdateTime } : {}),
        }
      : null,
    lastErrorCodes: [...new Set((status.lastErrors ?? []).flatMap((e) => e.codes ?? []))],
    kubernetesVersion: shoot.spec.kubernetes.version,
    workers: (shoot.spec.provider?.workers ?? []).map((w) => ({
      name: w.name,
      machineType: w.machine.type,
      ...(w.machine.image
        ? {
            image: {
              name: w.machine.image.name,
              ...(w.machine.image.version ? { version: w.machine.image.version } : {}),
            },
          }
        : {}),
      ...(w.kubernetes?.version ? { kubernetesVersion: w.kubernetes.version } : {}),
      ...(w.minimum !== undefined ? { minimum: w.minimum } : {}),
      ...(w.maximum !== undefined ? { maximum: w.maximum } : {}),
    })),
    // The simulated gardenlet's note sees every held spec change; the record of running versions
    // sees held version changes on either garden.
    rolloutPending: rolloutPending(shoot) || rollout?.when === "window",
    rollout,
    updateRisk: summaryRisk(shoot),
    maintenance: {
      timeWindow: tw ? { begin: tw.begin, end: tw.end } : null,
      autoUpdate: autoUpdateFlags(shoot.spec),
      confineSpecUpdateRollout: shoot.spec.maintenance?.confineSpecUpdateRollout === true,
    },
  };
}

function summaryRisk(shoot: Shoot): ShootSummary["updateRisk"] {
  const risk = updateRisk(shoot);
  return risk ? riskBrief(risk) : null;
}

/** The key of the summarized shoot's profile among profiles (profile-reference.ts's profileKey). */
export function summaryProfileKey(
  s: Pick<ShootSummary, "namespace" | "cloudProfile" | "namespacedCloudProfile">,
): string {
  return s.namespacedCloudProfile ? `${s.namespace}/${s.namespacedCloudProfile}` : s.cloudProfile;
}

/** A shoot rebuilt from its summary, enough for versionsInUse and nextMaintenanceMoment. */
export function shootFromSummary(s: ShootSummary): Shoot {
  return {
    metadata: { name: s.name, namespace: s.namespace, uid: s.uid },
    spec: {
      kubernetes: { version: s.kubernetesVersion },
      provider: {
        workers: s.workers.map((w) => ({
          name: w.name,
          machine: { type: w.machineType, ...(w.image ? { image: w.image } : {}) },
          ...(w.kubernetesVersion ? { kubernetes: { version: w.kubernetesVersion } } : {}),
        })),
      },
      ...(s.maintenance.timeWindow ? { maintenance: { timeWindow: s.maintenance.timeWindow } } : {}),
    },
  };
}

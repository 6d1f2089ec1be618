// The cleanup of a shoot's resources when it is deleted (shoot-advanced.md, "Cleanup of Shoot
// Clusters in Deletion"): four steps, each deleting some kinds with a grace period and forcibly
// finalizing what is left after a while; annotations on the shoot override the finalization
// grace periods ("0": at once), shoot.gardener.cloud/skip-cleanup=true limits step 3 to Services
// and PersistentVolumeClaims, and resources labelled shoot.gardener.cloud/no-cleanup=true are
// left alone. Pure: the plan and its timeline for a given inventory.
import type { Shoot } from "../gardener/types.ts";
import { HOUR_SECONDS, MINUTE_SECONDS } from "./time-units.ts";

export interface ClusterResource {
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly labels?: Readonly<Record<string, string>>;
  /** Finalizers nobody will remove: only forceful finalization ends such a resource. */
  readonly finalizers?: readonly string[];
}

/** Gardener deletes a shoot only while this annotation is "true". */
export const ANNOTATION_CONFIRM_DELETION = "confirmation.gardener.cloud/deletion";
export const ANNOTATION_SKIP_CLEANUP = "shoot.gardener.cloud/skip-cleanup";
export const ANNOTATION_CLEANUP_WEBHOOKS_GRACE = "shoot.gardener.cloud/cleanup-webhooks-finalize-grace-period-seconds";
export const ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE =
  "shoot.gardener.cloud/cleanup-extended-apis-finalize-grace-period-seconds";
export const ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE =
  "shoot.gardener.cloud/cleanup-kubernetes-resources-finalize-grace-period-seconds";
const LABEL_NO_CLEANUP = "shoot.gardener.cloud/no-cleanup";

const MINUTES_5 = 5 * MINUTE_SECONDS;
const HOUR = HOUR_SECONDS;

const CLEANUP_STEPS = [
  {
    name: "CleanWebhooks",
    kinds: ["ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"],
    gracePeriodSeconds: MINUTES_5,
    finalizeAfterSeconds: MINUTES_5,
    annotation: ANNOTATION_CLEANUP_WEBHOOKS_GRACE,
  },
  {
    name: "CleanExtendedAPIs",
    kinds: ["APIService", "CustomResourceDefinition"],
    gracePeriodSeconds: MINUTES_5,
    finalizeAfterSeconds: HOUR,
    annotation: ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE,
  },
  {
    name: "CleanKubernetesResources",
    kinds: [
      "CronJob",
      "DaemonSet",
      "Deployment",
      "Ingress",
      "Job",
      "Pod",
      "ReplicaSet",
      "ReplicationController",
      "Service",
      "StatefulSet",
      "PersistentVolumeClaim",
    ],
    gracePeriodSeconds: MINUTES_5,
    finalizeAfterSeconds: MINUTES_5,
    annotation: ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE,
    skipCleanupKinds: ["Service", "PersistentVolumeClaim"],
  },
  {
    name: "CleanVolumeSnapshots",
    kinds: ["VolumeSnapshot", "VolumeSnapshotContent"],
    gracePeriodSeconds: MINUTES_5,
    finalizeAfterSeconds: HOUR,
  },
] as const;

export interface PlannedCleanupStep {
  readonly name: string;
  /** What is deleted. */
  readonly resources: readonly ClusterResource[];
  /** What stays: labelled no-cleanup, or left out by skip-cleanup. */
  readonly kept: readonly ClusterResource[];
  readonly gracePeriodSeconds: number;
  readonly finalizeAfterSeconds: number;
  /** Why the times differ from the defaults, when they do. */
  readonly note?: string;
}

function override(shoot: Shoot, annotation: string | undefined): { seconds?: number; note?: string } {
  if (!annotation) return {};
  const value = shoot.metadata.annotations?.[annotation];
  if (value === undefined) return {};
  if (!/^\d+$/.test(value))
    return { note: `annotation ${annotation}="${value}" is not a whole number of seconds; the default applies` };
  return { seconds: Number(value), note: `${annotation}=${value}` };
}

export function cleanupPlan(shoot: Shoot, inventory: readonly ClusterResource[]): PlannedCleanupStep[] {
  const skipCleanup = shoot.metadata.annotations?.[ANNOTATION_SKIP_CLEANUP] === "true";
  return CLEANUP_STEPS.map((step) => {
    const ofKinds = inventory.filter((r) => (step.kinds as readonly string[]).includes(r.kind));
    const considered =
      skipCleanup && "skipCleanupKinds" in step
        ? ofKinds.filter((r) => (step.skipCleanupKinds as readonly string[]).includes(r.kind))
        : ofKinds;
    const resources = considered.filter((r) => r.labels?.[LABEL_NO_CLEANUP] !== "true");
    const kept = ofKinds.filter((r) => !resources.includes(r));
    const { seconds, note } = override(shoot, "annotation" in step ? step.annotation : undefined);
    // "0" finalizes at once, without waiting for graceful deletion either.
    const finalizeAfterSeconds = seconds ?? step.finalizeAfterSeconds;
    const gracePeriodSeconds = seconds === 0 ? 0 : step.gracePeriodSeconds;
    return { name: step.name, resources, kept, gracePeriodSeconds, finalizeAfterSeconds, ...(note ? { note } : {}) };
  });
}

interface CleanupTimelineStep extends PlannedCleanupStep {
  /** epoch ms */
  readonly startsAt: number;
  readonly endsAt: number;
  /** Whether stuck resources (finalizers) had to be finalized forcibly. */
  readonly forced: boolean;
}

/**
 * When each step starts and ends if the cleanup starts at `start`: a step ends when its resources
 * are gone, after their grace period, or, for resources with finalizers, when they are finalized
 * forcibly; an empty step ends at once. Steps run one after another.
 */
function cleanupTimeline(plan: readonly PlannedCleanupStep[], start: number): CleanupTimelineStep[] {
  let t = start;
  return plan.map((step) => {
    const stuck = step.resources.some((r) => (r.finalizers ?? []).length > 0);
    const seconds =
      step.resources.length === 0
        ? 0
        : stuck
          ? Math.max(step.finalizeAfterSeconds, 0)
          : Math.min(step.gracePeriodSeconds, step.finalizeAfterSeconds);
    const startsAt = t;
    t += seconds * 1000;
    return { ...step, startsAt, endsAt: t, forced: stuck };
  });
}

/** A deletion under way: the cleanup steps, then removing the shoot. */
export interface Deletion {
  readonly state: "Processing" | "Succeeded";
  /** Index of the step running or to run; steps.length when done. */
  readonly step: number;
  readonly steps: readonly {
    readonly name: string;
    readonly startedAt?: number;
    readonly endedAt?: number;
    readonly message?: string;
    /** How long the step takes (grace period, or forced finalization), in the simulation's seconds. */
    readonly seconds: number;
    readonly forced: boolean;
    readonly deleted: readonly string[];
    readonly kept: readonly string[];
  }[];
  readonly startedAt: number;
  readonly finishedAt?: number;
}

const label = (r: ClusterResource) => `${r.kind}/${r.namespace ? `${r.namespace}/` : ""}${r.name}`;

export function startDeletion(plan: readonly PlannedCleanupStep[], now: number): Deletion {
  const timeline = cleanupTimeline(plan, 0);
  return {
    state: "Processing",
    step: 0,
    startedAt: now,
    steps: [
      ...timeline.map((s) => ({
        name: s.name,
        seconds: (s.endsAt - s.startsAt) / 1000,
        forced: s.forced,
        deleted: s.resources.map(label),
        kept: s.kept.map(label),
      })),
      { name: "DeleteShoot", seconds: 0, forced: false, deleted: [], kept: [] },
    ],
  };
}

export function describeCleanupStep(step: Deletion["steps"][number]): string {
  if (step.name === "DeleteShoot") return "The shoot and its control plane were deleted.";
  const parts = [
    step.deleted.length === 0 ? "nothing to delete" : `${step.deleted.length} deleted (${step.deleted.join(", ")})`,
  ];
  if (step.forced) parts.push(`stuck resources finalized forcibly after ${step.seconds}s`);
  if (step.kept.length > 0) parts.push(`${step.kept.length} left alone (${step.kept.join(", ")})`);
  return `${step.name}: ${parts.join("; ")}.`;
}

export function deletionLastOperation(d: Deletion, now: number) {
  const index = Math.min(d.step, d.steps.length - 1);
  return {
    type: "Delete",
    state: d.state,
    progress: d.state === "Succeeded" ? 100 : Math.floor((d.step / d.steps.length) * 100),
    description:
      d.state === "Succeeded" ? "Shoot cluster has been successfully deleted." : `Cleaning up: ${d.steps[index].name}`,
    lastUpdateTime: new Date(Math.floor(now / 1000) * 1000).toISOString().replace(".000Z", "Z"),
  };
}

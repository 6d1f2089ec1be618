// The cleanup of a shoot's resources when it is deleted, as the gardenlet's deletion flow does it
// (Gardener: pkg/gardenlet/operation/botanist/cleanup.go, CleanWebhooks, CleanExtendedAPIs,
// CleanKubernetesResources, getCleanOptions and the *CleanOption selectors;
// pkg/gardenlet/controller/shoot/shoot/reconciler_delete.go for the three tasks, their
// 10-minute timeout and skip-cleanup skipping the extended APIs; pkg/utils/kubernetes/client for
// when the cleaner finalizes and what it says about objects that remain). Pure: the plan for a
// given inventory, and what each attempt at a step comes to.
import type { Shoot } from "../gardener/types.ts";
import { ERR_CLEANUP_CLUSTER_RESOURCES } from "./last-errors.ts";

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
/** Counts by presence, whatever its value (metav1.HasAnnotation). */
export const ANNOTATION_SKIP_CLEANUP = "shoot.gardener.cloud/skip-cleanup";
export const ANNOTATION_CLEANUP_WEBHOOKS_GRACE = "shoot.gardener.cloud/cleanup-webhooks-finalize-grace-period-seconds";
export const ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE =
  "shoot.gardener.cloud/cleanup-extended-apis-finalize-grace-period-seconds";
export const ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE =
  "shoot.gardener.cloud/cleanup-kubernetes-resources-finalize-grace-period-seconds";

// The labels the cleanup selectors look at (v1beta1constants.ShootNoCleanup, GardenRole and
// GardenRoleSystemComponent; botanist.Provider/KubernetesProvider; kube-aggregator's
// autoregister.AutoRegisterManagedLabel).
export const LABEL_NO_CLEANUP = "shoot.gardener.cloud/no-cleanup";
export const LABEL_GARDEN_ROLE = "gardener.cloud/role";
const ROLE_SYSTEM_COMPONENT = "system-component";
const LABEL_PROVIDER = "provider";
const PROVIDER_KUBERNETES = "kubernetes";
export const LABEL_KUBE_AGGREGATOR_AUTOMANAGED = "kube-aggregator.kubernetes.io/automanaged";

// botanist: GracePeriodFiveMinutes, FinalizeAfterFiveMinutes, FinalizeAfterOneHour.
const GRACE_PERIOD_FIVE_MINUTES = 5 * 60;
const FINALIZE_AFTER_FIVE_MINUTES = 5 * 60;
const FINALIZE_AFTER_ONE_HOUR = 60 * 60;

/** Each cleanup task of the deletion flow runs with Timeout(10 * time.Minute). */
export const CLEANUP_TASK_TIMEOUT_SECONDS = 10 * 60;

/** The name the deletion flow's graph carries (flow.NewGraph in reconciler_delete.go). */
const DELETION_FLOW = "Shoot cluster deletion";

// ---- Which objects a step lists (the *CleanOption label selectors) ----

const label = (r: ClusterResource, key: string) => r.labels?.[key];
/** NotSystemComponent: gardener.cloud/role is not system-component (also when unset). */
const notSystemComponent = (r: ClusterResource) => label(r, LABEL_GARDEN_ROLE) !== ROLE_SYSTEM_COMPONENT;
/** NoCleanupPrevention: shoot.gardener.cloud/no-cleanup is not "true". */
const noCleanupPrevention = (r: ClusterResource) => label(r, LABEL_NO_CLEANUP) !== "true";
/** NotKubernetesProvider: the API server's own `kubernetes` Service carries provider=kubernetes. */
const notKubernetesProvider = (r: ClusterResource) => label(r, LABEL_PROVIDER) !== PROVIDER_KUBERNETES;
/** NotKubeAggregatorAutoManaged: the built-in APIServices carry the label, with any value. */
const notKubeAggregatorAutoManaged = (r: ClusterResource) => label(r, LABEL_KUBE_AGGREGATOR_AUTOMANAGED) === undefined;

/**
 * Whether the cleanup lists (and so deletes) `r`: CleanupSelector (not a system component, not
 * labelled no-cleanup) for every kind, except Services, which also spare the `kubernetes`
 * Service, and APIServices, which spare system components and the built-in (auto-managed) ones
 * but do not look at no-cleanup.
 */
export function selectedForCleanup(r: ClusterResource): boolean {
  switch (r.kind) {
    case "Service":
      return notKubernetesProvider(r) && notSystemComponent(r) && noCleanupPrevention(r);
    case "APIService":
      return notSystemComponent(r) && notKubeAggregatorAutoManaged(r);
    default:
      return notSystemComponent(r) && noCleanupPrevention(r);
  }
}

// ---- Grace periods (getCleanOptions) ----

export interface CleanOptions {
  /** DeleteOptions.GracePeriodSeconds. */
  readonly gracePeriodSeconds: number;
  /** How long after its deletion a remaining object has its finalizers removed. */
  readonly finalizeGracePeriodSeconds: number;
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** Go's strconv.Atoi (64-bit int), with its error texts. */
export function goAtoi(text: string): { value: number; error?: undefined } | { value?: undefined; error: string } {
  const quoted = JSON.stringify(text);
  if (!/^[+-]?\d+$/.test(text)) return { error: `strconv.Atoi: parsing ${quoted}: invalid syntax` };
  const big = BigInt(text);
  if (big > INT64_MAX || big < INT64_MIN) return { error: `strconv.Atoi: parsing ${quoted}: value out of range` };
  return { value: Number(big) };
}

/**
 * Gardener's getCleanOptions: the defaults, unless the shoot's annotation asks for a finalization
 * grace period shorter than the default; then that many seconds, and a deletion grace period of
 * that times `gracePeriodSecondsFactor` (truncated). A value Atoi cannot read is an error: the
 * step fails with it instead of using the defaults.
 */
export function getCleanOptions(
  annotations: Readonly<Record<string, string>> | undefined,
  defaultGracePeriodSeconds: number,
  defaultFinalizeAfterSeconds: number,
  annotationKey: string | undefined,
  gracePeriodSecondsFactor: number,
): { options: CleanOptions; error?: undefined } | { options?: undefined; error: string } {
  const options = {
    gracePeriodSeconds: defaultGracePeriodSeconds,
    finalizeGracePeriodSeconds: defaultFinalizeAfterSeconds,
  };
  const value = annotationKey === undefined ? undefined : annotations?.[annotationKey];
  if (value === undefined) return { options };
  const seconds = goAtoi(value);
  if (seconds.error !== undefined) return { error: seconds.error };
  if (seconds.value >= defaultFinalizeAfterSeconds) return { options };
  return {
    options: {
      gracePeriodSeconds: Math.trunc(seconds.value * gracePeriodSecondsFactor),
      finalizeGracePeriodSeconds: seconds.value,
    },
  };
}

// ---- The three cleanup tasks ----

interface CleanList {
  /** Each kind is listed and cleaned on its own (one cleanResourceFn per list, in parallel). */
  readonly kinds: readonly string[];
  readonly gracePeriodSeconds: number;
  readonly finalizeAfterSeconds: number;
  readonly annotation: string;
  readonly factor: number;
}

interface CleanupStepDefinition {
  /** The botanist function. */
  readonly name: string;
  /** The flow task's name, which errors carry as their task ID. */
  readonly task: string;
  readonly lists: readonly CleanList[];
  /** What is listed instead with shoot.gardener.cloud/skip-cleanup; none: the task is skipped. */
  readonly withSkipCleanup: readonly CleanList[] | "skip";
}

const WEBHOOKS: CleanList = {
  kinds: ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"],
  gracePeriodSeconds: GRACE_PERIOD_FIVE_MINUTES,
  finalizeAfterSeconds: FINALIZE_AFTER_FIVE_MINUTES,
  annotation: ANNOTATION_CLEANUP_WEBHOOKS_GRACE,
  factor: 1,
};
const EXTENDED_APIS: CleanList = {
  kinds: ["APIService", "CustomResourceDefinition"],
  gracePeriodSeconds: GRACE_PERIOD_FIVE_MINUTES,
  finalizeAfterSeconds: FINALIZE_AFTER_ONE_HOUR,
  annotation: ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE,
  factor: 0.1,
};
const KUBERNETES_RESOURCES: CleanList = {
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
  gracePeriodSeconds: GRACE_PERIOD_FIVE_MINUTES,
  finalizeAfterSeconds: FINALIZE_AFTER_FIVE_MINUTES,
  annotation: ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE,
  factor: 1,
};
// Cleaning up VolumeSnapshots can take long when many were taken: finalized after an hour.
const VOLUME_SNAPSHOTS: CleanList = {
  kinds: ["VolumeSnapshot", "VolumeSnapshotContent"],
  gracePeriodSeconds: GRACE_PERIOD_FIVE_MINUTES,
  finalizeAfterSeconds: FINALIZE_AFTER_ONE_HOUR,
  annotation: ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE,
  factor: 0.5,
};

const CLEANUP_STEPS: readonly CleanupStepDefinition[] = [
  { name: "CleanWebhooks", task: "Cleaning up webhooks", lists: [WEBHOOKS], withSkipCleanup: [WEBHOOKS] },
  { name: "CleanExtendedAPIs", task: "Cleaning extended API groups", lists: [EXTENDED_APIS], withSkipCleanup: "skip" },
  {
    name: "CleanKubernetesResources",
    task: "Cleaning Kubernetes resources",
    lists: [KUBERNETES_RESOURCES, VOLUME_SNAPSHOTS],
    // Services and PersistentVolumeClaims, and the snapshots, all with the five-minute options.
    withSkipCleanup: [
      { ...KUBERNETES_RESOURCES, kinds: ["Service", "PersistentVolumeClaim"] },
      { ...KUBERNETES_RESOURCES, kinds: ["VolumeSnapshot", "VolumeSnapshotContent"] },
    ],
  },
];

/** Go's %T of the object and client.ObjectKey's String, as "remaining objects" errors name them. */
const objectName = (r: ClusterResource) => `*v1.${r.kind} ${r.namespace ?? ""}/${r.name}`;
const resourceLabel = (r: ClusterResource) => `${r.kind}/${r.namespace ? `${r.namespace}/` : ""}${r.name}`;

/**
 * When a deleted object is gone, in seconds after the cleanup deleted it: an object with
 * finalizers when the cleaner removes them, once its deletion timestamp is older than the
 * finalization grace period (a Pod's deletion timestamp lies its grace period ahead); a Pod
 * without finalizers when its containers stopped, at the latest after its grace period; any
 * other object at once.
 */
export function secondsUntilGone(r: ClusterResource, options: CleanOptions): number {
  const stuck = (r.finalizers ?? []).length > 0;
  const deletionTimestampDelay = r.kind === "Pod" ? options.gracePeriodSeconds : 0;
  if (stuck) return deletionTimestampDelay + options.finalizeGracePeriodSeconds;
  return deletionTimestampDelay;
}

/** A deleted object: what it is called, which list it is in, when it is gone. */
export interface CleanedObject {
  readonly resource: string;
  /** As a "remaining objects" error names it. */
  readonly object: string;
  readonly kind: string;
  readonly goneAfterSeconds: number;
}

export interface PlannedCleanupStep {
  readonly name: string;
  readonly task: string;
  /** The task does not run (the extended APIs with skip-cleanup). */
  readonly skipped: boolean;
  /** What is deleted. */
  readonly resources: readonly ClusterResource[];
  /** What stays: not selected (no-cleanup, system components, built-ins), or not listed with skip-cleanup. */
  readonly kept: readonly ClusterResource[];
  /** The options of each list, in order. */
  readonly options: readonly (CleanOptions & { readonly kinds: readonly string[] })[];
  /** The deleted objects and when each is gone. */
  readonly objects: readonly CleanedObject[];
  /** Why the task fails at once, every time (an annotation Atoi cannot read). */
  readonly error?: string;
}

export function cleanupPlan(shoot: Shoot, inventory: readonly ClusterResource[]): PlannedCleanupStep[] {
  const annotations = shoot.metadata.annotations;
  const skipCleanup = annotations !== undefined && ANNOTATION_SKIP_CLEANUP in annotations;
  return CLEANUP_STEPS.map((step) => {
    const ofStep = inventory.filter((r) => step.lists.some((l) => l.kinds.includes(r.kind)));
    const lists = skipCleanup ? step.withSkipCleanup : step.lists;
    if (lists === "skip")
      return { name: step.name, task: step.task, skipped: true, resources: [], kept: ofStep, options: [], objects: [] };
    const options: (CleanOptions & { kinds: readonly string[] })[] = [];
    const objects: CleanedObject[] = [];
    const resources: ClusterResource[] = [];
    let error: string | undefined;
    for (const list of lists) {
      const got = getCleanOptions(
        annotations,
        list.gracePeriodSeconds,
        list.finalizeAfterSeconds,
        list.annotation,
        list.factor,
      );
      if (got.error !== undefined) {
        error ??= got.error;
        continue;
      }
      options.push({ ...got.options, kinds: list.kinds });
      for (const kind of list.kinds) {
        for (const r of ofStep.filter((x) => x.kind === kind && selectedForCleanup(x))) {
          resources.push(r);
          objects.push({
            resource: resourceLabel(r),
            object: objectName(r),
            kind,
            goneAfterSeconds: secondsUntilGone(r, got.options),
          });
        }
      }
    }
    if (error !== undefined)
      return {
        name: step.name,
        task: step.task,
        skipped: false,
        resources: [],
        kept: ofStep,
        options,
        objects: [],
        error,
      };
    const kept = ofStep.filter((r) => !resources.includes(r));
    return { name: step.name, task: step.task, skipped: false, resources, kept, options, objects };
  });
}

// ---- A deletion under way ----

/** One run of a step's task, which the flow's timeout may cut short. */
export interface CleanupAttempt {
  readonly startedAt: number;
  readonly endedAt?: number;
  /** The task's error, as lastErrors names it. */
  readonly error?: string;
}

export interface DeletionStep {
  readonly name: string;
  /** The flow task (absent for the final DeleteShoot and in records made before it was kept). */
  readonly task?: string;
  readonly startedAt?: number;
  readonly endedAt?: number;
  readonly message?: string;
  /** How long the step takes in all, in the simulation's seconds (0 when skipped or empty). */
  readonly seconds: number;
  /** Whether stuck resources (finalizers) had to be finalized forcibly. */
  readonly forced: boolean;
  readonly deleted: readonly string[];
  readonly kept: readonly string[];
  readonly skipped?: boolean;
  readonly objects?: readonly CleanedObject[];
  /** Set when the task fails at once every time (an unreadable annotation). */
  readonly error?: string;
  readonly attempts?: readonly CleanupAttempt[];
}

/** A deletion under way: the cleanup steps, then removing the shoot. */
export interface Deletion {
  readonly state: "Processing" | "Error" | "Failed" | "Succeeded";
  /** Index of the step running or to run; steps.length when done. */
  readonly step: number;
  readonly steps: readonly DeletionStep[];
  readonly startedAt: number;
  readonly finishedAt?: number;
  /** Flow runs that ended in an error in a row: the gardenlet's backoff grows with them. */
  readonly failures?: number;
}

export function startDeletion(plan: readonly PlannedCleanupStep[], now: number): Deletion {
  return {
    state: "Processing",
    step: 0,
    startedAt: now,
    steps: [
      ...plan.map((s) => ({
        name: s.name,
        task: s.task,
        seconds: Math.max(0, ...s.objects.map((o) => o.goneAfterSeconds)),
        forced: s.resources.some((r) => (r.finalizers ?? []).length > 0),
        deleted: s.resources.map(resourceLabel),
        kept: s.kept.map(resourceLabel),
        ...(s.skipped ? { skipped: true } : {}),
        objects: s.objects,
        ...(s.error !== undefined ? { error: s.error } : {}),
        attempts: [],
      })),
      { name: "DeleteShoot", seconds: 0, forced: false, deleted: [], kept: [] },
    ],
  };
}

/** hashicorp/go-multierror's default format, which flow.Parallel's errors print with. */
function multiError(errors: readonly string[]): string {
  if (errors.length === 1) return `1 error occurred:\n\t* ${errors[0]}\n\n`;
  return `${errors.length} errors occurred:\n\t${errors.map((e) => `* ${e}`).join("\n\t")}\n\n`;
}

/** What an attempt at a cleanup step comes to: done after some seconds, or failed after some seconds. */
export interface CleanupAttemptOutcome {
  /** Seconds after the attempt's start. */
  readonly afterSeconds: number;
  /** The task's error (`task "..." failed: ...`) and its codes, when the attempt fails. */
  readonly failure?: { readonly taskError: string; readonly codes: readonly string[] };
}

/**
 * An attempt that starts `elapsedSeconds` after the step first deleted its objects: it ends when
 * the last of them is gone, unless that is more than the task's ten minutes away; then the task
 * fails with the objects still there at its timeout (retry.Until's "retry failed with context
 * deadline exceeded, last error: remaining objects are still present: [...]", one per list in
 * parallel, with ERR_CLEANUP_CLUSTER_RESOURCES). An unreadable annotation fails it at once.
 */
export function cleanupAttemptOutcome(step: DeletionStep, elapsedSeconds: number): CleanupAttemptOutcome {
  const task = step.task ?? step.name;
  if (step.error !== undefined)
    return { afterSeconds: 0, failure: { taskError: `task "${task}" failed: ${step.error}`, codes: [] } };
  const remaining = Math.max(0, step.seconds - elapsedSeconds);
  if (remaining <= CLEANUP_TASK_TIMEOUT_SECONDS) return { afterSeconds: remaining };
  const deadline = elapsedSeconds + CLEANUP_TASK_TIMEOUT_SECONDS;
  const left = (step.objects ?? []).filter((o) => o.goneAfterSeconds > deadline);
  const kinds = [...new Set(left.map((o) => o.kind))];
  const listErrors = kinds.map(
    (kind) =>
      `retry failed with context deadline exceeded, last error: remaining objects are still present: [${left
        .filter((o) => o.kind === kind)
        .map((o) => o.object)
        .join(" ")}]`,
  );
  return {
    afterSeconds: CLEANUP_TASK_TIMEOUT_SECONDS,
    failure: { taskError: `task "${task}" failed: ${multiError(listErrors)}`, codes: [ERR_CLEANUP_CLUSTER_RESOURCES] },
  };
}

/** The flow's error as lastOperation describes it (FormatLastErrDescription of flowFailed). */
export function deletionFlowError(taskError: string): string {
  return `Flow "${DELETION_FLOW}" encountered task errors: [${taskError}]`;
}

export function describeCleanupStep(step: DeletionStep): string {
  if (step.name === "DeleteShoot") return "The shoot and its control plane were deleted.";
  if (step.skipped)
    return `${step.name}: skipped (${ANNOTATION_SKIP_CLEANUP}); ${step.kept.length} left alone${
      step.kept.length > 0 ? ` (${step.kept.join(", ")})` : ""
    }.`;
  const parts = [
    step.deleted.length === 0 ? "nothing to delete" : `${step.deleted.length} deleted (${step.deleted.join(", ")})`,
  ];
  if (step.forced) parts.push(`stuck resources finalized forcibly after ${step.seconds}s`);
  const errors = (step.attempts ?? []).filter((a) => a.error !== undefined).length;
  if (errors > 0) parts.push(`${errors} attempt${errors === 1 ? "" : "s"} timed out waiting for them`);
  if (step.kept.length > 0) parts.push(`${step.kept.length} left alone (${step.kept.join(", ")})`);
  return `${step.name}: ${parts.join("; ")}.`;
}

/** The shoot's lastOperation while step `d.step` runs: the task under way, progress by steps done. */
export function deletionLastOperation(d: Deletion, now: number) {
  const index = Math.min(d.step, d.steps.length - 1);
  const step = d.steps[index];
  return {
    type: "Delete",
    state: d.state,
    progress: d.state === "Succeeded" ? 100 : Math.floor((d.step / d.steps.length) * 100),
    description:
      d.state === "Succeeded"
        ? "Shoot cluster has been successfully deleted."
        : (step.task ?? "Deletion of Shoot cluster in progress."),
    lastUpdateTime: new Date(Math.floor(now / 1000) * 1000).toISOString().replace(".000Z", "Z"),
  };
}

// ---- What a deletion would leave, and the grace periods in effect (shown before deleting) ----

/** One list of a cleanup step with the finalization grace period in effect for this shoot. */
export interface GracePeriodInEffect {
  readonly step: string;
  readonly kinds: readonly string[];
  /** The annotation that can shorten it. */
  readonly annotation: string;
  /** The annotation's value on the shoot, if set. */
  readonly value?: string;
  readonly defaultFinalizeAfterSeconds: number;
  /** What the cleanup uses (undefined when the annotation cannot be read: the step fails with `error`). */
  readonly options?: CleanOptions;
  /** The step does not run (the extended APIs with skip-cleanup). */
  readonly skipped: boolean;
  readonly error?: string;
}

/** The grace periods each cleanup list uses for this shoot (getCleanOptions on its annotations). */
export function gracePeriodsInEffect(shoot: Shoot): GracePeriodInEffect[] {
  const annotations = shoot.metadata.annotations;
  const skipCleanup = annotations !== undefined && ANNOTATION_SKIP_CLEANUP in annotations;
  return CLEANUP_STEPS.flatMap((step): GracePeriodInEffect[] => {
    const lists = skipCleanup ? step.withSkipCleanup : step.lists;
    if (lists === "skip")
      return step.lists.map((list) => ({
        step: step.name,
        kinds: list.kinds,
        annotation: list.annotation,
        ...(annotations?.[list.annotation] !== undefined ? { value: annotations[list.annotation] } : {}),
        defaultFinalizeAfterSeconds: list.finalizeAfterSeconds,
        skipped: true,
      }));
    return lists.map((list) => {
      const got = getCleanOptions(
        annotations,
        list.gracePeriodSeconds,
        list.finalizeAfterSeconds,
        list.annotation,
        list.factor,
      );
      return {
        step: step.name,
        kinds: list.kinds,
        annotation: list.annotation,
        ...(annotations?.[list.annotation] !== undefined ? { value: annotations[list.annotation] } : {}),
        defaultFinalizeAfterSeconds: list.finalizeAfterSeconds,
        ...(got.error === undefined ? { options: got.options } : { error: got.error }),
        skipped: false,
      };
    });
  });
}

/** A resource labelled shoot.gardener.cloud/no-cleanup=true, and what the deletion does with it. */
export interface NoCleanupResource {
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly finalizers: readonly string[];
  /**
   * "spared": the cleanup leaves it (the owner deletes it); "deleted-anyway": the cleanup ignores
   * the label for its kind (APIServices); "not-cleaned": the cleanup never deletes this kind.
   */
  readonly outcome: "spared" | "deleted-anyway" | "not-cleaned";
}

const CLEANED_KINDS = new Set(CLEANUP_STEPS.flatMap((s) => s.lists.flatMap((l) => l.kinds)));

/** The inventory's resources labelled no-cleanup, in inventory order, with what the deletion does to each. */
export function noCleanupResources(inventory: readonly ClusterResource[]): NoCleanupResource[] {
  return inventory
    .filter((r) => label(r, LABEL_NO_CLEANUP) === "true")
    .map((r) => ({
      kind: r.kind,
      ...(r.namespace !== undefined ? { namespace: r.namespace } : {}),
      name: r.name,
      finalizers: r.finalizers ?? [],
      outcome: !CLEANED_KINDS.has(r.kind) ? "not-cleaned" : selectedForCleanup(r) ? "deleted-anyway" : "spared",
    }));
}

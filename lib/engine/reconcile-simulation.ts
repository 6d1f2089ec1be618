// The simulated gardenlet: how a shoot's status moves through a Reconcile operation, step by step,
// and how a fault shows (error codes, Error or Failed as Gardener decides it, conditions through
// Progressing to False after the threshold). The status is written by Gardener's rules
// (shoot-operation.ts); the tasks annotation loses each task once its step is done. Pure: the
// caller supplies the time and decides when steps happen.
import type { Condition, LastError, Shoot } from "../gardener/types.ts";
import { crc32 } from "./crc32.ts";
import {
  ERR_CONFIGURATION_PROBLEM,
  ERR_INFRA_QUOTA_EXCEEDED,
  ERR_INFRA_RATE_LIMITS_EXCEEDED,
  ERR_INFRA_RESOURCES_DEPLETED,
  ERR_INFRA_UNAUTHORIZED,
  ERR_RETRYABLE_INFRA_DEPENDENCIES,
  hasNonRetryableErrorCode,
} from "./last-errors.ts";
import {
  removeTasks,
  TASK_DEPLOY_DNS_RECORD_EXTERNAL,
  TASK_DEPLOY_DNS_RECORD_INGRESS,
  TASK_DEPLOY_DNS_RECORD_INTERNAL,
  TASK_DEPLOY_INFRASTRUCTURE,
  TASK_RESTART_CONTROL_PLANE_PODS,
  TASK_RESTART_CORE_ADDONS,
} from "./operation-annotations.ts";
import {
  DEFAULT_RETRY_DURATION_MS,
  patchShootStatusOperationError,
  patchShootStatusOperationSuccess,
  updateShootStatusOperationStart,
} from "./shoot-operation.ts";
import { hibernationIsEnabled } from "./shoot-strategy.ts";
import { ANNOTATION_RECONCILED_SPEC, specFingerprint } from "./rollout-pending.ts";
import { formatTime } from "./time-format.ts";

/** The annotation holding the id of the reconcile under way, so that a superseded one stops. */
export const ANNOTATION_RECONCILE_ID = "almanac.gardener.cloud/reconcile-id";
/** "<generation>/<attempt>": which attempt at reconciling which generation is under way. */
const ANNOTATION_RECONCILE_ATTEMPT = "almanac.gardener.cloud/reconcile-attempt";

/** The attempt a new reconcile is: the next one at the same generation, else the first. */
export function nextReconcileAttempt(shoot: Shoot): number {
  const [generation, attempt] = (shoot.metadata.annotations?.[ANNOTATION_RECONCILE_ATTEMPT] ?? "")
    .split("/")
    .map(Number);
  return generation === (shoot.metadata.generation ?? 0) && Number.isInteger(attempt) && attempt > 0 ? attempt + 1 : 1;
}

// Exported for the unit tests, which follow a reconcile step by step.
export const RECONCILE_STEPS: readonly { progress: number; description: string }[] = [
  { progress: 0, description: "Reconciliation of Shoot cluster initialized." },
  { progress: 20, description: "Deploying Shoot infrastructure" },
  { progress: 45, description: "Waiting until the Kubernetes API server rolled out" },
  { progress: 70, description: "Reconciling shoot worker nodes" },
  { progress: 90, description: "Waiting until shoot worker nodes have been reconciled" },
];

export interface Fault {
  readonly code: string;
  /** Whether the gardenlet retries it (Error) rather than giving up (Failed): no non-retryable code. */
  readonly retryable: boolean;
  /** The step at which it strikes. */
  readonly step: number;
  readonly taskID: string;
  readonly message: string;
  /** The health check that fails with it. */
  readonly condition: string;
}

// Faults with Gardener's error codes (docs/usage/shoot/shoot_status.md). Whether the gardenlet
// retries by itself is not a property of the fault but Gardener's rule on its codes
// (hasNonRetryableErrorCode): rate limits end Failed, and the controller-manager retries them
// later (shoot-retry.ts).
const FAULT_TABLE: readonly Omit<Fault, "step" | "retryable">[] = [
  {
    code: ERR_INFRA_RATE_LIMITS_EXCEEDED,
    taskID: "Deploying Shoot infrastructure",
    condition: "ControlPlaneHealthy",
    message: "Throttling: Rate exceeded, status code: 400, request id: 7c2f3d1e",
  },
  {
    code: ERR_RETRYABLE_INFRA_DEPENDENCIES,
    taskID: "Deploying Shoot infrastructure",
    condition: "ControlPlaneHealthy",
    message: "DependencyViolation: the security group has a dependent object",
  },
  {
    code: ERR_INFRA_QUOTA_EXCEEDED,
    taskID: "Reconciling shoot worker nodes",
    condition: "EveryNodeReady",
    message: "VcpuLimitExceeded: You have requested more vCPU capacity than your current vCPU limit allows",
  },
  {
    code: ERR_CONFIGURATION_PROBLEM,
    taskID: "Reconciling shoot worker nodes",
    condition: "SystemComponentsHealthy",
    message: 'admission webhook "validation.example.com" denied the request: invalid node pool configuration',
  },
  {
    code: ERR_INFRA_UNAUTHORIZED,
    taskID: "Deploying Shoot infrastructure",
    condition: "ControlPlaneHealthy",
    message: "UnauthorizedOperation: You are not authorized to perform this operation",
  },
  {
    code: ERR_INFRA_RESOURCES_DEPLETED,
    taskID: "Reconciling shoot worker nodes",
    condition: "EveryNodeReady",
    message: "ZONE_RESOURCE_POOL_EXHAUSTED: The zone does not have enough resources available to fulfil the request",
  },
];

const FAULTS: readonly Omit<Fault, "step">[] = FAULT_TABLE.map((f) => ({
  ...f,
  retryable: !hasNonRetryableErrorCode({ codes: [f.code] }),
}));

// Exported for the unit test that checks it against Gardener's list of non-retryable codes.
export const NON_RETRYABLE_CODES = new Set(FAULTS.filter((f) => !f.retryable).map((f) => f.code));

/**
 * The fault (if any) that strikes attempt `attempt` of reconciling `generation` of the shoot:
 * a stable draw from the seed, so runs are repeatable.
 */
export function drawFault(
  seed: number,
  uid: string,
  generation: number,
  attempt: number,
  rate: number,
): Fault | undefined {
  if (rate <= 0) return undefined;
  const draw = crc32(`${seed}|${uid}|${generation}|${attempt}`);
  if ((draw % 10_000) / 10_000 >= rate) return undefined;
  const fault = FAULTS[Math.floor(draw / 10_000) % FAULTS.length];
  const step = 1 + (Math.floor(draw / 97) % (RECONCILE_STEPS.length - 1));
  // The task that fails is the one under way at that step.
  return { ...fault, step, taskID: RECONCILE_STEPS[step].description };
}

function setCondition(
  conditions: Condition[],
  type: string,
  status: string,
  reason: string,
  message: string,
  now: string,
  codes?: string[],
): Condition[] {
  return conditions.map((c) => {
    if (c.type !== type) return c;
    const { codes: _old, ...rest } = c;
    return {
      ...rest,
      status,
      reason,
      message,
      lastUpdateTime: now,
      lastTransitionTime: c.status !== status ? now : (c.lastTransitionTime ?? now),
      ...(codes ? { codes } : {}),
    };
  });
}

/**
 * The simulation's bookkeeping: which reconcile and attempt is under way, and the fingerprint of
 * the spec it rolls out (rollout-pending.ts).
 */
function withReconcileId(shoot: Shoot, reconcileId: string, attempt: number): Shoot["metadata"] {
  return {
    ...shoot.metadata,
    annotations: {
      ...shoot.metadata.annotations,
      [ANNOTATION_RECONCILE_ID]: reconcileId,
      [ANNOTATION_RECONCILE_ATTEMPT]: `${shoot.metadata.generation ?? 0}/${attempt}`,
      [ANNOTATION_RECONCILED_SPEC]: specFingerprint(shoot.spec),
    },
  };
}

/** Gardener's ComputeOperationType for a shoot that is neither deleted nor migrated: Create until it succeeded once. */
export function reconcileOperationType(shoot: Shoot): "Create" | "Reconcile" {
  const op = shoot.status?.lastOperation;
  return !op || (op.type === "Create" && op.state !== "Succeeded") ? "Create" : "Reconcile";
}

/**
 * Starts attempt `attempt` of a Reconcile (or Create) as the gardenlet does
 * (updateShootStatusOperationStart): Processing at 0 %, the generation observed, the retry cycle
 * started. The operation annotation is not touched here: gardener-apiserver consumed `reconcile`
 * and `retry` already (shoot-strategy.ts), and the tasks go one by one as their steps finish.
 */
export function beginReconcile(shoot: Shoot, reconcileId: string, now: number, attempt = 1): Shoot {
  const started = updateShootStatusOperationStart(shoot, reconcileOperationType(shoot), now);
  return { ...started, metadata: withReconcileId(started, reconcileId, attempt) };
}

// The tasks each step finishes, and whether a hibernated shoot skips the work that removes them
// (reconciler_reconcile.go: removeTaskAnnotation after waiting for the infrastructure, after the
// internal and external DNS records, after restarting the control plane pods, after CoreDNS, and
// after the ingress DNS record, which waits for the workers).
const TASKS_DONE_BY_STEP: Readonly<Record<number, readonly { task: string; skippedWhenHibernated: boolean }[]>> = {
  1: [{ task: TASK_DEPLOY_INFRASTRUCTURE, skippedWhenHibernated: false }],
  2: [
    { task: TASK_DEPLOY_DNS_RECORD_INTERNAL, skippedWhenHibernated: true },
    { task: TASK_DEPLOY_DNS_RECORD_EXTERNAL, skippedWhenHibernated: true },
    { task: TASK_RESTART_CONTROL_PLANE_PODS, skippedWhenHibernated: false },
  ],
  3: [{ task: TASK_RESTART_CORE_ADDONS, skippedWhenHibernated: true }],
  4: [{ task: TASK_DEPLOY_DNS_RECORD_INGRESS, skippedWhenHibernated: true }],
};

/**
 * Gardener's removeTaskAnnotation after step `step`: its tasks leave the tasks annotation, but only
 * while the shoot is still at the generation the reconcile started with (a change made meanwhile
 * needs them done again by the next reconcile).
 */
export function removeTasksOfStep(shoot: Shoot, step: number, generation: number): Shoot {
  const done = (TASKS_DONE_BY_STEP[step] ?? [])
    .filter((t) => !(t.skippedWhenHibernated && hibernationIsEnabled(shoot)))
    .map((t) => t.task);
  if (done.length === 0 || (shoot.metadata.generation ?? 0) !== generation) return shoot;
  if (!shoot.metadata.annotations?.["shoot.gardener.cloud/tasks"]) return shoot;
  const annotations = { ...shoot.metadata.annotations };
  removeTasks(annotations, ...done);
  return { ...shoot, metadata: { ...shoot.metadata, annotations } };
}

/**
 * Step `step` (1 ...) of a reconcile of `generation` (default: the shoot's): the step before it
 * is done (its tasks removed); with `fault` striking here, the operation ends in Error or Failed
 * by Gardener's rule (patchShootStatusOperationError), Failed also once `retryDurationMs` has
 * passed since the retry cycle started.
 */
export function advanceReconcile(
  shoot: Shoot,
  step: number,
  now: number,
  fault?: Fault,
  generation: number = shoot.metadata.generation ?? 0,
  retryDurationMs: number = DEFAULT_RETRY_DURATION_MS,
): Shoot {
  const t = formatTime(now);
  shoot = removeTasksOfStep(shoot, step - 1, generation);
  let conditions = [...(shoot.status?.conditions ?? [])];
  const operationType = reconcileOperationType(shoot) === "Create" ? "Create" : "Reconcile";
  if (fault && fault.step === step) {
    const taskError = `task "${fault.taskID}" failed: ${fault.message}`;
    const description = `Flow "Shoot cluster reconciliation" encountered task errors: [${taskError}]`;
    // A failing health check first shows Progressing; it turns False only after the threshold.
    conditions = setCondition(conditions, fault.condition, "Progressing", "HealthCheckFailing", fault.message, t, [
      fault.code,
    ]);
    const lastErrors: LastError[] = [
      { description: taskError, taskID: fault.taskID, codes: [fault.code], lastUpdateTime: t },
    ];
    const errored = patchShootStatusOperationError(shoot, description, operationType, lastErrors, now, retryDurationMs);
    return { ...errored, status: { ...errored.status, conditions } };
  }
  if (step >= RECONCILE_STEPS.length) return completeReconcile(shoot, now, operationType);
  // Rolling nodes and system components: those checks pass through Progressing.
  if (step === 3) {
    conditions = setCondition(
      conditions,
      "EveryNodeReady",
      "Progressing",
      "NodesRollingUpdate",
      "Worker nodes are being rolled.",
      t,
    );
    conditions = setCondition(
      conditions,
      "SystemComponentsHealthy",
      "Progressing",
      "ManagedResourceProgressing",
      "System components are being updated.",
      t,
    );
  }
  const { progress, description } = RECONCILE_STEPS[step];
  return {
    ...shoot,
    status: {
      ...shoot.status,
      conditions,
      lastOperation: { type: operationType, state: "Processing", progress, description, lastUpdateTime: t },
    },
  };
}

/** The step at which the reconcile rolls the worker nodes ("Reconciling shoot worker nodes"). */
export const NODE_ROLL_STEP = 3;

/**
 * Step 3 while the worker pools roll (node-roll.ts): the progress moves from 70 towards 90 with
 * the share of nodes updated, and EveryNodeReady is Progressing with `message` (the pools rolling,
 * and what holds a held one).
 */
export function advanceNodeRoll(shoot: Shoot, now: number, updatedShare: number, message: string): Shoot {
  const t = formatTime(now);
  const from = RECONCILE_STEPS[NODE_ROLL_STEP].progress;
  const to = RECONCILE_STEPS[NODE_ROLL_STEP + 1].progress;
  const share = Math.min(1, Math.max(0, updatedShare));
  // Never 90 before the roll is done: that is the next step's.
  const progress = Math.min(to - 1, from + Math.floor((to - from) * share));
  const conditions = setCondition(
    [...(shoot.status?.conditions ?? [])],
    "EveryNodeReady",
    "Progressing",
    "NodesRollingUpdate",
    message,
    t,
  );
  const operationType = reconcileOperationType(shoot) === "Create" ? "Create" : "Reconcile";
  return {
    ...shoot,
    status: {
      ...shoot.status,
      conditions,
      lastOperation: {
        type: operationType,
        state: "Processing",
        progress,
        description: RECONCILE_STEPS[NODE_ROLL_STEP].description,
        lastUpdateTime: t,
      },
    },
  };
}

/**
 * A roll held longer than the simulation allows: the attempt ends as a task error of step 3
 * (Error, no error code: the gardenlet retries it), naming the node and what it waits for;
 * EveryNodeReady turns to failing (Progressing until the threshold).
 */
export function failNodeRoll(
  shoot: Shoot,
  now: number,
  message: string,
  retryDurationMs: number = DEFAULT_RETRY_DURATION_MS,
): Shoot {
  const t = formatTime(now);
  const taskID = RECONCILE_STEPS[NODE_ROLL_STEP].description;
  const taskError = `task "${taskID}" failed: ${message}`;
  const description = `Flow "Shoot cluster reconciliation" encountered task errors: [${taskError}]`;
  const conditions = setCondition(
    [...(shoot.status?.conditions ?? [])],
    "EveryNodeReady",
    "Progressing",
    "HealthCheckFailing",
    message,
    t,
  );
  const operationType = reconcileOperationType(shoot) === "Create" ? "Create" : "Reconcile";
  const lastErrors: LastError[] = [{ description: taskError, taskID, lastUpdateTime: t }];
  const errored = patchShootStatusOperationError(shoot, description, operationType, lastErrors, now, retryDurationMs);
  return { ...errored, status: { ...errored.status, conditions } };
}

const HEALTHY: Record<string, [string, string]> = {
  APIServerAvailable: ["HealthzRequestSucceeded", "API server /healthz endpoint responded with success status code."],
  ControlPlaneHealthy: ["ControlPlaneRunning", "All control plane components are healthy."],
  ObservabilityComponentsHealthy: ["ObservabilityComponentsRunning", "All observability components are healthy."],
  EveryNodeReady: ["EveryNodeReady", "All nodes are ready."],
  SystemComponentsHealthy: ["SystemComponentsRunning", "All system components are healthy."],
};

/**
 * Succeeded at 100 % (patchShootStatusOperationSuccess: errors and retry cycle cleared, hibernated
 * as the spec asks), every check passing (the care controller's next look, done at once here).
 * observedGeneration was set when the operation started.
 */
function completeReconcile(shoot: Shoot, now: number, operationType: "Create" | "Reconcile"): Shoot {
  const t = formatTime(now);
  let conditions = [...(shoot.status?.conditions ?? [])];
  for (const c of conditions) {
    const [reason, message] = HEALTHY[c.type] ?? ["Healthy", "Condition is healthy."];
    conditions = setCondition(conditions, c.type, "True", reason, message, t);
  }
  const succeeded = patchShootStatusOperationSuccess(shoot, operationType, now);
  const status = succeeded.status ?? {};
  const lastMaintenance =
    status.lastMaintenance?.state === "Processing"
      ? { ...status.lastMaintenance, state: "Succeeded" }
      : status.lastMaintenance;
  return {
    ...succeeded,
    status: {
      ...status,
      conditions,
      // Gardener's patchShootStatusOperationSuccess (gardenlet/controller/shoot/shoot/reconciler.go):
      // the shoot is hibernated once a reconcile with hibernation enabled has succeeded.
      hibernated: shoot.spec.hibernation?.enabled === true,
      ...(lastMaintenance ? { lastMaintenance } : {}),
    },
  };
}

/**
 * The care controller's look at a shoot whose checks have been failing: a condition Progressing
 * for longer than the threshold while the operation is in error turns False.
 */
export function applyConditionThresholds(shoot: Shoot, now: number, thresholdMs: number): Shoot {
  const state = shoot.status?.lastOperation?.state;
  if (state !== "Error" && state !== "Failed") return shoot;
  const t = formatTime(now);
  let changed = false;
  const conditions = (shoot.status?.conditions ?? []).map((c) => {
    const since = Date.parse(c.lastTransitionTime ?? "");
    // Like Gardener, Progressing up to and including the threshold; False only after it.
    if (c.status !== "Progressing" || c.reason !== "HealthCheckFailing" || !(now - since > thresholdMs)) return c;
    changed = true;
    return { ...c, status: "False", lastTransitionTime: t, lastUpdateTime: t };
  });
  return changed ? { ...shoot, status: { ...shoot.status, conditions } } : shoot;
}

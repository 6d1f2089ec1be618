// The simulated gardenlet: how a shoot's status moves through a Reconcile operation, step by step,
// and how a fault shows (error codes, retryable or not, conditions through Progressing to False
// after the threshold). Pure: the caller supplies the time and decides when steps happen.
import type { Condition, Shoot, ShootStatus } from "../gardener/types.ts";
import { crc32 } from "./crc32.ts";
import { ANNOTATION_OPERATION, ANNOTATION_TASKS } from "./operation-annotations.ts";
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
  readonly retryable: boolean;
  /** The step at which it strikes. */
  readonly step: number;
  readonly taskID: string;
  readonly message: string;
  /** The health check that fails with it. */
  readonly condition: string;
}

// Gardener's error codes (docs/usage/shoot/shoot_status.md in gardener/gardener), with whether the
// gardenlet retries by itself.
const FAULTS: readonly Omit<Fault, "step">[] = [
  {
    code: "ERR_INFRA_RATE_LIMITS_EXCEEDED",
    retryable: true,
    taskID: "Deploying Shoot infrastructure",
    condition: "ControlPlaneHealthy",
    message: "Throttling: Rate exceeded, status code: 400, request id: 7c2f3d1e",
  },
  {
    code: "ERR_RETRYABLE_INFRA_DEPENDENCIES",
    retryable: true,
    taskID: "Deploying Shoot infrastructure",
    condition: "ControlPlaneHealthy",
    message: "DependencyViolation: the security group has a dependent object",
  },
  {
    code: "ERR_INFRA_QUOTA_EXCEEDED",
    retryable: false,
    taskID: "Reconciling shoot worker nodes",
    condition: "EveryNodeReady",
    message: "VcpuLimitExceeded: You have requested more vCPU capacity than your current vCPU limit allows",
  },
  {
    code: "ERR_CONFIGURATION_PROBLEM",
    retryable: false,
    taskID: "Reconciling shoot worker nodes",
    condition: "SystemComponentsHealthy",
    message: 'admission webhook "validation.example.com" denied the request: invalid node pool configuration',
  },
  {
    code: "ERR_INFRA_UNAUTHORIZED",
    retryable: false,
    taskID: "Deploying Shoot infrastructure",
    condition: "ControlPlaneHealthy",
    message: "UnauthorizedOperation: You are not authorized to perform this operation",
  },
];

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

/** The operation annotations a reconcile consumes. */
function withoutOperationAnnotations(shoot: Shoot, reconcileId: string, attempt: number): Shoot["metadata"] {
  const annotations = { ...(shoot.metadata.annotations ?? {}) };
  delete annotations[ANNOTATION_OPERATION];
  delete annotations[ANNOTATION_TASKS];
  annotations[ANNOTATION_RECONCILE_ID] = reconcileId;
  annotations[ANNOTATION_RECONCILE_ATTEMPT] = `${shoot.metadata.generation ?? 0}/${attempt}`;
  return { ...shoot.metadata, annotations };
}

/** Starts attempt `attempt` of a Reconcile: Processing at 0 %, the triggering annotations consumed. */
export function beginReconcile(shoot: Shoot, reconcileId: string, now: number, attempt = 1): Shoot {
  const t = formatTime(now);
  const status: ShootStatus = {
    ...shoot.status,
    lastOperation: {
      type: "Reconcile",
      state: "Processing",
      progress: 0,
      description: RECONCILE_STEPS[0].description,
      lastUpdateTime: t,
    },
  };
  return { ...shoot, metadata: withoutOperationAnnotations(shoot, reconcileId, attempt), status };
}

/**
 * Step `step` (1 ...) of a reconcile of `generation` (default: the shoot's); with `fault`
 * striking here, the operation ends in Error or Failed.
 */
export function advanceReconcile(shoot: Shoot, step: number, now: number, fault?: Fault, generation?: number): Shoot {
  const t = formatTime(now);
  let conditions = [...(shoot.status?.conditions ?? [])];
  if (fault && fault.step === step) {
    const description = `Flow "Shoot cluster reconciliation" encountered task errors: [task "${fault.taskID}" failed: ${fault.message}]`;
    // A failing health check first shows Progressing; it turns False only after the threshold.
    conditions = setCondition(conditions, fault.condition, "Progressing", "HealthCheckFailing", fault.message, t, [
      fault.code,
    ]);
    return {
      ...shoot,
      status: {
        ...shoot.status,
        conditions,
        lastOperation: {
          type: "Reconcile",
          state: fault.retryable ? "Error" : "Failed",
          progress: RECONCILE_STEPS[step - 1].progress,
          description,
          lastUpdateTime: t,
        },
        lastErrors: [{ description, taskID: fault.taskID, codes: [fault.code], lastUpdateTime: t }],
      },
    };
  }
  if (step >= RECONCILE_STEPS.length) return completeReconcile(shoot, now, generation);
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
      lastOperation: { type: "Reconcile", state: "Processing", progress, description, lastUpdateTime: t },
    },
  };
}

const HEALTHY: Record<string, [string, string]> = {
  APIServerAvailable: ["HealthzRequestSucceeded", "API server /healthz endpoint responded with success status code."],
  ControlPlaneHealthy: ["ControlPlaneRunning", "All control plane components are healthy."],
  ObservabilityComponentsHealthy: ["ObservabilityComponentsRunning", "All observability components are healthy."],
  EveryNodeReady: ["EveryNodeReady", "All nodes are ready."],
  SystemComponentsHealthy: ["SystemComponentsRunning", "All system components are healthy."],
};

/**
 * Succeeded at 100 %: errors cleared, every check passing, the reconciled generation observed,
 * hibernated as the spec asks.
 */
function completeReconcile(shoot: Shoot, now: number, generation = shoot.metadata.generation): Shoot {
  const t = formatTime(now);
  let conditions = [...(shoot.status?.conditions ?? [])];
  for (const c of conditions) {
    const [reason, message] = HEALTHY[c.type] ?? ["Healthy", "Condition is healthy."];
    conditions = setCondition(conditions, c.type, "True", reason, message, t);
  }
  const { lastErrors: _cleared, ...status } = shoot.status ?? {};
  const lastMaintenance =
    status.lastMaintenance?.state === "Processing"
      ? { ...status.lastMaintenance, state: "Succeeded" }
      : status.lastMaintenance;
  return {
    ...shoot,
    status: {
      ...status,
      conditions,
      observedGeneration: generation,
      // Gardener's patchShootStatusOperationSuccess (gardenlet/controller/shoot/shoot/reconciler.go):
      // the shoot is hibernated once a reconcile with hibernation enabled has succeeded.
      hibernated: shoot.spec.hibernation?.enabled === true,
      ...(lastMaintenance ? { lastMaintenance } : {}),
      lastOperation: {
        type: "Reconcile",
        state: "Succeeded",
        progress: 100,
        description: "Shoot cluster has been successfully reconciled.",
        lastUpdateTime: t,
      },
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

// How the gardenlet's shoot controller records an operation in the shoot's status (Gardener:
// pkg/gardenlet/controller/shoot/shoot/reconciler.go, updateShootStatusOperationStart,
// patchShootStatusOperationError and patchShootStatusOperationSuccess), when it leaves a shoot
// alone (pkg/utils/gardener/shoot.go, IsShootFailedAndUpToDate) and how soon it tries again after
// an error (controller-runtime's default rate limiter). Pure: the caller passes the time.
import type { LastError, Shoot, ShootStatus } from "../gardener/types.ts";
import { hasNonRetryableErrorCode } from "./last-errors.ts";
import { ROTATION_OPERATIONS } from "./operation-annotations.ts";
import { formatTime } from "./time-format.ts";
import { HOUR_MS } from "./time-units.ts";

/** The gardenlet's controllers.shoot.retryDuration default: Error turns Failed after it. */
export const DEFAULT_RETRY_DURATION_MS = 12 * HOUR_MS;

/** The suffix of an Error's description (patchShootStatusOperationError). */
export const WILL_BE_RETRIED = " Operation will be retried.";

/** The task ID of errors from initializing an operation, dropped when the next one starts. */
const TASK_INITIALIZE_OPERATION = "initializeOperation";

// The operations the gardenlet carries out from the annotation and removes once it has started them
// (updateShootStatusOperationStart's mustRemoveOperationAnnotation).
const OPERATIONS_REMOVED_AT_START: ReadonlySet<string> = new Set([
  ...ROTATION_OPERATIONS,
  "rotate-kubeconfig-credentials",
  "rotate-ssh-keypair",
]);

const removedAtStart = (op: string) =>
  OPERATIONS_REMOVED_AT_START.has(op) || op.startsWith("rotate-rollout-workers") || op.startsWith("rollout-workers");

type OperationType = "Create" | "Reconcile" | "Restore" | "Migrate" | "Delete";

const START_DESCRIPTIONS: Record<OperationType, string> = {
  Create: "Reconciliation of Shoot cluster initialized.",
  Reconcile: "Reconciliation of Shoot cluster initialized.",
  Restore: "Restoration of Shoot cluster initialized.",
  Migrate: "Preparation of Shoot cluster for migration initialized.",
  Delete: "Deletion of Shoot cluster in progress.",
};

const SUCCESS_DESCRIPTIONS: Record<OperationType, string> = {
  Create: "Shoot cluster has been successfully reconciled.",
  Reconcile: "Shoot cluster has been successfully reconciled.",
  Restore: "Shoot cluster has been successfully restored.",
  Migrate: "Shoot cluster has been successfully prepared for migration.",
  Delete: "Shoot cluster has been successfully deleted.",
};

/**
 * Gardener's utils.TimeElapsed: whether `duration` has passed since `timestamp` (true without a
 * timestamp): `now` is not before its end.
 */
export function timeElapsed(timestamp: string | undefined, durationMs: number, now: number): boolean {
  if (timestamp === undefined) return true;
  const start = Date.parse(timestamp);
  if (Number.isNaN(start)) return true;
  return !(now < start + durationMs);
}

/** Gardener's IsShootFailedAndUpToDate: Failed at the latest generation, so the gardenlet leaves it alone. */
export function isShootFailedAndUpToDate(shoot: Shoot): boolean {
  return (
    shoot.status?.lastOperation?.state === "Failed" &&
    (shoot.metadata.generation ?? 0) === (shoot.status?.observedGeneration ?? 0)
  );
}

/**
 * Gardener's updateShootStatusOperationStart: the operation Processing at 0 %, observedGeneration
 * set to the generation now being acted on, the retry cycle (re)started when there is none, the
 * generation moved on or the operation turned into a deletion, errors of the initialization
 * dropped, and a credentials rotation's operation annotation consumed.
 */
export function updateShootStatusOperationStart(shoot: Shoot, operationType: OperationType, now: number): Shoot {
  const t = formatTime(now);
  const status: ShootStatus = { ...shoot.status };
  const lastOperation = status.lastOperation;
  const operationTypeSwitched =
    operationType === "Delete" && lastOperation !== undefined && lastOperation.type !== "Delete";
  const generation = shoot.metadata.generation ?? 0;
  if (
    status.retryCycleStartTime === undefined ||
    generation !== (status.observedGeneration ?? 0) ||
    operationTypeSwitched
  )
    status.retryCycleStartTime = t;
  const lastErrors = (status.lastErrors ?? []).filter((e) => e.taskID !== TASK_INITIALIZE_OPERATION);
  if (lastErrors.length > 0) status.lastErrors = lastErrors;
  else delete status.lastErrors;
  status.observedGeneration = generation;
  status.lastOperation = {
    type: operationType,
    state: "Processing",
    progress: 0,
    description: START_DESCRIPTIONS[operationType],
    lastUpdateTime: t,
  };
  // The annotation may list several operations (";"): each one started leaves the list.
  const operation = shoot.metadata.annotations?.["gardener.cloud/operation"];
  if (operation === undefined) return { ...shoot, status };
  const operations = operation.split(";").map((op) => op.trim());
  const left = operations.filter((op) => op !== "" && !removedAtStart(op));
  if (left.length === operations.length) return { ...shoot, status };
  const { "gardener.cloud/operation": _started, ...annotations } = shoot.metadata.annotations ?? {};
  if (left.length > 0) annotations["gardener.cloud/operation"] = left.join(";");
  return { ...shoot, metadata: { ...shoot.metadata, annotations }, status };
}

/**
 * Gardener's patchShootStatusOperationError: Failed when an error carries a non-retryable code or
 * the retry duration has passed since the retry cycle started (which then ends), otherwise Error
 * with " Operation will be retried." added to the description. The errors replace lastErrors;
 * the progress stays where it was.
 */
export function patchShootStatusOperationError(
  shoot: Shoot,
  description: string,
  operationType: OperationType,
  lastErrors: readonly LastError[],
  now: number,
  retryDurationMs: number = DEFAULT_RETRY_DURATION_MS,
): Shoot {
  const status: ShootStatus = { ...shoot.status };
  const willNotRetry =
    hasNonRetryableErrorCode(...lastErrors) ||
    timeElapsed(status.retryCycleStartTime as string | undefined, retryDurationMs, now);
  if (willNotRetry) delete status.retryCycleStartTime;
  if (lastErrors.length > 0) status.lastErrors = [...lastErrors];
  else delete status.lastErrors;
  status.lastOperation = {
    ...status.lastOperation,
    type: operationType,
    state: willNotRetry ? "Failed" : "Error",
    description: willNotRetry ? description : description + WILL_BE_RETRIED,
    lastUpdateTime: formatTime(now),
  };
  return { ...shoot, status };
}

/** Gardener's patchShootStatusOperationSuccess: Succeeded at 100 %, errors and retry cycle cleared. */
export function patchShootStatusOperationSuccess(shoot: Shoot, operationType: OperationType, now: number): Shoot {
  const { lastErrors: _cleared, retryCycleStartTime: _ended, ...status } = shoot.status ?? {};
  return {
    ...shoot,
    status: {
      ...status,
      lastOperation: {
        type: operationType,
        state: "Succeeded",
        progress: 100,
        description: SUCCESS_DESCRIPTIONS[operationType],
        lastUpdateTime: formatTime(now),
      },
    },
  };
}

/** Gardener's CleanShootTaskError (the flow's error cleaner): a task that succeeded drops its errors. */
export function cleanShootTaskError(shoot: Shoot, taskID: string): Shoot {
  const before = shoot.status?.lastErrors;
  if (!before?.some((e) => e.taskID === taskID)) return shoot;
  const { lastErrors: _all, ...status } = shoot.status ?? {};
  const lastErrors = before.filter((e) => e.taskID !== taskID);
  return { ...shoot, status: lastErrors.length > 0 ? { ...status, lastErrors } : status };
}

/**
 * How long the gardenlet waits before running a shoot again after its `failures`-th error in a
 * row: controller-runtime's default per-item rate limiter (workqueue's
 * ItemExponentialFailureRateLimiter with 5 ms doubling up to 1000 s), in ms.
 */
export function requeueAfterErrorMs(failures: number): number {
  return Math.min(5 * 2 ** Math.max(0, failures - 1), 1_000_000);
}

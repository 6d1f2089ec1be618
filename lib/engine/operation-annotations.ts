// The operation annotations maintenance reads and writes (Gardener:
// pkg/controllermanager/controller/shoot/maintenance/reconciler.go, maintainOperation, getOperation
// and maintainTasks).
import type { ObjectMeta, ShootStatus } from "../gardener/types.ts";
import { OP_ROTATE_ETCD } from "./credential-rotation.ts";
import type { UpdateResult } from "./update-result.ts";

export const ANNOTATION_OPERATION = "gardener.cloud/operation";
const ANNOTATION_MAINTENANCE_OPERATION = "maintenance.gardener.cloud/operation";
const ANNOTATION_NEEDS_RETRY = "maintenance.shoot.gardener.cloud/needs-retry-operation";
export const ANNOTATION_TASKS = "shoot.gardener.cloud/tasks";

function splitOperations(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(";")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

export function hasMaintainNow(annotations: ObjectMeta["annotations"]): boolean {
  return splitOperations(annotations?.[ANNOTATION_OPERATION]).includes("maintain");
}

/** Operations that act at once or not at all, so that nothing is lost when `maintain` replaces them. */
const NOT_KEPT = new Set(["maintain", "reconcile", "retry"]);

/**
 * The operations the gardener.cloud/operation annotation still holds that Gardener keeps until done:
 * a rotation, rollout-workers, force-in-place-update and the like, which gardener-apiserver leaves
 * on the shoot until the gardenlet has started them (strategy.go), and beside which `maintain` may
 * not run (validation/shoot.go, validateShootOperation: maintain is not among the operations
 * permitted in parallel). Setting `maintain` would overwrite them: they would silently never
 * happen. (`reconcile` and `retry` are consumed as they are written, or do nothing; maintenance
 * ends with a reconcile anyway.)
 */
export function pendingOperations(annotations: ObjectMeta["annotations"]): string[] {
  return splitOperations(annotations?.[ANNOTATION_OPERATION]).filter((op) => !NOT_KEPT.has(op));
}

/** Go's strconv.ParseBool: true for "1", "t", "T", "TRUE", "true", "True". */
export function parseBool(value: string | undefined): boolean {
  return value !== undefined && ["1", "t", "T", "TRUE", "true", "True"].includes(value);
}

/**
 * Rewrites the operation annotations in place and returns the operation to report, or "" when
 * there is none worth reporting (nothing, or exactly "reconcile").
 */
export function maintainOperationAnnotation(
  annotations: Record<string, string>,
  status: ShootStatus | undefined,
  credentials: ReadonlyMap<string, UpdateResult>,
): string {
  if (hasMaintainNow(annotations)) delete annotations[ANNOTATION_OPERATION];
  const lastOperation = status?.lastOperation;
  if (!lastOperation) return "";
  if (lastOperation.state === "Failed") {
    if (parseBool(annotations[ANNOTATION_NEEDS_RETRY])) {
      annotations[ANNOTATION_OPERATION] = "retry";
      delete annotations[ANNOTATION_NEEDS_RETRY];
    }
    return "";
  }
  const ops = splitOperations(annotations[ANNOTATION_MAINTENANCE_OPERATION]);
  if (!ops.includes("reconcile")) ops.push("reconcile");
  for (const [operation, result] of credentials) {
    if (!result.isSuccessful) continue;
    if (operation === OP_ROTATE_ETCD && ops.includes("rotate-etcd-encryption-key-start")) continue;
    ops.push(operation);
  }
  const operation = ops.join(";");
  annotations[ANNOTATION_OPERATION] = operation;
  delete annotations[ANNOTATION_MAINTENANCE_OPERATION];
  return operation === "reconcile" ? "" : operation;
}

// The tasks annotation: what the next reconcile must do although nothing changed (Gardener:
// pkg/controllerutils/miscellaneous.go, GetTasks, HasTask, AddTasks, RemoveTasks, RemoveAllTasks;
// the names are v1beta1constants.ShootTask*).
export const TASK_DEPLOY_INFRASTRUCTURE = "deployInfrastructure";
export const TASK_DEPLOY_DNS_RECORD_INTERNAL = "deployDNSRecordInternal";
export const TASK_DEPLOY_DNS_RECORD_EXTERNAL = "deployDNSRecordExternal";
export const TASK_DEPLOY_DNS_RECORD_INGRESS = "deployDNSRecordIngress";
export const TASK_RESTART_CONTROL_PLANE_PODS = "restartControlPlanePods";
export const TASK_RESTART_CORE_ADDONS = "restartCoreAddons";

/** The tasks in the annotation, in order (GetTasks: split on ","; none when empty or absent). */
export function getTasks(annotations: Readonly<Record<string, string>> | undefined): string[] {
  const value = annotations?.[ANNOTATION_TASKS];
  return value ? value.split(",") : [];
}

export function hasTask(annotations: Readonly<Record<string, string>> | undefined, task: string): boolean {
  return getTasks(annotations).includes(task);
}

function setTaskAnnotations(annotations: Record<string, string>, tasks: string[]): void {
  if (tasks.length === 0) delete annotations[ANNOTATION_TASKS];
  else annotations[ANNOTATION_TASKS] = tasks.join(",");
}

/** Adds tasks to the comma-separated tasks annotation, keeping those already there (AddTasks). */
export function addTasks(annotations: Record<string, string>, ...tasks: string[]): void {
  const existing = getTasks(annotations);
  for (const task of tasks) if (!existing.includes(task)) existing.push(task);
  setTaskAnnotations(annotations, existing);
}

/** Removes every occurrence of the given tasks; an empty list removes the annotation (RemoveTasks). */
export function removeTasks(annotations: Record<string, string>, ...tasks: string[]): void {
  setTaskAnnotations(
    annotations,
    getTasks(annotations).filter((t) => !tasks.includes(t)),
  );
}

/**
 * The credential rotations a user starts with the operation annotation (v1beta1constants
 * OperationRotate*): the gardenlet carries them out and removes the annotation itself.
 */
export const ROTATION_OPERATIONS: readonly string[] = [
  "rotate-credentials-start",
  "rotate-credentials-start-without-workers-rollout",
  "rotate-credentials-complete",
  "rotate-ca-start",
  "rotate-ca-start-without-workers-rollout",
  "rotate-ca-complete",
  "rotate-serviceaccount-key-start",
  "rotate-serviceaccount-key-start-without-workers-rollout",
  "rotate-serviceaccount-key-complete",
  "rotate-etcd-encryption-key",
  "rotate-etcd-encryption-key-start",
  "rotate-etcd-encryption-key-complete",
  "rotate-observability-credentials",
];

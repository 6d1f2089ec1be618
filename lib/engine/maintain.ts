// One maintenance of one shoot, as Gardener's maintenance controller performs it when the shoot
// must be maintained now: machine images, control plane, credential rotations, version clean-ups,
// worker pool versions, operation annotations, lastMaintenance (Gardener:
// pkg/controllermanager/controller/shoot/maintenance/reconciler.go, (*Reconciler).reconcile and
// buildMaintenanceMessages).
import type { CloudProfile, LastMaintenance, Shoot, ShootSpec, Worker } from "../gardener/types.ts";
import { credentialRotations } from "./credential-rotation.ts";
import { imageVersionAdmission } from "./image-version-admission.ts";
import { maintainKubernetesVersion } from "./kubernetes-maintenance.ts";
import { maintainMachineImages } from "./machine-image-maintenance.ts";
import {
  ANNOTATION_OPERATION,
  addTasks,
  hasMaintainNow,
  maintainOperationAnnotation,
} from "./operation-annotations.ts";
import { prepareProfile } from "./prepared-profile.ts";
import { messageOf } from "./selection.ts";
import { formatTime } from "./time-format.ts";
import type { UpdateResult } from "./update-result.ts";
import { applyVersionCleanups } from "./version-cleanups.ts";
import { canonicalVersion, compareVersions, parseVersion } from "./version.ts";

export interface MaintainOptions {
  /** Gardener's enableShootControlPlaneRestarter (off by default in the controller config). */
  readonly restartControlPlanePods?: boolean;
  /** Gardener's enableShootCoreAddonRestarter (off by default). */
  readonly restartCoreAddons?: boolean;
  /**
   * Stands in for the API server's dry run of the update: returns an error text to reject the
   * maintained shoot, or undefined to accept it.
   */
  readonly dryRun?: (maintained: Shoot) => string | undefined;
}

export interface WorkerResult {
  readonly worker: string;
  readonly result: UpdateResult;
}

export interface MaintenanceOutcome {
  /** The shoot after maintenance: new spec, annotations and status.lastMaintenance. */
  readonly shoot: Shoot;
  readonly controlPlane?: UpdateResult;
  readonly workerKubernetes: readonly WorkerResult[];
  readonly workerImages: readonly WorkerResult[];
  readonly credentials: readonly { operation: string; result: UpdateResult }[];
  /** Clean-ups and annotation operations, as reported in the description. */
  readonly operations: readonly string[];
  /** What the controller would only log (an aborted image step, an unparsable version). */
  readonly errors: readonly string[];
  /** Whether lastMaintenance was written by this run. */
  readonly requirePatch: boolean;
  /** Whether the dry run rejected the update (spec then stays unchanged). */
  readonly rejected: boolean;
}

const TASKS_ALWAYS = [
  "deployInfrastructure",
  "deployDNSRecordInternal",
  "deployDNSRecordExternal",
  "deployDNSRecordIngress",
];

/** Copies exactly the parts of the spec that maintenance may change, so the input stays untouched. */
function copySpecForMaintenance(spec: ShootSpec): ShootSpec {
  const copy: ShootSpec = { ...spec, kubernetes: { ...spec.kubernetes } };
  if (spec.provider) {
    copy.provider = { ...spec.provider };
    if (spec.provider.workers) {
      copy.provider.workers = spec.provider.workers.map((w) => ({
        ...w,
        machine: { ...w.machine, image: w.machine?.image ? { ...w.machine.image } : w.machine?.image },
        kubernetes: w.kubernetes ? { ...w.kubernetes } : w.kubernetes,
      }));
    }
  }
  return copy;
}

export function autoUpdateFlags(spec: ShootSpec): { kubernetesVersion: boolean; machineImageVersion: boolean } {
  const auto = spec.maintenance?.autoUpdate;
  return {
    // The API defaults a missing autoUpdate to {kubernetesVersion: true}; inside an explicit
    // autoUpdate an absent kubernetesVersion is Go's false.
    kubernetesVersion: auto ? auto.kubernetesVersion === true : true,
    machineImageVersion: auto?.machineImageVersion ?? true,
  };
}

function quote(text: string): string {
  return JSON.stringify(text);
}

function buildMaintenanceMessages(
  controlPlane: UpdateResult | undefined,
  workerKubernetes: readonly WorkerResult[],
  workerImages: readonly WorkerResult[],
  credentials: readonly { operation: string; result: UpdateResult }[],
  operations: readonly string[],
): { description: string; failureReason: string } {
  const parts: string[] = [];
  const failures: string[] = [];
  let ok = 0;
  let failed = 0;
  const record = (success: boolean, part: string, failure?: string) => {
    parts.push(part);
    if (success) ok++;
    else {
      failed++;
      failures.push(failure!);
    }
  };
  if (controlPlane) {
    record(
      controlPlane.isSuccessful,
      controlPlane.isSuccessful
        ? `Control Plane: ${controlPlane.description}. Reason: ${controlPlane.reason}`
        : `Control Plane: Kubernetes version update failed. Reason for update: ${controlPlane.reason}`,
      `Control Plane: Kubernetes maintenance failure due to: ${controlPlane.description}`,
    );
  }
  for (const { worker, result } of workerKubernetes) {
    record(
      result.isSuccessful,
      result.isSuccessful
        ? `Worker pool ${quote(worker)}: ${result.description}. Reason: ${result.reason}`
        : `Worker pool ${quote(worker)}: Kubernetes version maintenance failed. Reason for update: ${result.reason}`,
      `Worker pool ${quote(worker)}: Kubernetes maintenance failure due to: ${result.description}`,
    );
  }
  for (const { worker, result } of workerImages) {
    record(
      result.isSuccessful,
      result.isSuccessful
        ? `Worker pool ${quote(worker)}: ${result.description}. Reason: ${result.reason}`
        : `Worker pool ${quote(worker)}: machine image version maintenance failed. Reason for update: ${result.reason}`,
      `Worker pool ${quote(worker)}: ${result.description}`,
    );
  }
  for (const { operation, result } of credentials) {
    record(
      result.isSuccessful,
      result.isSuccessful
        ? `Credentials ${quote(operation)}: ${result.description}. Reason: ${result.reason}`
        : `Credentials ${quote(operation)}: Automatic rotation failed. Reason for update: ${result.reason}`,
      `Credentials ${quote(operation)}: Automatic rotation failure due to: ${result.description}`,
    );
  }
  if (operations.length > 0) parts.push(operations.join(", "));
  const prefix =
    failed === 0
      ? "All maintenance operations successful. "
      : `(${ok}/${ok + failed}) maintenance operations successful. `;
  return { description: (prefix + parts.join(", ")).trim(), failureReason: failures.join(", ") };
}

/**
 * Maintains `shoot` at `now` (epoch ms) against its cloud profile. Pure: the input is not
 * modified, the result is a new object. Throws only where the controller aborts the whole
 * reconcile (an unparsable control-plane version).
 */
export function maintain(
  shoot: Shoot,
  cloudProfile: CloudProfile,
  now: number,
  options: MaintainOptions = {},
): MaintenanceOutcome {
  const profile = prepareProfile(cloudProfile, now);
  const spec = copySpecForMaintenance(shoot.spec);
  const errors: string[] = [];
  const auto = autoUpdateFlags(shoot.spec);
  const oldVersionText = shoot.spec.kubernetes.version;

  let workerImageResults = new Map<string, UpdateResult>();
  const workers: Worker[] = spec.provider?.workers ?? [];
  if (workers.length > 0) {
    try {
      parseVersion(oldVersionText);
      workerImageResults = maintainMachineImages(profile, workers, oldVersionText, auto.machineImageVersion);
    } catch (e) {
      // Gardener logs this and goes on; pools handled before an abort keep their new versions.
      errors.push(`Failed to maintain Shoot machine images: ${messageOf(e)}`);
    }
  }

  let controlPlane: UpdateResult | undefined;
  try {
    controlPlane = maintainKubernetesVersion(profile, oldVersionText, auto.kubernetesVersion, (v) => {
      spec.kubernetes.version = v;
      return v;
    });
  } catch (e) {
    errors.push(`Failed to maintain Shoot kubernetes version: ${messageOf(e)}`);
  }

  const credentialResults = credentialRotations(shoot, now);

  const oldVersion = parseVersion(oldVersionText);
  const newVersion = parseVersion(spec.kubernetes.version);
  const operations = applyVersionCleanups(spec, oldVersion, newVersion);

  const workerKubernetes: WorkerResult[] = [];
  for (const pool of workers) {
    const poolVersion = pool.kubernetes?.version;
    if (pool.kubernetes === undefined || poolVersion === undefined) continue;
    try {
      const result = maintainKubernetesVersion(profile, poolVersion, auto.kubernetesVersion, (selected) => {
        let v = parseVersion(selected);
        // A pool forced to the next minor must not overtake the control plane.
        if (compareVersions(v, newVersion) > 0) v = newVersion;
        const text = canonicalVersion(v);
        pool.kubernetes = { ...pool.kubernetes, version: text };
        return text;
      });
      if (result) workerKubernetes.push({ worker: pool.name, result });
    } catch (e) {
      errors.push(`Could not maintain Kubernetes version for worker pool "${pool.name}": ${messageOf(e)}`);
    }
  }

  const annotations: Record<string, string> = { ...(shoot.metadata.annotations ?? {}) };
  const operation = maintainOperationAnnotation(annotations, shoot.status, credentialResults);
  if (operation !== "") operations.push(`Added ${quote(operation)} operation annotation`);

  const workerImages = [...workerImageResults].map(([worker, result]) => ({ worker, result }));
  const credentials = [...credentialResults].map(([op, result]) => ({ operation: op, result }));
  const requirePatch =
    operations.length > 0 ||
    controlPlane !== undefined ||
    workerKubernetes.length > 0 ||
    workerImages.length > 0 ||
    credentials.length > 0;

  let lastMaintenance: LastMaintenance | undefined = shoot.status?.lastMaintenance;
  const outcome = { controlPlane, workerKubernetes, workerImages, credentials, operations, errors, requirePatch };

  if (requirePatch) {
    const { description, failureReason } = buildMaintenanceMessages(
      controlPlane,
      workerKubernetes,
      workerImages,
      credentials,
      operations,
    );
    lastMaintenance = { description, triggeredTime: formatTime(now), state: "Processing" };
    if (failureReason !== "") lastMaintenance = { ...lastMaintenance, state: "Failed", failureReason };

    const candidate: Shoot = { ...shoot, spec, metadata: { ...shoot.metadata, annotations } };
    // The API server's own admission answers before any webhook the dry run stands in for.
    const rejection = imageVersionAdmission(shoot, candidate, cloudProfile, now) ?? options.dryRun?.(candidate);
    if (rejection !== undefined) {
      const keptAnnotations = { ...(shoot.metadata.annotations ?? {}) };
      if (hasMaintainNow(keptAnnotations)) delete keptAnnotations[ANNOTATION_OPERATION];
      return {
        ...outcome,
        rejected: true,
        shoot: {
          ...shoot,
          metadata: { ...shoot.metadata, annotations: keptAnnotations },
          status: {
            ...shoot.status,
            lastMaintenance: {
              description: "Maintenance failed",
              triggeredTime: lastMaintenance.triggeredTime,
              state: "Failed",
              failureReason: `Updates to the Shoot failed to be applied: ${rejection}`,
            },
          },
        },
      };
    }
  }

  addTasks(annotations, ...TASKS_ALWAYS);
  if (options.restartControlPlanePods) addTasks(annotations, "restartControlPlanePods");
  if (options.restartCoreAddons) addTasks(annotations, "restartCoreAddons");

  if (!requirePatch && lastMaintenance?.state === "Failed") {
    const { failureReason: _dropped, ...rest } = lastMaintenance;
    lastMaintenance = { ...rest, state: "Succeeded", description: "Maintenance succeeded" };
  }
  if (lastMaintenance?.state === "Processing") lastMaintenance = { ...lastMaintenance, state: "Succeeded" };

  const status = lastMaintenance === undefined ? shoot.status : { ...shoot.status, lastMaintenance };
  const maintained: Shoot = { ...shoot, metadata: { ...shoot.metadata, annotations }, spec };
  if (status !== undefined) maintained.status = status;
  return { ...outcome, rejected: false, shoot: maintained };
}

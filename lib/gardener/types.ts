// The subset of Gardener's core.gardener.cloud/v1beta1 API that Almanac reads and writes.
// Field names and optionality follow the real API so that objects read from a garden cluster or
// from `kubectl get -o yaml` can be used as they are. Unknown fields are kept (index signatures),
// because Almanac must hand back every object it was given without losing anything.
// Every type is exported, named elsewhere or not: together they describe the API's objects.

export const GARDENER_API_VERSION = "core.gardener.cloud/v1beta1";

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

/** The classifications a cloud profile can give a version, in lifecycle order. */
export const CLASSIFICATIONS = ["preview", "supported", "deprecated", "expired"] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

/** The four classifications of the API plus `unavailable`, which only lifecycles can yield. */
export type VersionClassification = Classification | "unavailable";

export interface LifecycleStage {
  classification: string;
  startTime?: string;
}

export interface ExpirableVersion {
  version: string;
  /** Legacy classification; superseded by `lifecycle`. */
  classification?: string;
  /** Legacy expiry; superseded by `lifecycle`. */
  expirationDate?: string;
  lifecycle?: LifecycleStage[];
  [key: string]: unknown;
}

export interface ContainerRuntime {
  type: string;
  [key: string]: unknown;
}

export interface CRI {
  name: string;
  containerRuntimes?: ContainerRuntime[];
  [key: string]: unknown;
}

/** Capability name -> values, e.g. { architecture: ["arm64"] }. */
export type Capabilities = Record<string, string[]>;

export interface MachineImageFlavor {
  capabilities?: Capabilities;
  [key: string]: unknown;
}

export interface InPlaceUpdates {
  supported?: boolean;
  minVersionForUpdate?: string;
}

export interface MachineImageVersion extends ExpirableVersion {
  cri?: CRI[];
  architectures?: string[];
  kubeletVersionConstraint?: string;
  inPlaceUpdates?: InPlaceUpdates;
  capabilityFlavors?: MachineImageFlavor[];
}

export type MachineImageUpdateStrategy = "patch" | "minor" | "major";

export interface MachineImage {
  name: string;
  versions: MachineImageVersion[];
  updateStrategy?: string;
  [key: string]: unknown;
}

export interface MachineType {
  name: string;
  architecture?: string;
  capabilities?: Capabilities;
  [key: string]: unknown;
}

export interface CapabilityDefinition {
  name: string;
  values: string[];
}

export interface CloudProfileSpec {
  type?: string;
  kubernetes: { versions: ExpirableVersion[]; [key: string]: unknown };
  machineImages?: MachineImage[];
  machineTypes?: MachineType[];
  machineCapabilities?: CapabilityDefinition[];
  regions?: { name: string; [key: string]: unknown }[];
  /** Which seeds may host shoots of this profile (labels, and provider types with "*" for any). */
  seedSelector?: LabelSelector & { providerTypes?: string[] };
  [key: string]: unknown;
}

/** A Kubernetes label selector (metav1.LabelSelector). */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface CloudProfile {
  apiVersion?: string;
  kind?: "CloudProfile" | "NamespacedCloudProfile";
  metadata: ObjectMeta;
  spec: CloudProfileSpec;
  /**
   * Only on a NamespacedCloudProfile resolved to this shape (profile-reference.ts): the
   * CloudProfile it extends. Gardener's objects have no such field at the top.
   */
  parent?: { kind: string; name: string };
  [key: string]: unknown;
}

/**
 * A NamespacedCloudProfile (GA since Gardener 1.125): a project's extension of a CloudProfile
 * (spec.parent), e.g. a later expirationDate of a version, or versions and machine types of its
 * own. Gardener's controller writes the merged result to status.cloudProfileSpec, and Gardener
 * reads a shoot's profile through that merged spec only.
 */
export interface NamespacedCloudProfile {
  apiVersion?: string;
  kind?: "NamespacedCloudProfile";
  metadata: ObjectMeta;
  spec: {
    parent: { kind: string; name: string };
    kubernetes?: { versions?: ExpirableVersion[]; [key: string]: unknown };
    machineImages?: MachineImage[];
    machineTypes?: MachineType[];
    [key: string]: unknown;
  };
  status?: { cloudProfileSpec?: CloudProfileSpec; observedGeneration?: number; [key: string]: unknown };
  [key: string]: unknown;
}

export interface ShootMachineImage {
  name: string;
  version?: string;
  [key: string]: unknown;
}

export interface WorkerKubernetes {
  version?: string;
  [key: string]: unknown;
}

export interface Worker {
  name: string;
  machine: {
    type: string;
    image?: ShootMachineImage;
    architecture?: string;
    [key: string]: unknown;
  };
  cri?: CRI;
  kubernetes?: WorkerKubernetes;
  updateStrategy?: string;
  minimum?: number;
  maximum?: number;
  [key: string]: unknown;
}

export interface MaintenanceTimeWindow {
  begin: string;
  end: string;
}

export interface RotationConfig {
  rotationPeriod?: string;
}

export interface Maintenance {
  timeWindow?: MaintenanceTimeWindow;
  autoUpdate?: { kubernetesVersion?: boolean; machineImageVersion?: boolean; [key: string]: unknown };
  confineSpecUpdateRollout?: boolean;
  autoRotation?: {
    credentials?: {
      sshKeypair?: RotationConfig;
      observability?: RotationConfig;
      etcdEncryptionKey?: RotationConfig;
    };
  };
  [key: string]: unknown;
}

export interface ShootSpec {
  cloudProfileName?: string;
  cloudProfile?: { kind?: string; name: string };
  kubernetes: { version: string; [key: string]: unknown };
  provider?: { type?: string; workers?: Worker[]; [key: string]: unknown };
  maintenance?: Maintenance;
  seedName?: string;
  region?: string;
  purpose?: string;
  hibernation?: {
    enabled?: boolean;
    /** Cron schedules (robfig/cron standard) that hibernate (start) and wake (end) the shoot. */
    schedules?: { start?: string; end?: string; location?: string }[];
    [key: string]: unknown;
  };
  secretBindingName?: string;
  credentialsBindingName?: string;
  tolerations?: Toleration[];
  networking?: { type?: string; nodes?: string; pods?: string; services?: string; ipFamilies?: string[] };
  /** A highly available control plane; failure tolerance "zone" needs a seed with three zones. */
  controlPlane?: { highAvailability?: { failureTolerance: { type: "node" | "zone" | string } } };
  accessRestrictions?: { name: string; options?: Record<string, string> }[];
  /** Extensions the shoot asks for, matched by type (the strategic merge key); see ShootExtension. */
  extensions?: ShootExtension[];
  [key: string]: unknown;
}

/** One of spec.extensions: an extension by type, with its own configuration (e.g. registry-mirror). */
export interface ShootExtension {
  type: string;
  providerConfig?: unknown;
  disabled?: boolean;
  [key: string]: unknown;
}

export interface Condition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
  reason?: string;
  message?: string;
  codes?: string[];
}

export type LastOperationType = "Create" | "Reconcile" | "Delete" | "Migrate" | "Restore";
export type LastOperationState = "Processing" | "Succeeded" | "Error" | "Failed" | "Pending" | "Aborted";

export interface LastOperation {
  type: string;
  state: string;
  progress?: number;
  description?: string;
  lastUpdateTime?: string;
}

export interface LastError {
  description: string;
  taskID?: string;
  codes?: string[];
  lastUpdateTime?: string;
}

export interface LastMaintenance {
  description: string;
  triggeredTime: string;
  state: string;
  failureReason?: string;
}

export interface CredentialRotationStatus {
  lastCompletionTime?: string;
  lastInitiationTime?: string;
  phase?: string;
  [key: string]: unknown;
}

export interface ShootStatus {
  conditions?: Condition[];
  constraints?: Condition[];
  lastOperation?: LastOperation;
  lastErrors?: LastError[];
  lastMaintenance?: LastMaintenance;
  seedName?: string;
  /** Where the API server is reached: "external", "internal", "service-account-issuer", ... (gardenlet). */
  advertisedAddresses?: { name: string; url: string }[];
  credentials?: {
    rotation?: {
      sshKeypair?: CredentialRotationStatus;
      observability?: CredentialRotationStatus;
      etcdEncryptionKey?: CredentialRotationStatus;
      [key: string]: unknown;
    };
  };
  [key: string]: unknown;
}

export interface Shoot {
  apiVersion?: string;
  kind?: "Shoot";
  metadata: ObjectMeta;
  spec: ShootSpec;
  status?: ShootStatus;
  [key: string]: unknown;
}

/**
 * The name the shoot refers to its profile by, in the new field or the deprecated one: a
 * CloudProfile's or a NamespacedCloudProfile's (profile-reference.ts tells which).
 */
export function cloudProfileNameOf(shoot: Shoot): string | undefined {
  return shoot.spec.cloudProfile?.name ?? shoot.spec.cloudProfileName;
}

export interface Taint {
  key: string;
  value?: string;
}

export interface Toleration {
  key: string;
  value?: string;
}

/** A Seed: the cluster that hosts shoot control planes (the subset Almanac uses). */
export interface Seed {
  apiVersion?: string;
  kind?: "Seed";
  metadata: ObjectMeta;
  spec: {
    provider: { type: string; region: string; zones?: string[]; [key: string]: unknown };
    taints?: Taint[];
    settings?: { scheduling?: { visible?: boolean }; [key: string]: unknown };
    /** Where etcd backups go; Gardener refuses a migration from or to a seed without one. */
    backup?: { provider: string; region?: string; [key: string]: unknown };
    /** The seed's own networks, which a shoot's networks must not overlap. */
    networks?: {
      nodes?: string;
      pods: string;
      services: string;
      shootDefaults?: { pods?: string; services?: string };
      [key: string]: unknown;
    };
    accessRestrictions?: { name: string }[];
    [key: string]: unknown;
  };
  status?: {
    conditions?: Condition[];
    kubernetesVersion?: string;
    gardener?: { version?: string; [key: string]: unknown };
    observedGeneration?: number;
    /** How many shoots the seed takes (`shoots`, a Kubernetes quantity); unlimited when absent. */
    allocatable?: { shoots?: string | number; [key: string]: unknown };
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** A Project: a team's namespace (garden-<name>) and its members and toleration rules. */
/** One entry of a project's spec.dualApprovalForDeletion. */
export interface DualApprovalForDeletion {
  /** The resource it applies to: "shoots". */
  resource: string;
  selector: LabelSelector;
  /** Whether it applies when a service account deletes (default true). */
  includeServiceAccounts?: boolean;
}

export interface Project {
  apiVersion?: string;
  kind?: "Project";
  metadata: ObjectMeta;
  spec: {
    namespace?: string;
    description?: string;
    purpose?: string;
    owner?: { kind: string; name: string };
    tolerations?: { defaults?: Toleration[]; whitelist?: Toleration[] };
    /** Which resources' deletion another subject than the confirmer must send (Gardener ≥ 1.114). */
    dualApprovalForDeletion?: DualApprovalForDeletion[];
    [key: string]: unknown;
  };
  status?: { phase?: string; [key: string]: unknown };
  [key: string]: unknown;
}

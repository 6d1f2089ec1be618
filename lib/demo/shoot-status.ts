// A shoot's status for its category: conditions, last operation, errors and constraints, worded
// as Gardener writes them, so that the status pages read like a real garden's.
import type { Condition, LastError, LastOperation, Worker } from "../gardener/types.ts";
import type { Category } from "./mixes.ts";
import type { Rng } from "./random.ts";
import { GARDENLET_LOST_AGO } from "./seeds.ts";
import { DAY, HOUR, MINUTE, iso } from "./time.ts";

const CONDITION_TYPES = [
  "APIServerAvailable",
  "ControlPlaneHealthy",
  "ObservabilityComponentsHealthy",
  "EveryNodeReady",
  "SystemComponentsHealthy",
] as const;

type ConditionType = (typeof CONDITION_TYPES)[number];

const HEALTHY_CONDITIONS: Record<ConditionType, { reason: string; message: string }> = {
  APIServerAvailable: {
    reason: "HealthzRequestSucceeded",
    message: "API server /healthz endpoint responded with success status code.",
  },
  ControlPlaneHealthy: { reason: "ControlPlaneRunning", message: "All control plane components are healthy." },
  ObservabilityComponentsHealthy: {
    reason: "ObservabilityComponentsRunning",
    message: "All observability components are healthy.",
  },
  EveryNodeReady: { reason: "EveryNodeReady", message: "All nodes are ready." },
  SystemComponentsHealthy: { reason: "SystemComponentsRunning", message: "All system components are healthy." },
};

interface ErrorDef {
  code: string;
  /** Error: retried by gardenlet; Failed: needs a human. */
  state: "Error" | "Failed";
  taskID: string;
  message: Record<string, string>;
  condition: ConditionType;
  conditionReason: string;
  conditionMessage: string;
}

const WAIT_INFRASTRUCTURE = "Waiting until shoot infrastructure has been reconciled";
const WAIT_WORKERS = "Waiting until shoot worker nodes have been reconciled";

const ERRORS: readonly ErrorDef[] = [
  {
    // Not retried by the gardenlet (HasNonRetryableErrorCode): Failed, until the controller-manager's
    // retry controller retries it ten minutes later.
    code: "ERR_INFRA_RATE_LIMITS_EXCEEDED",
    state: "Failed",
    taskID: WAIT_INFRASTRUCTURE,
    message: {
      aws: "RequestLimitExceeded: Request limit exceeded.\n\tstatus code: 503",
      gcp: "googleapi: Error 429: Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service 'compute.googleapis.com', rateLimitExceeded",
      azure:
        "TooManyRequests: The request is being throttled as the limit has been reached for operation type - Write_ObservationWindow_00:01:00.",
    },
    condition: "EveryNodeReady",
    conditionReason: "MachinesNotReady",
    conditionMessage: "Machines could not be reconciled because the provider API throttled the requests.",
  },
  {
    code: "ERR_INFRA_RESOURCES_DEPLETED",
    state: "Error",
    taskID: WAIT_WORKERS,
    message: {
      aws: "InsufficientInstanceCapacity: We currently do not have sufficient m5.2xlarge capacity in the Availability Zone you requested (eu-central-1a).",
      gcp: "ZONE_RESOURCE_POOL_EXHAUSTED: The zone 'projects/demo-landscape/zones/europe-west1-b' does not have enough resources available to fulfill the request.",
      azure:
        "SkuNotAvailable: The requested VM size Standard_D8s_v5 is currently not available in location 'westeurope'.",
    },
    condition: "EveryNodeReady",
    conditionReason: "MissingNodes",
    conditionMessage:
      "Not enough worker nodes registered in the cluster to meet the minimum desired machine count (2/3).",
  },
  {
    code: "ERR_INFRA_QUOTA_EXCEEDED",
    state: "Failed",
    taskID: WAIT_WORKERS,
    message: {
      aws: "VcpuLimitExceeded: You have requested more vCPU capacity than your current vCPU limit of 256 allows for the instance bucket that the specified instance type belongs to.",
      gcp: "googleapi: Error 403: Quota 'CPUS' exceeded. Limit: 96.0 in region europe-west1., quotaExceeded",
      azure:
        "OperationNotAllowed: Operation could not be completed as it results in exceeding approved standardDSv5Family Cores quota.",
    },
    condition: "EveryNodeReady",
    conditionReason: "MissingNodes",
    conditionMessage:
      "Not enough worker nodes registered in the cluster to meet the minimum desired machine count (2/3).",
  },
  {
    code: "ERR_CONFIGURATION_PROBLEM",
    state: "Failed",
    taskID: WAIT_INFRASTRUCTURE,
    message: {
      aws: "InvalidParameterValue: Value (10.180.0.0/16) for parameter cidrBlock is invalid. This block does not fall within the VPC CIDR.",
      gcp: "googleapi: Error 400: Invalid value for field 'resource.ipCidrRange': '10.180.0.0/16'. Invalid IPCidrRange: 10.180.0.0/16 conflicts with existing subnetwork 'nodes'., invalid",
      azure:
        "InvalidRequestFormat: Subnet 'nodes' is not valid because its IP address range overlaps with that of an existing subnet in virtual network.",
    },
    condition: "SystemComponentsHealthy",
    conditionReason: "ManagedResourceNotHealthy",
    conditionMessage: 'ManagedResource "shoot-core-system" is unhealthy: the infrastructure could not be reconciled.',
  },
  {
    code: "ERR_INFRA_UNAUTHORIZED",
    state: "Failed",
    taskID: WAIT_INFRASTRUCTURE,
    message: {
      aws: "UnauthorizedOperation: You are not authorized to perform this operation.\n\tstatus code: 403",
      gcp: "googleapi: Error 403: Required 'compute.networks.update' permission for 'projects/demo-landscape/global/networks/shoot-network', forbidden",
      azure:
        "AuthorizationFailed: The client does not have authorization to perform action 'Microsoft.Network/virtualNetworks/write' over the scope of the resource group.",
    },
    condition: "ControlPlaneHealthy",
    conditionReason: "DeploymentUnhealthy",
    conditionMessage:
      'Deployment "machine-controller-manager" is unhealthy: the cloud provider credentials are not authorized.',
  },
  {
    code: "ERR_INFRA_DEPENDENCIES",
    state: "Failed",
    taskID: WAIT_INFRASTRUCTURE,
    message: {
      aws: "DependencyViolation: resource sg-0a1b2c3d4e5f60718 has a dependent object\n\tstatus code: 400",
      gcp: "googleapi: Error 400: The firewall rule is already being used by 'projects/demo-landscape/global/networks/shoot-network', resourceInUseByAnotherResource",
      azure: "InUseSubnetCannotBeDeleted: Subnet nodes is in use by a network interface and cannot be deleted.",
    },
    condition: "SystemComponentsHealthy",
    conditionReason: "ManagedResourceNotHealthy",
    conditionMessage: 'ManagedResource "shoot-core-system" is unhealthy: the infrastructure could not be reconciled.',
  },
];

const RECONCILE_TASKS = [
  "Deploying Shoot infrastructure",
  WAIT_INFRASTRUCTURE,
  "Deploying Kubernetes API server",
  "Waiting until the Kubernetes API server rolled out",
  "Reconciling shoot worker nodes",
  WAIT_WORKERS,
  "Deploying managed resources for system components",
];

/** A condition; times are ISO strings so that one string can be shared by several conditions. */
function conditionOf(
  type: string,
  status: string,
  reason: string,
  message: string,
  since: string,
  updated: string,
  codes?: string[],
): Condition {
  return {
    type,
    status,
    lastTransitionTime: since,
    lastUpdateTime: updated,
    reason,
    message,
    ...(codes ? { codes } : {}),
  };
}

/**
 * All five conditions True. The care controller patches all conditions at once every minute
 * (one lastUpdateTime); most turned True together after the last rollout, one or two later
 * after a short hiccup.
 */
function healthyConditions(now: number, createdAt: number, checked: string, rng: Rng): Condition[] {
  const settled = Math.max(createdAt + 20 * MINUTE, now - rng.int(3, 60) * DAY - rng.int(0, 1439) * MINUTE);
  const stable = iso(settled);
  const recovered = iso(settled + rng.int(1, Math.max(1, Math.floor((now - settled) / MINUTE) - 5)) * MINUTE);
  const hiccup = rng.int(0, 9);
  return CONDITION_TYPES.map((type, i) =>
    conditionOf(
      type,
      "True",
      HEALTHY_CONDITIONS[type].reason,
      HEALTHY_CONDITIONS[type].message,
      i === hiccup ? recovered : stable,
      checked,
    ),
  );
}

function initializedConditions(createdAt: number): Condition[] {
  const at = iso(createdAt + MINUTE);
  return CONDITION_TYPES.map((type) =>
    conditionOf(
      type,
      "Unknown",
      "ConditionInitialized",
      "The condition has been initialized but its semantic check has not been performed yet.",
      at,
      at,
    ),
  );
}

/**
 * The constraints of some shoots: problematic webhooks and CA certificates close to expiry. A
 * hibernated shoot is not checked (Gardener: every constraint True, ConstraintNotChecked), and the
 * shoots of the seed whose gardenlet went silent show HibernationPossible and
 * MaintenancePreconditionsSatisfied Unknown, as gardener-controller-manager marks them.
 */
export function constraintsFor(category: Category, now: number, createdAt: number, rng: Rng): Condition[] | undefined {
  if (category === "creating" || category === "createFailed" || !rng.chance(0.35)) return undefined;
  const since = iso(Math.max(createdAt + HOUR, now - rng.int(1, 30) * DAY));
  const updated = iso(now - rng.int(5, 55) * 1000);
  const problematic = category !== "hibernated" && rng.chance(0.4);
  const caExpiry = now - createdAt > 300 * DAY && rng.chance(0.5) ? iso(now + rng.int(60, 300) * DAY) : undefined;
  if (category === "hibernated")
    return [
      "HibernationPossible",
      "MaintenancePreconditionsSatisfied",
      "CACertificateValiditiesAcceptable",
      "CRDsWithProblematicConversionWebhooks",
    ].map((type) =>
      conditionOf(type, "True", "ConstraintNotChecked", "Shoot cluster has been hibernated.", since, updated),
    );
  const webhook =
    category === "unknown"
      ? {
          status: "Unknown",
          reason: "StatusUnknown",
          message: "Gardenlet stopped sending heartbeats.",
          codes: undefined,
        }
      : problematic
        ? {
            status: "False",
            reason: "ProblematicWebhooks",
            message:
              'ValidatingWebhookConfiguration "kyverno-resource-validating-webhook-cfg" is problematic: webhook "validate.kyverno.svc-fail" with failurePolicy "Ignore" and 30s timeout might prevent worker nodes from properly joining the shoot cluster',
            codes: ["ERR_PROBLEMATIC_WEBHOOK"],
          }
        : { status: "True", reason: "NoProblematicWebhooks", message: "All webhooks are properly configured." };
  const webhookSince = category === "unknown" ? iso(now - GARDENLET_LOST_AGO + 4 * MINUTE) : since;
  // The webhooks decide both constraints alike (care/constraints.go).
  const constraints = (["HibernationPossible", "MaintenancePreconditionsSatisfied"] as const).map((type) =>
    conditionOf(type, webhook.status, webhook.reason, webhook.message, webhookSince, updated, webhook.codes),
  );
  if (caExpiry) {
    constraints.push(
      conditionOf(
        "CACertificateValiditiesAcceptable",
        "False",
        "ExpiringCACertificates",
        `Some CA certificates are expiring in less than 8760h0m0s, you should rotate them: "ca" (expiring at ${caExpiry.replace("T", " ").replace("Z", " +0000 UTC")}), "ca-client" (expiring at ${caExpiry.replace("T", " ").replace("Z", " +0000 UTC")})`,
        since,
        updated,
      ),
    );
  }
  return constraints;
}

interface StatusParts {
  conditions: Condition[];
  lastOperation: LastOperation;
  lastErrors?: LastError[];
}

export function statusFor(
  category: Category,
  k: number,
  ctx: { now: number },
  provider: string,
  workers: readonly Worker[],
  createdAt: number,
  rng: Rng,
): StatusParts {
  const { now } = ctx;
  // The last run of the care controller (every minute), shared by the conditions it wrote.
  const checked = iso(now - rng.int(5, 55) * 1000);
  const succeeded = (at: number, description = "Shoot cluster has been successfully reconciled."): LastOperation => ({
    type: "Reconcile",
    state: "Succeeded",
    progress: 100,
    description,
    lastUpdateTime: iso(at),
  });
  switch (category) {
    case "healthy":
      return {
        conditions: healthyConditions(now, createdAt, checked, rng),
        lastOperation: succeeded(now - rng.int(10, 23 * 60) * MINUTE),
      };
    case "hibernated": {
      // Gardener stops checking a hibernated cluster and says so in every condition.
      const since = Math.max(createdAt + HOUR, now - rng.int(1, 20) * DAY);
      const sinceText = iso(since);
      const conditions = CONDITION_TYPES.map((type) =>
        conditionOf(type, "True", "ConditionNotChecked", "Shoot cluster has been hibernated.", sinceText, checked),
      );
      return { conditions, lastOperation: succeeded(since + rng.int(5, 25) * MINUTE) };
    }
    case "unknown": {
      // Lost together with the seed's gardenlet: Unknown since shortly after the seed.
      const since = iso(now - GARDENLET_LOST_AGO + rng.int(1, 5) * MINUTE);
      const conditions = CONDITION_TYPES.map((type) =>
        conditionOf(type, "Unknown", "StatusUnknown", "Gardenlet stopped sending heartbeats.", since, since),
      );
      return { conditions, lastOperation: succeeded(now - GARDENLET_LOST_AGO - rng.int(30, 20 * 60) * MINUTE) };
    }
    case "reconciling": {
      const task = rng.int(0, RECONCILE_TASKS.length - 1);
      const progress = Math.min(90, 10 + task * 12 + rng.int(0, 8));
      const conditions = healthyConditions(now, createdAt, checked, rng);
      // Two out of three show the rollout in a condition (status label "progressing"); the
      // others reconcile without any visible effect yet.
      if (k % 3 !== 2) {
        const at = iso(now - rng.int(2, 15) * MINUTE);
        conditions[3] = conditionOf(
          "EveryNodeReady",
          "Progressing",
          "NodesRollingUpdate",
          `Worker pool "${workers[0].name}" is being rolled out: ${rng.int(1, 2)}/3 machines updated.`,
          at,
          checked,
        );
        if (k % 2 === 0) {
          conditions[4] = conditionOf(
            "SystemComponentsHealthy",
            "Progressing",
            "ManagedResourceProgressing",
            'ManagedResource "shoot-core-system" is progressing: DaemonSet "kube-system/kube-proxy" is rolling out.',
            at,
            checked,
          );
        }
      }
      return {
        conditions,
        lastOperation: {
          type: "Reconcile",
          state: "Processing",
          progress,
          description: RECONCILE_TASKS[task],
          lastUpdateTime: iso(now - rng.int(1, 20) * MINUTE),
        },
      };
    }
    case "error": {
      const error = ERRORS[k % ERRORS.length];
      // A rate-limited shoot is retried ten minutes after it failed, so it has not failed long ago.
      const at =
        now -
        (error.code === "ERR_INFRA_RATE_LIMITS_EXCEEDED"
          ? rng.int(1, 9)
          : rng.int(5, error.state === "Error" ? 45 : 6 * 60)) *
          MINUTE;
      const conditions = healthyConditions(now, createdAt, checked, rng);
      const failing = CONDITION_TYPES.indexOf(error.condition);
      conditions[failing] = conditionOf(
        error.condition,
        "False",
        error.conditionReason,
        error.conditionMessage,
        iso(at - rng.int(10, 120) * MINUTE),
        checked,
        [error.code],
      );
      const detail = `task "${error.taskID}" failed: ${error.message[provider]}`;
      const retry = error.state === "Error" ? " Operation will be retried." : "";
      return {
        conditions,
        lastOperation: {
          type: "Reconcile",
          state: error.state,
          progress: rng.int(20, 80),
          description: `Flow "Shoot cluster reconciliation" encountered task errors: [${detail}]${retry}`,
          lastUpdateTime: iso(at),
        },
        lastErrors: [{ description: detail, taskID: error.taskID, codes: [error.code], lastUpdateTime: iso(at) }],
      };
    }
    case "creating": {
      const task = rng.int(0, 4);
      return {
        conditions: initializedConditions(createdAt),
        lastOperation: {
          type: "Create",
          state: "Processing",
          progress: 10 + task * 15,
          description: RECONCILE_TASKS[task],
          lastUpdateTime: iso(now - rng.int(1, 4) * MINUTE),
        },
      };
    }
    case "createFailed": {
      const error = ERRORS.find((e) => e.code === "ERR_INFRA_UNAUTHORIZED")!;
      const at = createdAt + rng.int(8, 25) * MINUTE;
      const detail = `task "${error.taskID}" failed: ${error.message[provider]}`;
      return {
        conditions: initializedConditions(createdAt),
        lastOperation: {
          type: "Create",
          state: "Failed",
          progress: 15,
          description: `Flow "Shoot cluster creation" encountered task errors: [${detail}]`,
          lastUpdateTime: iso(at),
        },
        lastErrors: [{ description: detail, taskID: error.taskID, codes: [error.code], lastUpdateTime: iso(at) }],
      };
    }
  }
}

/** The demo garden's domains: shoots' external and internal ones (the seeds' ingress is in seeds.ts). */
export const DEMO_DOMAIN = "demo.gardener.example.com";

/**
 * What the gardenlet advertises once the API server is deployed (ToAdvertisedAddresses): the
 * external domain's API address, the internal one, and the service account issuer, which without
 * a managed or custom issuer is the external address. Derived from the names, never drawn.
 */
export function advertisedAddressesFor(project: string, shoot: string): { name: string; url: string }[] {
  const external = `https://api.${shoot}.${project}.${DEMO_DOMAIN}`;
  return [
    { name: "external", url: external },
    { name: "internal", url: `https://api.${shoot}.${project}.internal.${DEMO_DOMAIN}` },
    { name: "service-account-issuer", url: external },
  ];
}

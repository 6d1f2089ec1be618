// Gardener's error codes (docs/usage/shoot/shoot_status.md in gardener/gardener), each with what
// it means and who has to act: a user error waits for the cluster's owner (credentials, quota,
// configuration); a temporary one is retried by Gardener and usually clears by itself.

export interface ErrorCodeInfo {
  readonly short: string;
  readonly description: string;
  /** "user": action needed by the user; "temporary": Gardener retries. */
  readonly kind: "user" | "temporary";
}

const ERROR_CODES: Record<string, ErrorCodeInfo> = {
  ERR_INFRA_UNAUTHENTICATED: {
    short: "Invalid credentials",
    kind: "user",
    description:
      "The infrastructure refused the request: the cloud credentials are not valid. Update the secret or credentials binding of this cluster.",
  },
  ERR_INFRA_UNAUTHORIZED: {
    short: "Missing permissions",
    kind: "user",
    description:
      "The infrastructure understood the request but refused to authorize it. Grant the credentials the missing permissions.",
  },
  ERR_INFRA_QUOTA_EXCEEDED: {
    short: "Quota exceeded",
    kind: "user",
    description: "An infrastructure quota is used up. Raise the quota with the provider or shrink the cluster.",
  },
  ERR_INFRA_RATE_LIMITS_EXCEEDED: {
    short: "Rate limited",
    kind: "temporary",
    description:
      "The provider throttled requests. The operation fails, and Gardener retries it about ten minutes later; no action is needed unless it persists.",
  },
  ERR_INFRA_DEPENDENCIES: {
    short: "Infrastructure dependency",
    kind: "user",
    description: "Dependent objects on the infrastructure level block the operation. Remove or fix them.",
  },
  ERR_RETRYABLE_INFRA_DEPENDENCIES: {
    short: "Waiting for infrastructure",
    kind: "temporary",
    description: "Dependent objects on the infrastructure level are not ready yet. Gardener retries the operation.",
  },
  ERR_INFRA_RESOURCES_DEPLETED: {
    short: "Resources depleted",
    kind: "temporary",
    description:
      "The provider has no capacity for the requested resources in this zone right now. Gardener retries; consider another machine type or zone.",
  },
  ERR_CLEANUP_CLUSTER_RESOURCES: {
    short: "Cleanup stuck",
    kind: "user",
    description: "Resources in the cluster are stuck in deletion (finalizers). Remove what blocks them.",
  },
  ERR_CONFIGURATION_PROBLEM: {
    short: "Configuration problem",
    kind: "user",
    description: "The cluster's configuration cannot be applied. Fix the specification.",
  },
  ERR_RETRYABLE_CONFIGURATION_PROBLEM: {
    short: "Configuration problem (retrying)",
    kind: "temporary",
    description: "A configuration problem that is likely to resolve itself after a while. Gardener retries.",
  },
  ERR_PROBLEMATIC_WEBHOOK: {
    short: "Problematic webhook",
    kind: "user",
    description:
      "A webhook in the cluster does not follow Kubernetes' best practices and can block Gardener. Fix or narrow the webhook.",
  },
};

export const errorCodeInfo = (code: string): ErrorCodeInfo =>
  ERROR_CODES[code] ?? {
    short: code,
    kind: "user",
    description: "An error code this version of Almanac does not know.",
  };

// Gardener's error codes on a shoot's lastErrors, and which of them make an operation Failed at
// once instead of Error (Gardener: pkg/api/core/v1beta1/helper/errors.go, HasNonRetryableErrorCode
// and HasErrorCode; the codes are pkg/apis/core/v1beta1/types_common.go's ErrorCode constants,
// documented in docs/usage/shoot/shoot_status.md).
import type { LastError } from "../gardener/types.ts";

export const ERR_INFRA_UNAUTHENTICATED = "ERR_INFRA_UNAUTHENTICATED";
export const ERR_INFRA_UNAUTHORIZED = "ERR_INFRA_UNAUTHORIZED";
export const ERR_INFRA_QUOTA_EXCEEDED = "ERR_INFRA_QUOTA_EXCEEDED";
export const ERR_INFRA_RATE_LIMITS_EXCEEDED = "ERR_INFRA_RATE_LIMITS_EXCEEDED";
export const ERR_INFRA_DEPENDENCIES = "ERR_INFRA_DEPENDENCIES";
export const ERR_RETRYABLE_INFRA_DEPENDENCIES = "ERR_RETRYABLE_INFRA_DEPENDENCIES";
export const ERR_INFRA_RESOURCES_DEPLETED = "ERR_INFRA_RESOURCES_DEPLETED";
export const ERR_CLEANUP_CLUSTER_RESOURCES = "ERR_CLEANUP_CLUSTER_RESOURCES";
export const ERR_CONFIGURATION_PROBLEM = "ERR_CONFIGURATION_PROBLEM";
export const ERR_RETRYABLE_CONFIGURATION_PROBLEM = "ERR_RETRYABLE_CONFIGURATION_PROBLEM";
export const ERR_PROBLEMATIC_WEBHOOK = "ERR_PROBLEMATIC_WEBHOOK";

/**
 * The codes with which an automatic retry would not help (HasNonRetryableErrorCode's set). Rate
 * limits and problematic webhooks are among them, although the shoot_status document does not
 * say so: a rate-limited shoot is retried by the controller-manager's retry controller instead
 * (shoot-retry.ts).
 */
export const NON_RETRYABLE_ERROR_CODES: ReadonlySet<string> = new Set([
  ERR_INFRA_UNAUTHENTICATED,
  ERR_INFRA_UNAUTHORIZED,
  ERR_INFRA_DEPENDENCIES,
  ERR_INFRA_QUOTA_EXCEEDED,
  ERR_INFRA_RATE_LIMITS_EXCEEDED,
  ERR_CONFIGURATION_PROBLEM,
  ERR_PROBLEMATIC_WEBHOOK,
]);

/** Gardener's HasNonRetryableErrorCode: whether any of the errors carries a non-retryable code. */
export function hasNonRetryableErrorCode(...lastErrors: readonly Pick<LastError, "codes">[]): boolean {
  return lastErrors.some((e) => (e.codes ?? []).some((code) => NON_RETRYABLE_ERROR_CODES.has(code)));
}

/** Gardener's HasErrorCode: whether any of the errors carries `code`. */
export function hasErrorCode(lastErrors: readonly Pick<LastError, "codes">[] | undefined, code: string): boolean {
  return (lastErrors ?? []).some((e) => (e.codes ?? []).includes(code));
}

/**
 * The codes that wait for the shoot's owner rather than for Gardener's retries (the Gardener
 * dashboard's "user errors": credentials, permissions, quota, dependencies, the configuration,
 * a problematic webhook, resources stuck in deletion).
 */
export const USER_ERROR_CODES: ReadonlySet<string> = new Set([
  ERR_INFRA_UNAUTHENTICATED,
  ERR_INFRA_UNAUTHORIZED,
  ERR_INFRA_QUOTA_EXCEEDED,
  ERR_INFRA_DEPENDENCIES,
  ERR_CLEANUP_CLUSTER_RESOURCES,
  ERR_CONFIGURATION_PROBLEM,
  ERR_PROBLEMATIC_WEBHOOK,
]);

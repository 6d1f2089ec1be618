// Gardener's error codes: which make an operation Failed at once. The cases are those of
// pkg/api/core/v1beta1/helper/errors_test.go (#HasNonRetryableErrorCode, #HasErrorCode).
import { describe, expect, it } from "vitest";
import type { LastError } from "../gardener/types.ts";
import {
  ERR_CLEANUP_CLUSTER_RESOURCES,
  ERR_CONFIGURATION_PROBLEM,
  ERR_INFRA_DEPENDENCIES,
  ERR_INFRA_QUOTA_EXCEEDED,
  ERR_INFRA_RATE_LIMITS_EXCEEDED,
  ERR_INFRA_RESOURCES_DEPLETED,
  ERR_INFRA_UNAUTHENTICATED,
  ERR_INFRA_UNAUTHORIZED,
  ERR_PROBLEMATIC_WEBHOOK,
  ERR_RETRYABLE_CONFIGURATION_PROBLEM,
  ERR_RETRYABLE_INFRA_DEPENDENCIES,
  hasErrorCode,
  hasNonRetryableErrorCode,
  NON_RETRYABLE_ERROR_CODES,
} from "./last-errors.ts";

const withCode = (code: string): LastError => ({ description: "", codes: [code] });
const unauthenticatedError = withCode(ERR_INFRA_UNAUTHENTICATED);
const unauthorizedError = withCode(ERR_INFRA_UNAUTHORIZED);
const configurationProblemError = withCode(ERR_CONFIGURATION_PROBLEM);
const infraQuotaExceededError = withCode(ERR_INFRA_QUOTA_EXCEEDED);
const infraRateLimitsExceededError = withCode(ERR_INFRA_RATE_LIMITS_EXCEEDED);
const infraDependenciesError = withCode(ERR_INFRA_DEPENDENCIES);
const infraResourcesDepletedError = withCode(ERR_INFRA_RESOURCES_DEPLETED);
const cleanupClusterResourcesError = withCode(ERR_CLEANUP_CLUSTER_RESOURCES);
const errorWithoutCodes: LastError = { description: "" };

describe("hasNonRetryableErrorCode (Gardener: pkg/api/core/v1beta1/helper/errors.go, HasNonRetryableErrorCode)", () => {
  it.each<[string, LastError[], boolean]>([
    ["no error given", [], false],
    [
      "only errors with non-retryable error codes",
      [
        unauthenticatedError,
        unauthorizedError,
        infraQuotaExceededError,
        infraDependenciesError,
        configurationProblemError,
      ],
      true,
    ],
    ["only errors with retryable error codes", [infraResourcesDepletedError, cleanupClusterResourcesError], false],
    [
      "errors with both retryable and not retryable error codes",
      [
        unauthorizedError,
        unauthenticatedError,
        configurationProblemError,
        infraQuotaExceededError,
        infraRateLimitsExceededError,
        infraDependenciesError,
        infraResourcesDepletedError,
        cleanupClusterResourcesError,
      ],
      true,
    ],
    ["errors without error codes", [errorWithoutCodes], false],
  ])("errors_test.go: %s", (_, lastErrors, expected) => {
    expect(hasNonRetryableErrorCode(...lastErrors)).toBe(expected);
  });

  it("counts rate limits and problematic webhooks as non-retryable, the retryable codes not", () => {
    for (const code of [ERR_INFRA_RATE_LIMITS_EXCEEDED, ERR_PROBLEMATIC_WEBHOOK])
      expect(hasNonRetryableErrorCode(withCode(code))).toBe(true);
    for (const code of [ERR_RETRYABLE_INFRA_DEPENDENCIES, ERR_RETRYABLE_CONFIGURATION_PROBLEM])
      expect(hasNonRetryableErrorCode(withCode(code))).toBe(false);
    expect([...NON_RETRYABLE_ERROR_CODES].sort()).toEqual(
      [
        ERR_CONFIGURATION_PROBLEM,
        ERR_INFRA_DEPENDENCIES,
        ERR_INFRA_QUOTA_EXCEEDED,
        ERR_INFRA_RATE_LIMITS_EXCEEDED,
        ERR_INFRA_UNAUTHENTICATED,
        ERR_INFRA_UNAUTHORIZED,
        ERR_PROBLEMATIC_WEBHOOK,
      ].sort(),
    );
  });
});

describe("hasErrorCode (Gardener: pkg/api/core/v1beta1/helper/errors.go, HasErrorCode)", () => {
  it.each<[string, LastError[] | undefined, boolean]>([
    ["should return false when no error given", undefined, false],
    ["should return false when error code is not present", [unauthorizedError, infraResourcesDepletedError], false],
    [
      "should return true when error code is present",
      [unauthorizedError, infraResourcesDepletedError, infraRateLimitsExceededError],
      true,
    ],
  ])("errors_test.go: %s", (_, lastErrors, expected) => {
    expect(hasErrorCode(lastErrors, ERR_INFRA_RATE_LIMITS_EXCEEDED)).toBe(expected);
  });
});

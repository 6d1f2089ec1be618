// The gardener-controller-manager's shoot retry controller: a shoot that Failed because of
// infrastructure rate limits is retried by itself, some minutes after it failed (Gardener:
// pkg/controllermanager/controller/shoot/retry, add.go ShootPredicate, isShootFailed and
// shootFailedDueToRateLimits, reconciler.go Reconcile and mustRetryNow; the periods default in
// pkg/apis/config/controllermanager/v1alpha1/defaults.go, SetDefaults_ShootRetryControllerConfiguration).
import type { Shoot } from "../gardener/types.ts";
import { ERR_INFRA_RATE_LIMITS_EXCEEDED, hasErrorCode } from "./last-errors.ts";
import { ANNOTATION_OPERATION } from "./operation-annotations.ts";
import { MINUTE_MS } from "./time-units.ts";

/** retryPeriod: how long after the failure the retry happens. */
export const DEFAULT_RETRY_PERIOD_MS = 10 * MINUTE_MS;
/** retryJitterPeriod: the most the controller's next look is delayed at random. */
export const DEFAULT_RETRY_JITTER_PERIOD_MS = 5 * MINUTE_MS;

/** Failed at the generation it has observed (isShootFailed). */
export function isShootFailed(shoot: Shoot): boolean {
  return (
    shoot.status?.lastOperation?.state === "Failed" &&
    (shoot.metadata.generation ?? 0) === (shoot.status?.observedGeneration ?? 0)
  );
}

/** Failed, with ERR_INFRA_RATE_LIMITS_EXCEEDED among the last errors (shootFailedDueToRateLimits). */
export function shootFailedDueToRateLimits(shoot: Shoot): boolean {
  return isShootFailed(shoot) && hasErrorCode(shoot.status?.lastErrors, ERR_INFRA_RATE_LIMITS_EXCEEDED);
}

/** The controller's update predicate: the shoot has just failed because of rate limits. */
export function retryPredicateOnUpdate(oldShoot: Shoot, newShoot: Shoot): boolean {
  return shootFailedDueToRateLimits(newShoot) && !isShootFailed(oldShoot);
}

/**
 * Gardener's mustRetryNow: retry once `now` is after the last operation's update time plus the
 * retry period; otherwise look again then, plus `jitterMs` (the caller draws it from
 * [0, retryJitterPeriod)). Without a last operation, never.
 */
export function mustRetryNow(
  shoot: Shoot,
  now: number,
  retryPeriodMs: number = DEFAULT_RETRY_PERIOD_MS,
  jitterMs = 0,
): { readonly retry: boolean; readonly requeueAfterMs: number } {
  const lastOperation = shoot.status?.lastOperation;
  if (!lastOperation) return { retry: false, requeueAfterMs: 0 };
  const due = Date.parse(lastOperation.lastUpdateTime ?? "") + retryPeriodMs;
  if (Number.isNaN(due)) return { retry: true, requeueAfterMs: 0 }; // Go's zero time: long past
  if (now > due) return { retry: true, requeueAfterMs: 0 };
  return { retry: false, requeueAfterMs: due + jitterMs - now };
}

/**
 * What the controller's Reconcile does to a shoot: nothing unless it failed because of rate
 * limits and the retry period has passed; then it sets gardener.cloud/operation=retry (which
 * gardener-apiserver consumes, raising the generation: shoot-strategy.ts).
 */
export function retryFailedShoot(
  shoot: Shoot,
  now: number,
  retryPeriodMs: number = DEFAULT_RETRY_PERIOD_MS,
  jitterMs = 0,
): { readonly shoot?: Shoot; readonly requeueAfterMs: number } {
  if (!shootFailedDueToRateLimits(shoot)) return { requeueAfterMs: 0 };
  const { retry, requeueAfterMs } = mustRetryNow(shoot, now, retryPeriodMs, jitterMs);
  if (!retry) return { requeueAfterMs };
  return {
    shoot: {
      ...shoot,
      metadata: { ...shoot.metadata, annotations: { ...shoot.metadata.annotations, [ANNOTATION_OPERATION]: "retry" } },
    },
    requeueAfterMs: 0,
  };
}

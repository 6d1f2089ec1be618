// The controller-manager's retry controller for shoots failed because of rate limits (Gardener:
// pkg/controllermanager/controller/shoot/retry: add_test.go's ShootPredicate cases, reconciler.go
// mustRetryNow, defaults.go SetDefaults_ShootRetryControllerConfiguration).
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import { ERR_CONFIGURATION_PROBLEM, ERR_INFRA_RATE_LIMITS_EXCEEDED } from "./last-errors.ts";
import {
  DEFAULT_RETRY_JITTER_PERIOD_MS,
  DEFAULT_RETRY_PERIOD_MS,
  mustRetryNow,
  retryFailedShoot,
  retryPredicateOnUpdate,
} from "./shoot-retry.ts";
import { prepareShootForUpdate } from "./shoot-strategy.ts";
import { MINUTE_MS } from "./time-units.ts";

const T0 = Date.parse("2026-03-01T08:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const blank = (): Shoot => ({
  metadata: { name: "s", namespace: "garden-dev" },
  spec: { kubernetes: { version: "" } },
});

function failedWith(code: string, at = T0): Shoot {
  const s = blank();
  s.status = {
    lastErrors: [{ description: "x", codes: [code] }],
    lastOperation: { type: "Reconcile", state: "Failed", lastUpdateTime: iso(at) },
  };
  return s;
}

describe("retry controller defaults (Gardener: SetDefaults_ShootRetryControllerConfiguration)", () => {
  it("retries after ten minutes with up to five minutes of jitter", () => {
    expect(DEFAULT_RETRY_PERIOD_MS).toBe(10 * MINUTE_MS);
    expect(DEFAULT_RETRY_JITTER_PERIOD_MS).toBe(5 * MINUTE_MS);
  });
});

describe("retryPredicateOnUpdate (Gardener: retry/add.go, ShootPredicate UpdateFunc)", () => {
  it("add_test.go: should return false because shoot did not fail", () => {
    const old = blank();
    const s = blank();
    s.status = { lastOperation: { type: "Reconcile", state: "Processing" } };
    expect(retryPredicateOnUpdate(old, s)).toBe(false);
  });

  it("add_test.go: should return false because old shoot was already failed", () => {
    const old = blank();
    old.status = { lastOperation: { type: "Reconcile", state: "Failed" } };
    const s = structuredClone(old);
    s.status!.lastErrors = [{ description: "", codes: [ERR_CONFIGURATION_PROBLEM] }];
    expect(retryPredicateOnUpdate(old, s)).toBe(false);
  });

  it("add_test.go: should return false because shoot did not fail due to rate limits", () => {
    expect(retryPredicateOnUpdate(blank(), failedWith(ERR_CONFIGURATION_PROBLEM))).toBe(false);
  });

  it("add_test.go: should return true because shoot failed due to rate limits", () => {
    expect(retryPredicateOnUpdate(blank(), failedWith(ERR_INFRA_RATE_LIMITS_EXCEEDED))).toBe(true);
  });

  it("counts a shoot as failed only at its observed generation", () => {
    const outdated = failedWith(ERR_INFRA_RATE_LIMITS_EXCEEDED);
    outdated.metadata.generation = 2;
    outdated.status!.observedGeneration = 1;
    expect(retryPredicateOnUpdate(blank(), outdated)).toBe(false);
  });
});

describe("mustRetryNow (Gardener: retry/reconciler.go)", () => {
  const failed = failedWith(ERR_INFRA_RATE_LIMITS_EXCEEDED);

  it("retries once now is after the last update plus the retry period", () => {
    expect(mustRetryNow(failed, T0 + DEFAULT_RETRY_PERIOD_MS + 1)).toEqual({ retry: true, requeueAfterMs: 0 });
    // Exactly at the end is not after it.
    expect(mustRetryNow(failed, T0 + DEFAULT_RETRY_PERIOD_MS).retry).toBe(false);
  });

  it("otherwise looks again at the end of the period plus the jitter", () => {
    expect(mustRetryNow(failed, T0 + MINUTE_MS, DEFAULT_RETRY_PERIOD_MS, 30_000)).toEqual({
      retry: false,
      requeueAfterMs: 9 * MINUTE_MS + 30_000,
    });
  });

  it("never retries a shoot without a last operation", () => {
    expect(mustRetryNow(blank(), T0)).toEqual({ retry: false, requeueAfterMs: 0 });
  });
});

describe("retryFailedShoot (Gardener: retry/reconciler.go, Reconcile)", () => {
  it("sets gardener.cloud/operation=retry, which the strategy consumes by raising the generation", () => {
    const failed = failedWith(ERR_INFRA_RATE_LIMITS_EXCEEDED);
    const { shoot } = retryFailedShoot(failed, T0 + 11 * MINUTE_MS);
    expect(shoot?.metadata.annotations).toEqual({ "gardener.cloud/operation": "retry" });
    const stored = prepareShootForUpdate(failed, shoot!);
    expect(stored.metadata.generation).toBe(1);
    expect(stored.metadata.annotations).toEqual({});
  });

  it("leaves other failures alone, and waits for the retry period", () => {
    expect(retryFailedShoot(failedWith(ERR_CONFIGURATION_PROBLEM), T0 + 60 * MINUTE_MS)).toEqual({ requeueAfterMs: 0 });
    const early = retryFailedShoot(failedWith(ERR_INFRA_RATE_LIMITS_EXCEEDED), T0 + MINUTE_MS);
    expect(early).toEqual({ requeueAfterMs: 9 * MINUTE_MS });
  });
});

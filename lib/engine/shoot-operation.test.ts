// How the gardenlet records an operation in the shoot's status (Gardener:
// pkg/gardenlet/controller/shoot/shoot/reconciler.go, updateShootStatusOperationStart,
// patchShootStatusOperationError, patchShootStatusOperationSuccess; pkg/utils/miscellaneous.go
// TimeElapsed; pkg/utils/gardener/shoot.go IsShootFailedAndUpToDate).
import { describe, expect, it } from "vitest";
import type { LastError, Shoot } from "../gardener/types.ts";
import { ERR_CLEANUP_CLUSTER_RESOURCES, ERR_INFRA_RATE_LIMITS_EXCEEDED } from "./last-errors.ts";
import {
  cleanShootTaskError,
  DEFAULT_RETRY_DURATION_MS,
  isShootFailedAndUpToDate,
  patchShootStatusOperationError,
  patchShootStatusOperationSuccess,
  requeueAfterErrorMs,
  timeElapsed,
  updateShootStatusOperationStart,
} from "./shoot-operation.ts";
import { HOUR_MS, MINUTE_MS } from "./time-units.ts";

const T0 = Date.parse("2026-03-01T08:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

function shoot(status: Shoot["status"] = {}, generation = 3): Shoot {
  return {
    metadata: { name: "s", namespace: "garden-dev", generation },
    spec: { kubernetes: { version: "1.31.2" } },
    status,
  };
}

describe("timeElapsed (Gardener: pkg/utils/miscellaneous.go, TimeElapsed)", () => {
  it("is true without a timestamp and from the end of the duration on", () => {
    expect(timeElapsed(undefined, HOUR_MS, T0)).toBe(true);
    expect(timeElapsed(iso(T0), HOUR_MS, T0 + HOUR_MS - 1)).toBe(false);
    expect(timeElapsed(iso(T0), HOUR_MS, T0 + HOUR_MS)).toBe(true);
  });
});

describe("updateShootStatusOperationStart (Gardener: gardenlet shoot reconciler.go)", () => {
  it("sets the operation Processing at 0 % and observedGeneration to the generation being acted on", () => {
    const started = updateShootStatusOperationStart(shoot({ observedGeneration: 2 }), "Reconcile", T0);
    expect(started.status?.observedGeneration).toBe(3);
    expect(started.status?.lastOperation).toEqual({
      type: "Reconcile",
      state: "Processing",
      progress: 0,
      description: "Reconciliation of Shoot cluster initialized.",
      lastUpdateTime: iso(T0),
    });
  });

  it("starts a retry cycle when there is none, the generation moved on, or the operation turned into a deletion", () => {
    const earlier = iso(T0 - HOUR_MS);
    // None yet.
    expect(
      updateShootStatusOperationStart(shoot({ observedGeneration: 3 }), "Reconcile", T0).status?.retryCycleStartTime,
    ).toBe(iso(T0));
    // The same generation again (the gardenlet's own retry): the cycle goes on.
    const same = shoot({
      observedGeneration: 3,
      retryCycleStartTime: earlier,
      lastOperation: { type: "Reconcile", state: "Error" },
    });
    expect(updateShootStatusOperationStart(same, "Reconcile", T0).status?.retryCycleStartTime).toBe(earlier);
    // A new generation.
    const newer = shoot({ observedGeneration: 2, retryCycleStartTime: earlier });
    expect(updateShootStatusOperationStart(newer, "Reconcile", T0).status?.retryCycleStartTime).toBe(iso(T0));
    // A Reconcile turned into a Delete.
    expect(updateShootStatusOperationStart(same, "Delete", T0).status).toMatchObject({
      retryCycleStartTime: iso(T0),
      lastOperation: { type: "Delete", description: "Deletion of Shoot cluster in progress." },
    });
  });

  it("drops the errors of initializing the last operation and keeps the others", () => {
    const errors: LastError[] = [
      { description: "could not initialize", taskID: "initializeOperation" },
      { description: "infra", taskID: "Deploying Shoot infrastructure" },
    ];
    const started = updateShootStatusOperationStart(shoot({ lastErrors: errors }), "Reconcile", T0);
    expect(started.status?.lastErrors).toEqual([errors[1]]);
  });

  it("consumes a credentials rotation's operation annotation but no other", () => {
    const rotating = shoot();
    rotating.metadata.annotations = { "gardener.cloud/operation": "rotate-ssh-keypair", keep: "me" };
    expect(updateShootStatusOperationStart(rotating, "Reconcile", T0).metadata.annotations).toEqual({ keep: "me" });
    const maintaining = shoot();
    maintaining.metadata.annotations = { "gardener.cloud/operation": "maintain" };
    expect(updateShootStatusOperationStart(maintaining, "Reconcile", T0).metadata.annotations).toEqual({
      "gardener.cloud/operation": "maintain",
    });
  });

  it("consumes each started operation of a list, leaving the others (reconciler.go, RemoveOperation)", () => {
    const listed = shoot();
    listed.metadata.annotations = {
      "gardener.cloud/operation": "reconcile;rotate-observability-credentials;rollout-workers=pool-a",
    };
    expect(updateShootStatusOperationStart(listed, "Reconcile", T0).metadata.annotations).toEqual({
      "gardener.cloud/operation": "reconcile",
    });
    const allStarted = shoot();
    allStarted.metadata.annotations = { "gardener.cloud/operation": "rotate-ssh-keypair;rotate-etcd-encryption-key" };
    expect(updateShootStatusOperationStart(allStarted, "Reconcile", T0).metadata.annotations).toEqual({});
  });
});

describe("patchShootStatusOperationError (Gardener: gardenlet shoot reconciler.go)", () => {
  const running = shoot({
    observedGeneration: 3,
    retryCycleStartTime: iso(T0),
    lastOperation: { type: "Reconcile", state: "Processing", progress: 45, lastUpdateTime: iso(T0) },
  });
  const lastError = (code?: string): LastError => ({
    description: 'task "x" failed: boom',
    taskID: "x",
    ...(code ? { codes: [code] } : {}),
  });

  it('makes a retryable error Error, with " Operation will be retried." added, keeping the progress', () => {
    const errored = patchShootStatusOperationError(running, "Flow failed.", "Reconcile", [lastError()], T0 + MINUTE_MS);
    expect(errored.status?.lastOperation).toEqual({
      type: "Reconcile",
      state: "Error",
      progress: 45,
      description: "Flow failed. Operation will be retried.",
      lastUpdateTime: iso(T0 + MINUTE_MS),
    });
    expect(errored.status?.lastErrors).toEqual([lastError()]);
    expect(errored.status?.retryCycleStartTime).toBe(iso(T0));
  });

  it("makes a non-retryable code (rate limits among them) Failed at once and ends the retry cycle", () => {
    const failed = patchShootStatusOperationError(
      running,
      "Flow failed.",
      "Reconcile",
      [lastError(ERR_INFRA_RATE_LIMITS_EXCEEDED)],
      T0 + MINUTE_MS,
    );
    expect(failed.status?.lastOperation).toMatchObject({ state: "Failed", description: "Flow failed." });
    expect(failed.status).not.toHaveProperty("retryCycleStartTime");
  });

  it("makes a retryable error Failed once the retry duration has passed since the cycle began", () => {
    const errors = [lastError(ERR_CLEANUP_CLUSTER_RESOURCES)];
    const before = patchShootStatusOperationError(
      running,
      "d",
      "Delete",
      errors,
      T0 + DEFAULT_RETRY_DURATION_MS - 1000,
    );
    expect(before.status?.lastOperation?.state).toBe("Error");
    const after = patchShootStatusOperationError(running, "d", "Delete", errors, T0 + DEFAULT_RETRY_DURATION_MS);
    expect(after.status?.lastOperation?.state).toBe("Failed");
    // A configured retry duration counts instead of the default.
    expect(
      patchShootStatusOperationError(running, "d", "Delete", errors, T0 + 5 * MINUTE_MS, 5 * MINUTE_MS).status
        ?.lastOperation?.state,
    ).toBe("Failed");
  });
});

describe("patchShootStatusOperationSuccess (Gardener: gardenlet shoot reconciler.go)", () => {
  it("sets Succeeded at 100 % and clears the errors and the retry cycle", () => {
    const done = patchShootStatusOperationSuccess(
      shoot({ retryCycleStartTime: iso(T0), lastErrors: [{ description: "x" }], observedGeneration: 3 }),
      "Reconcile",
      T0,
    );
    expect(done.status).toEqual({
      observedGeneration: 3,
      lastOperation: {
        type: "Reconcile",
        state: "Succeeded",
        progress: 100,
        description: "Shoot cluster has been successfully reconciled.",
        lastUpdateTime: iso(T0),
      },
    });
  });
});

describe("cleanShootTaskError (Gardener: operation.CleanShootTaskError)", () => {
  it("drops the errors of a task that succeeded", () => {
    const s = shoot({
      lastErrors: [
        { description: "a", taskID: "A" },
        { description: "b", taskID: "B" },
      ],
    });
    expect(cleanShootTaskError(s, "A").status?.lastErrors).toEqual([{ description: "b", taskID: "B" }]);
    expect(cleanShootTaskError(cleanShootTaskError(s, "A"), "B").status).not.toHaveProperty("lastErrors");
    expect(cleanShootTaskError(s, "C")).toBe(s);
  });
});

describe("isShootFailedAndUpToDate (Gardener: pkg/utils/gardener/shoot.go)", () => {
  it("holds only for Failed at the observed generation", () => {
    expect(
      isShootFailedAndUpToDate(shoot({ observedGeneration: 3, lastOperation: { type: "Reconcile", state: "Failed" } })),
    ).toBe(true);
    expect(
      isShootFailedAndUpToDate(shoot({ observedGeneration: 2, lastOperation: { type: "Reconcile", state: "Failed" } })),
    ).toBe(false);
    expect(
      isShootFailedAndUpToDate(shoot({ observedGeneration: 3, lastOperation: { type: "Reconcile", state: "Error" } })),
    ).toBe(false);
    expect(isShootFailedAndUpToDate(shoot({ observedGeneration: 3 }))).toBe(false);
  });
});

describe("requeueAfterErrorMs (controller-runtime's default rate limiter)", () => {
  it("doubles from 5 ms and stops at 1000 s", () => {
    expect([1, 2, 3, 10].map(requeueAfterErrorMs)).toEqual([5, 10, 20, 2560]);
    expect(requeueAfterErrorMs(30)).toBe(1_000_000);
  });
});

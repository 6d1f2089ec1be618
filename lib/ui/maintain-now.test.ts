import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types";
import { at, profile, shoot as buildShoot } from "../../tests/support/builders";
import { maintainProgress, planIfRunNow } from "./maintain-now";

const BEFORE = "2026-11-23T03:33:00Z";

function shoot(patch: {
  rv: number;
  annotation?: boolean;
  generation?: number;
  observed?: number;
  last?: Record<string, string>;
  op?: Record<string, unknown>;
}): Shoot {
  return {
    metadata: {
      name: "s",
      namespace: "garden-x",
      resourceVersion: String(patch.rv),
      generation: patch.generation ?? 5,
      annotations: patch.annotation ? { "gardener.cloud/operation": "maintain" } : {},
    },
    spec: { kubernetes: { version: "1.31.13" } },
    status: {
      observedGeneration: patch.observed ?? 5,
      lastMaintenance: (patch.last ?? { state: "Succeeded", triggeredTime: BEFORE, description: "old run" }) as never,
      lastOperation: (patch.op ?? {
        type: "Reconcile",
        state: "Succeeded",
        progress: 100,
        description: "done",
      }) as never,
    },
  } as unknown as Shoot;
}

const watch = { since: 10, lastMaintenanceBefore: BEFORE };

describe("maintainProgress", () => {
  it("is queued while the annotation is set, or while the shoot read predates the request", () => {
    expect(maintainProgress(shoot({ rv: 10, annotation: true }), watch).step).toBe("queued");
    expect(maintainProgress(shoot({ rv: 9 }), watch).step).toBe("queued");
  });

  it("rolls out a changed spec until its generation is observed", () => {
    const last = {
      state: "Succeeded",
      triggeredTime: "2026-11-23T09:30:00Z",
      description: "Updated Kubernetes version",
    };
    const ran = maintainProgress(shoot({ rv: 11, generation: 6, observed: 5, last }), watch);
    expect(ran).toMatchObject({ step: "rolling-out", progress: 0, result: last });
    const rolling = maintainProgress(
      shoot({
        rv: 12,
        generation: 6,
        observed: 5,
        last,
        op: { type: "Reconcile", state: "Processing", progress: 45, description: "x" },
      }),
      watch,
    );
    expect(rolling).toMatchObject({ step: "rolling-out", progress: 45, message: "Rolling out the changes (45%)." });
    const done = maintainProgress(shoot({ rv: 13, generation: 6, observed: 6, last }), watch);
    expect(done).toEqual({ step: "done", result: last, message: "Updated Kubernetes version" });
  });

  it("says so when the run changed nothing (no new lastMaintenance)", () => {
    expect(maintainProgress(shoot({ rv: 11 }), watch)).toEqual({
      step: "done",
      result: undefined,
      message: "The maintenance ran and changed nothing: every version was already where it should be.",
    });
  });

  it("reports a failed run with its reason, and a failed rollout", () => {
    const last = {
      state: "Failed",
      triggeredTime: "2026-11-23T09:30:00Z",
      description: "Maintenance failed",
      failureReason: "Updates to the Shoot failed to be applied: boom",
    };
    expect(maintainProgress(shoot({ rv: 11, last }), watch)).toMatchObject({
      step: "failed",
      message: "The maintenance failed: Updates to the Shoot failed to be applied: boom",
    });
    const ok = { state: "Succeeded", triggeredTime: "2026-11-23T09:30:00Z", description: "ok" };
    expect(
      maintainProgress(
        shoot({
          rv: 12,
          generation: 6,
          observed: 5,
          last: ok,
          op: { type: "Reconcile", state: "Failed", progress: 40, description: "quota exceeded" },
        }),
        watch,
      ),
    ).toMatchObject({
      step: "rollout-failed",
      message: "The maintenance ran, but rolling it out failed: quota exceeded",
    });
  });
});

describe("planIfRunNow", () => {
  const k8s = (expiresAt: string) =>
    profile([
      { version: "1.30.1", classification: "supported", expirationDate: expiresAt },
      { version: "1.30.2", classification: "supported" },
    ]);
  const NOW = at("2026-11-23T10:00:00Z"); // the window is 22:00 to 23:00 UTC

  it("applies the rules at the moment it runs, not at the next window", () => {
    // Expires at noon: running now changes nothing; the window tonight would force it.
    const expiresAtNoon = k8s("2026-11-23T12:00:00Z");
    expect(planIfRunNow(buildShoot("1.30.1"), expiresAtNoon, NOW)).toMatchObject({
      at: "2026-11-23T10:00:00.000Z",
      changes: [],
    });
    const later = planIfRunNow(buildShoot("1.30.1"), expiresAtNoon, at("2026-11-23T12:30:00Z"));
    expect(later.changes).toEqual([
      expect.objectContaining({
        target: "controlPlane",
        kind: "kubernetes",
        from: "1.30.1",
        to: "1.30.2",
        successful: true,
      }),
    ]);
  });

  it("forces a version missing from the cloud profile, and reports a forced update that finds no version", () => {
    const missing = planIfRunNow(buildShoot("1.30.0"), k8s("2027-01-01T00:00:00Z"), NOW);
    expect(missing.changes).toEqual([
      expect.objectContaining({ from: "1.30.0", to: "1.30.2", reason: "Version does not exist in CloudProfile" }),
    ]);
    const stuck = planIfRunNow(
      buildShoot("1.30.2"),
      profile([{ version: "1.30.2", classification: "supported", expirationDate: "2026-01-01T00:00:00Z" }]),
      NOW,
    );
    expect(stuck.changes).toEqual([expect.objectContaining({ from: "1.30.2", successful: false })]);
    expect(stuck.changes[0].to).toBeUndefined();
  });
});

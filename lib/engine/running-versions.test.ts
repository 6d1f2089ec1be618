// What runs vs what is asked: the record of running versions follows successful rollouts only,
// whether the shoot comes from the simulated gardenlet (its own status writes) or from a live
// garden's objects as the mirror observes them.
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import { advanceReconcile, beginReconcile, RECONCILE_STEPS } from "./reconcile-simulation.ts";
import { nextRunningVersions, type RunningVersions, specVersions } from "./running-versions.ts";
import { prepareShootForUpdate } from "./shoot-strategy.ts";
import { runningVersionOf, versionRollout } from "./version-rollout.ts";

const T0 = Date.parse("2026-09-01T10:00:00Z");
const MINUTE = 60_000;

function shoot(version: string, confine: boolean, image = "1592.4.0"): Shoot {
  return {
    metadata: { name: "stream", namespace: "garden-data", generation: 3 },
    spec: {
      kubernetes: { version },
      maintenance: { confineSpecUpdateRollout: confine, timeWindow: { begin: "020000+0000", end: "030000+0000" } },
      provider: {
        type: "aws",
        workers: [{ name: "worker", machine: { type: "m5.large", image: { name: "gardenlinux", version: image } } }],
      },
    },
    status: {
      observedGeneration: 3,
      lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100, lastUpdateTime: "2026-08-30T02:10:00Z" },
    },
  };
}

/** The asked version set through the API, as gardener-apiserver stores it. */
function patched(before: Shoot, version: string): Shoot {
  return prepareShootForUpdate(before, { ...before, spec: { ...before.spec, kubernetes: { version } } });
}

/** The simulated gardenlet's whole reconcile of the shoot's generation, ending in success. */
function reconciled(s: Shoot, start: number): Shoot {
  let next = beginReconcile(s, "r1", start);
  for (let step = 1; step <= RECONCILE_STEPS.length; step++) next = advanceReconcile(next, step, start + step * MINUTE);
  return next;
}

describe("nextRunningVersions", () => {
  it("starts a shoot seen with a succeeded last operation at its spec", () => {
    const record = nextRunningVersions(undefined, shoot("1.32.7", true));
    expect(record).toEqual({
      since: "2026-08-30T02:10:00Z",
      kubernetesVersion: "1.32.7",
      workers: [{ name: "worker", image: { name: "gardenlinux", version: "1592.4.0" } }],
    });
  });

  it("knows nothing of a shoot first seen while its creation runs or failed", () => {
    const creating = shoot("1.32.7", false);
    creating.status = {
      lastOperation: { type: "Create", state: "Processing", lastUpdateTime: "2026-08-30T02:10:00Z" },
    };
    expect(nextRunningVersions(undefined, creating)).toBeUndefined();
    creating.status = { lastOperation: { type: "Create", state: "Failed", lastUpdateTime: "2026-08-30T02:10:00Z" } };
    expect(nextRunningVersions(undefined, creating)).toBeUndefined();
  });

  it("starts a cluster seen the first time after a failed reconcile at its spec, and follows the next success", () => {
    const failed = shoot("1.32.7", true);
    failed.status = {
      observedGeneration: 3,
      lastOperation: { type: "Reconcile", state: "Failed", lastUpdateTime: "2026-08-30T02:10:00Z" },
    };
    const record = nextRunningVersions(undefined, failed)!;
    expect(record).toMatchObject({ since: "2026-08-30T02:10:00Z", kubernetesVersion: "1.32.7" });
    // Another failure keeps it; a success of a newer spec moves it.
    const again = {
      ...failed,
      status: {
        ...failed.status,
        lastOperation: { ...failed.status.lastOperation!, lastUpdateTime: "2026-08-31T02:10:00Z" },
      },
    };
    expect(nextRunningVersions(record, again)).toBe(record);
  });

  describe("on the simulated garden", () => {
    it("keeps the running version while confineSpecUpdateRollout holds a new one back", () => {
      const before = shoot("1.32.7", true);
      const record = nextRunningVersions(undefined, before)!;
      const after = patched(reconciled(before, T0), "1.33.6");
      const kept = nextRunningVersions(nextRunningVersions(record, reconciled(before, T0)), after)!;
      expect(after.metadata.generation).toBe(before.metadata.generation); // nothing reconciles it
      expect(kept.kubernetesVersion).toBe("1.32.7");
      expect(versionRollout(after, kept)).toEqual({
        runningSince: kept.since,
        when: "window",
        changes: [
          { target: "controlPlane", kind: "kubernetes", subject: "Kubernetes", running: "1.32.7", asked: "1.33.6" },
        ],
      });
    });

    it("records the asked version once the reconcile that rolls it out succeeds, not before", () => {
      const before = shoot("1.32.7", false);
      const record = nextRunningVersions(undefined, before)!;
      const asked = patched(before, "1.33.6");
      expect(asked.metadata.generation).toBe(4);
      expect(nextRunningVersions(record, asked)).toBe(record);
      const running = beginReconcile(asked, "r2", T0);
      expect(nextRunningVersions(record, running)).toBe(record);
      expect(versionRollout(running, record)?.when).toBe("reconcile");
      const done = reconciled(asked, T0);
      const next = nextRunningVersions(record, done)!;
      expect(next.kubernetesVersion).toBe("1.33.6");
      expect(next.since).toBe(done.status?.lastOperation?.lastUpdateTime);
      expect(versionRollout(done, next)).toBeNull();
    });

    it("does not take a spec changed during the reconcile for what it rolled out", () => {
      const before = shoot("1.32.7", true);
      const record = nextRunningVersions(undefined, before)!;
      const started = beginReconcile({ ...before, metadata: { ...before.metadata, generation: 4 } }, "r3", T0);
      const changedMeanwhile = patched(started, "1.33.6");
      let done = changedMeanwhile;
      for (let step = 1; step <= RECONCILE_STEPS.length; step++)
        done = advanceReconcile(done, step, T0 + step * MINUTE);
      expect(done.status?.lastOperation?.state).toBe("Succeeded");
      expect(nextRunningVersions(record, done)?.kubernetesVersion).toBe("1.32.7");
    });

    it("records what the reconcile started with when its writer knows it, the spec having moved since", () => {
      const before = shoot("1.32.7", true);
      const record = nextRunningVersions(undefined, before)!;
      // The reconcile started on a new image; a Kubernetes version came meanwhile, held for the window.
      const started = beginReconcile(
        { ...shoot("1.32.7", true, "1877.2.0"), metadata: { ...before.metadata, generation: 4 } },
        "r4",
        T0,
      );
      const { since: _since, ...rolledOut } = specVersions(started, "");
      let done = patched(started, "1.33.6");
      for (let step = 1; step <= RECONCILE_STEPS.length; step++)
        done = advanceReconcile(done, step, T0 + step * MINUTE);
      const next = nextRunningVersions(record, done, rolledOut)!;
      expect(next).toEqual({ ...rolledOut, since: done.status?.lastOperation?.lastUpdateTime });
      expect(next.workers[0].image?.version).toBe("1877.2.0");
      expect(next.kubernetesVersion).toBe("1.32.7");
      // Seen again (a later write of the same success), the record stays.
      expect(nextRunningVersions(next, done, rolledOut)).toBe(next);
    });
  });

  describe("on a live garden (objects as the mirror observes them)", () => {
    const observed = (version: string, generation: number, observedGeneration: number, op: Shoot["status"]) => {
      const s = shoot(version, true);
      return { ...s, metadata: { ...s.metadata, generation }, status: { ...op, observedGeneration } };
    };
    const succeeded = (at: string) => ({
      lastOperation: { type: "Reconcile", state: "Succeeded", lastUpdateTime: at },
    });

    it("keeps the record while the garden holds the change back, and moves it with the window's reconcile", () => {
      const record = nextRunningVersions(undefined, observed("1.32.7", 3, 3, succeeded("2026-08-30T02:10:00Z")))!;
      const held = observed("1.33.6", 3, 3, succeeded("2026-08-30T02:10:00Z"));
      expect(nextRunningVersions(record, held)).toBe(record);
      // The maintenance controller raises the generation in the window; the gardenlet takes it up.
      const maintained = observed("1.33.6", 4, 3, succeeded("2026-08-30T02:10:00Z"));
      expect(nextRunningVersions(record, maintained)).toBe(record);
      const processing = observed("1.33.6", 4, 4, {
        lastOperation: { type: "Reconcile", state: "Processing", lastUpdateTime: "2026-09-02T02:01:00Z" },
      });
      expect(nextRunningVersions(record, processing)).toBe(record);
      const done = nextRunningVersions(record, observed("1.33.6", 4, 4, succeeded("2026-09-02T02:20:00Z")));
      expect(done).toMatchObject({ since: "2026-09-02T02:20:00Z", kubernetesVersion: "1.33.6" });
    });

    it("keeps the record through failures, deletions and migrations", () => {
      const record = nextRunningVersions(undefined, observed("1.32.7", 3, 3, succeeded("2026-08-30T02:10:00Z")))!;
      for (const op of [
        { type: "Reconcile", state: "Failed", lastUpdateTime: "2026-09-02T02:20:00Z" },
        { type: "Reconcile", state: "Error", lastUpdateTime: "2026-09-02T02:21:00Z" },
        { type: "Migrate", state: "Succeeded", lastUpdateTime: "2026-09-02T02:22:00Z" },
        { type: "Delete", state: "Processing", lastUpdateTime: "2026-09-02T02:23:00Z" },
      ])
        expect(nextRunningVersions(record, observed("1.33.6", 4, 4, { lastOperation: op }))).toBe(record);
      const restored = observed("1.33.6", 4, 4, {
        lastOperation: { type: "Restore", state: "Succeeded", lastUpdateTime: "2026-09-02T03:00:00Z" },
      });
      expect(nextRunningVersions(record, restored)?.kubernetesVersion).toBe("1.33.6");
    });
  });
});

describe("versionRollout", () => {
  const record: RunningVersions = specVersions(shoot("1.32.7", true), "2026-08-30T02:10:00Z");

  it("lists each lane whose asked version differs, machine images included", () => {
    const asked = shoot("1.32.7", true, "1877.3.0");
    expect(versionRollout(asked, record)?.changes).toEqual([
      { target: "worker", kind: "machineImage", subject: "gardenlinux", running: "1592.4.0", asked: "1877.3.0" },
    ]);
    expect(runningVersionOf(versionRollout(asked, record), "worker", "machineImage", "1877.3.0")).toBe("1592.4.0");
    expect(runningVersionOf(versionRollout(asked, record), "controlPlane", "kubernetes", "1.32.7")).toBe("1.32.7");
  });

  it("names the running image when the pool asks for another one", () => {
    const asked = shoot("1.32.7", true);
    asked.spec.provider!.workers![0].machine.image = { name: "ubuntu", version: "24.4.1" };
    expect(versionRollout(asked, record)?.changes[0]).toMatchObject({
      running: "gardenlinux 1592.4.0",
      asked: "24.4.1",
    });
  });

  it("is null when the shoot runs what it asks, or when nothing is known", () => {
    expect(versionRollout(shoot("1.32.7", true), record)).toBeNull();
    expect(versionRollout(shoot("1.33.6", true), undefined)).toBeNull();
  });

  it("compares a pool's own Kubernetes version with what the pool ran", () => {
    const asked = shoot("1.32.7", false);
    asked.spec.provider!.workers![0].kubernetes = { version: "1.31.9" };
    expect(versionRollout(asked, record)).toMatchObject({
      when: "reconcile",
      changes: [{ target: "worker", kind: "kubernetes", running: "1.32.7", asked: "1.31.9" }],
    });
  });
});

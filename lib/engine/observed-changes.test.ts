import { describe, expect, test } from "vitest";
import { shoot, worker } from "../../tests/support/builders.ts";
import type { Shoot } from "../gardener/types.ts";
import { observeShootChange } from "./observed-changes.ts";
import { observedDeletionEnd, observedMigrationEnd } from "./observed-endings.ts";
import { startMigration } from "./migration-flow.ts";

const before = () => shoot("1.31.2", { workers: [worker("pool-a", "gardenlinux", "1592.4.0")] });
const change = (s: Shoot, edit: (s: Shoot) => void) => {
  const copy = structuredClone(s);
  edit(copy);
  return copy;
};

describe("what a live garden did to a shoot", () => {
  test("a new lastMaintenance is a run with the versions that moved with it", () => {
    const old = before();
    const now = change(old, (s) => {
      s.spec.kubernetes.version = "1.31.4";
      s.spec.provider!.workers![0].machine.image!.version = "1877.2.0";
      s.status!.lastMaintenance = {
        description: "Control Plane: Updated Kubernetes version",
        triggeredTime: "2026-11-24T03:00:00Z",
        state: "Succeeded",
      };
    });
    const observed = observeShootChange(old, now);
    expect(observed.run).toEqual({
      trigger: "window",
      state: "Succeeded",
      startedAt: Date.parse("2026-11-24T03:00:00Z"),
      description: "Control Plane: Updated Kubernetes version",
      changes: [
        expect.objectContaining({ target: "controlPlane", kind: "kubernetes", from: "1.31.2", to: "1.31.4" }),
        expect.objectContaining({ target: "pool-a", kind: "machineImage", from: "1592.4.0", to: "1877.2.0" }),
      ],
    });
    expect(observed.events).toEqual([]);
  });

  test("a failed run after maintain-now keeps Gardener's failure reason", () => {
    const old = change(before(), (s) => (s.metadata.annotations = { "gardener.cloud/operation": "maintain" }));
    const now = change(old, (s) => {
      delete s.metadata.annotations;
      s.status!.lastMaintenance = {
        description: "Control Plane: Kubernetes version expired",
        triggeredTime: "2026-11-24T03:00:00Z",
        state: "Failed",
        failureReason: 'admission webhook "freeze.example.com" denied the request',
      };
    });
    const run = observeShootChange(old, now).run;
    expect(run).toMatchObject({ trigger: "maintain-now", state: "Failed", changes: [] });
    expect(run?.failureReason).toContain("freeze.example.com");
  });

  test("versions or the seed changed without a run, and an operation that ended, are events", () => {
    const old = change(before(), (s) => {
      s.status!.seedName = "aws-eu1";
      s.status!.lastOperation = { type: "Reconcile", state: "Processing", progress: 40 };
    });
    const now = change(old, (s) => {
      s.spec.kubernetes.version = "1.31.4";
      s.spec.provider!.workers![0].machine.image = { name: "ubuntu", version: "22.4.0" };
      s.status!.seedName = "aws-eu2";
      s.status!.lastOperation = { type: "Reconcile", state: "Succeeded", progress: 100 };
    });
    expect(observeShootChange(old, now)).toEqual({
      events: [
        {
          action: "shoot.observed",
          changes: [
            { field: "spec.kubernetes.version", before: "1.31.2", after: "1.31.4" },
            {
              field: "spec.provider.workers[name=pool-a].machine.image.version",
              before: "gardenlinux 1592.4.0",
              after: "ubuntu 22.4.0",
            },
            { field: "status.seedName", before: "aws-eu1", after: "aws-eu2" },
          ],
        },
        {
          action: "shoot.operation",
          changes: [{ field: "status.lastOperation", before: "Reconcile Processing", after: "Reconcile Succeeded" }],
        },
      ],
    });
  });

  test("a status that moves on without an ending or a version change records nothing", () => {
    const old = change(
      before(),
      (s) => (s.status!.lastOperation = { type: "Reconcile", state: "Processing", progress: 10 }),
    );
    const now = change(
      old,
      (s) => (s.status!.lastOperation = { type: "Reconcile", state: "Processing", progress: 60 }),
    );
    expect(observeShootChange(old, now)).toEqual({ events: [] });
    expect(observeShootChange(now, now)).toEqual({ events: [] });
  });
});

describe("how a live garden ends what Almanac started", () => {
  const migration = startMigration("aws-eu1", "aws-eu2", 0);

  test("a migration succeeds when the shoot was restored on its destination, and fails with Gardener", () => {
    const restored = change(before(), (s) => {
      s.status!.seedName = "aws-eu2";
      s.status!.lastOperation = { type: "Restore", state: "Succeeded", progress: 100 };
    });
    expect(observedMigrationEnd(migration, restored, 5)).toMatchObject({ state: "Succeeded", finishedAt: 5 });
    const restoring = change(restored, (s) => (s.status!.lastOperation = { type: "Restore", state: "Processing" }));
    expect(observedMigrationEnd(migration, restoring, 5)).toBeUndefined();
    const failed = change(restored, (s) => (s.status!.lastOperation = { type: "Migrate", state: "Failed" }));
    expect(observedMigrationEnd(migration, failed, 5)).toMatchObject({ state: "Failed" });
    expect(observedMigrationEnd({ ...migration, state: "Succeeded" }, restored, 5)).toBeUndefined();
  });

  test("a deletion ends once, when the shoot is gone", () => {
    const deletion = { state: "Processing" as const, step: 0, steps: [], startedAt: 0 };
    expect(observedDeletionEnd(deletion, 9)).toEqual({ ...deletion, state: "Succeeded", finishedAt: 9 });
    expect(observedDeletionEnd({ ...deletion, state: "Succeeded" }, 9)).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import type { Condition, Shoot, Worker } from "../../gardener/types.ts";
import { gardenRollWords, poolsAsTheGardenReports } from "./garden-pools.ts";

const pool = (name: string, extra: Partial<Worker> = {}): Worker => ({
  name,
  machine: { type: "m5.large", image: { name: "gardenlinux", version: "1877.2.0" } },
  minimum: 2,
  maximum: 3,
  ...extra,
});

function shoot(workers: Worker[], status: Shoot["status"] = {}): Shoot {
  return {
    metadata: { name: "s", namespace: "garden-dev" },
    spec: { kubernetes: { version: "1.31.2" }, provider: { type: "aws", workers } },
    status,
  };
}

const everyNodeReady = (status: string, message = "", reason = "R"): Condition => ({
  type: "EveryNodeReady",
  status,
  reason,
  message,
});

describe("a live garden's pools as the garden reports them", () => {
  it("states each pool's spec with Gardener's defaults, and calls a healthy shoot's pools Stable", () => {
    const pools = poolsAsTheGardenReports(
      shoot(
        [
          pool("a"),
          pool("b", { updateStrategy: "AutoInPlaceUpdate", kubernetes: { version: "1.30.5" } }),
          pool("c", { updateStrategy: "ManualInPlaceUpdate", maxSurge: "10%", maxUnavailable: 2 }),
        ],
        { conditions: [everyNodeReady("True")], lastOperation: { type: "Reconcile", state: "Succeeded" } },
      ),
    );
    expect(pools.map((p) => [p.pool, p.updateStrategy, p.maxSurge, p.maxUnavailable, p.state, p.updated])).toEqual([
      ["a", "AutoRollingUpdate", "1", "0", "Stable", 2],
      ["b", "AutoInPlaceUpdate", "0", "1", "Stable", 2],
      ["c", "ManualInPlaceUpdate", "10%", "2", "Stable", 2],
    ]);
    expect(pools[1].target).toEqual({
      kubernetesVersion: "1.30.5",
      image: { name: "gardenlinux", version: "1877.2.0" },
    });
  });

  it("holds the pools EveryNodeReady=False names, and only those", () => {
    const pools = poolsAsTheGardenReports(
      shoot([pool("a"), pool("b")], {
        conditions: [
          everyNodeReady("False", 'Not enough worker nodes registered in worker pool "b" (1/2).', "MissingNodes"),
        ],
      }),
    );
    expect(pools.map((p) => [p.pool, p.state, p.updated])).toEqual([
      ["a", "Stable", 2],
      ["b", "Held", 0],
    ]);
  });

  it("rolls every pool while the operation is at the worker steps, and a pool pending an in-place update", () => {
    const atWorkers = poolsAsTheGardenReports(
      shoot([pool("a"), pool("b")], {
        lastOperation: {
          type: "Reconcile",
          state: "Processing",
          description: "Waiting until all shoot worker nodes have updated the operating system config",
        },
      }),
    );
    expect(atWorkers.map((p) => p.state)).toEqual(["Rolling", "Rolling"]);
    const elsewhere = poolsAsTheGardenReports(
      shoot([pool("a"), pool("b", { updateStrategy: "ManualInPlaceUpdate" })], {
        lastOperation: { type: "Reconcile", state: "Processing", description: "Deploying the kube-apiserver" },
        inPlaceUpdates: { pendingWorkerUpdates: { manualInPlaceUpdate: ["b"] } },
      }),
    );
    expect(elsewhere.map((p) => p.state)).toEqual(["Stable", "Rolling"]);
    const failed = poolsAsTheGardenReports(
      shoot([pool("a")], {
        lastOperation: {
          type: "Reconcile",
          state: "Error",
          description: "Waiting until the shoot worker nodes are ready",
        },
      }),
    );
    expect(failed[0].state).toBe("Held");
  });

  it("quotes the garden for the note, and says nothing of a healthy shoot", () => {
    const words = gardenRollWords(
      shoot([pool("a")], {
        conditions: [everyNodeReady("Progressing", "1 of 2 machines updated", "NodesRollOutScalingUp")],
        lastOperation: {
          type: "Reconcile",
          state: "Processing",
          progress: 80,
          description: "Reconciling the Shoot workers",
        },
      }),
    );
    expect(words).toBe(
      "EveryNodeReady is Progressing (NodesRollOutScalingUp): 1 of 2 machines updated; the Reconcile is Processing at 80%: Reconciling the Shoot workers",
    );
    expect(gardenRollWords(shoot([pool("a")], { conditions: [everyNodeReady("True")] }))).toBeUndefined();
  });
});

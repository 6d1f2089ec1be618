// The simulated garden's nodes follow from a shoot's spec and what it runs until a roll stores
// them: the same names every time (crc32 of uid/pool/index), none while hibernated or not yet
// created, and the node-critical components its provider and networking bring.
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import { tickRoll } from "./node-roll.ts";
import { specVersions } from "./running-versions.ts";
import { currentNodeRoll, nodePrefix, rollPoolsOf, simulatedComponentsFor, targetsOf } from "./simulated-nodes.ts";

function shoot(over: Partial<Shoot["spec"]> = {}, status: Shoot["status"] = {}): Shoot {
  return {
    metadata: { name: "stream", namespace: "garden-data", uid: "5d1c2b7e-uid" },
    spec: {
      kubernetes: { version: "1.33.4" },
      networking: { type: "cilium" },
      provider: {
        type: "aws",
        workers: [
          {
            name: "worker",
            machine: { type: "m5.large", image: { name: "gardenlinux", version: "1877.2.0" } },
            minimum: 3,
            maximum: 5,
            zones: ["eu-west-1a", "eu-west-1b"],
          },
          {
            name: "gpu",
            machine: { type: "p3.2xlarge", image: { name: "gardenlinux", version: "1877.2.0" } },
            minimum: 0,
            maximum: 2,
            updateStrategy: "AutoInPlaceUpdate",
          },
        ],
      },
      ...over,
    },
    status: { lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100 }, ...status },
  };
}

describe("currentNodeRoll", () => {
  it("derives each pool's minimum of ready nodes from what runs, named the same every time", () => {
    const s = shoot();
    const roll = currentNodeRoll(s, specVersions(s, "2026-08-01T00:00:00Z"), undefined);
    expect(roll.nodes.map((n) => n.name)).toEqual(currentNodeRoll(s, undefined, undefined).nodes.map((n) => n.name));
    expect(roll.nodes).toHaveLength(3);
    expect(roll.nodes.map((n) => n.zone)).toEqual(["eu-west-1a", "eu-west-1b", "eu-west-1a"]);
    expect(new Set(roll.nodes.map((n) => n.name)).size).toBe(3);
    for (const n of roll.nodes) {
      expect(n.name).toMatch(/^shoot--data--stream-worker-z[12]-[0-9a-z]{5}$/);
      expect(n).toMatchObject({ state: "Ready", ready: true, taints: [], createdAt: "2026-08-01T00:00:00Z" });
    }
    // Another shoot's nodes are named differently.
    const other = { ...s, metadata: { ...s.metadata, uid: "another-uid" } };
    expect(currentNodeRoll(other, undefined, undefined).nodes[0].name).not.toBe(roll.nodes[0].name);
  });

  it("runs the recorded versions, not the spec's, until a roll brings the spec", () => {
    const s = shoot();
    const running = { ...specVersions(s, "2026-08-01T00:00:00Z"), kubernetesVersion: "1.32.5" };
    const roll = currentNodeRoll(s, running, undefined);
    expect(roll.nodes.every((n) => n.kubernetesVersion === "1.32.5")).toBe(true);
  });

  it("has no nodes while hibernated or before the creation succeeded", () => {
    expect(currentNodeRoll(shoot({}, { hibernated: true }), undefined, undefined).nodes).toEqual([]);
    const creating = shoot({}, { lastOperation: { type: "Create", state: "Processing", progress: 40 } });
    expect(currentNodeRoll(creating, undefined, undefined).nodes).toEqual([]);
  });

  it("answers the stored roll once a roll touched the nodes", () => {
    const s = shoot();
    const stored = tickRoll({ nodes: [], pools: [] }, rollPoolsOf(s), {
      uid: "u",
      prefix: nodePrefix(s),
      at: "2026-09-01T00:00:00Z",
    });
    expect(currentNodeRoll(s, undefined, stored)).toBe(stored);
  });
});

describe("rollPoolsOf", () => {
  it("takes each pool's strategy and Gardener's defaults for maxSurge/maxUnavailable; a hibernated shoot wants no nodes", () => {
    const pools = rollPoolsOf(shoot());
    expect(pools.map((p) => [p.name, p.updateStrategy, p.maxSurge, p.maxUnavailable, p.desired])).toEqual([
      ["worker", "AutoRollingUpdate", 1, 0, 3],
      ["gpu", "AutoInPlaceUpdate", 0, 1, 0],
    ]);
    expect(rollPoolsOf(shoot({ hibernation: { enabled: true } })).map((p) => p.desired)).toEqual([0, 0]);
  });

  it("keeps pinned targets (what the reconcile started with) over a spec changed since", () => {
    const started = shoot();
    const changed = shoot({ kubernetes: { version: "1.33.6" } });
    const { since: _since, ...rollsOut } = specVersions(started, "");
    const pools = rollPoolsOf(changed, undefined, undefined, targetsOf(rollsOut));
    expect(pools.map((p) => [p.name, p.kubernetesVersion, p.image.version])).toEqual([
      ["worker", "1.33.4", "1877.2.0"],
      ["gpu", "1.33.4", "1877.2.0"],
    ]);
    expect(pools[0].components[0].daemonSet).toBe("kube-proxy-worker-v1.33.4");
    // A pool the reconcile did not start with takes the spec.
    const added = rollPoolsOf(changed, undefined, undefined, targetsOf({ ...rollsOut, workers: [] }));
    expect(added.map((p) => p.kubernetesVersion)).toEqual(["1.33.6", "1.33.6"]);
  });
});

describe("a component that never becomes ready", () => {
  const fault = { component: "cni" as const };
  const faulty = (pools: ReturnType<typeof rollPoolsOf>) => pools[0].components.some((c) => c.fault);
  it("strikes on a pool rolling to a version it did not run, not on nodes made again on what it runs", () => {
    const s = shoot();
    const same = specVersions(s, "2026-08-01T00:00:00Z");
    const older = {
      ...same,
      workers: same.workers.map((w) => ({ ...w, image: { name: "gardenlinux", version: "1592.4.0" } })),
    };
    expect(faulty(rollPoolsOf(s, fault, older))).toBe(true);
    expect(faulty(rollPoolsOf(s, fault, same))).toBe(false);
    expect(faulty(rollPoolsOf(s, fault, undefined))).toBe(false);
    expect(faulty(rollPoolsOf(s, undefined, older))).toBe(false);
  });
});

describe("simulatedComponentsFor", () => {
  it("runs kube-proxy for the pool, the CNI's node agent and the provider's CSI node plugin", () => {
    const s = shoot();
    const worker = s.spec.provider!.workers![0];
    const components = simulatedComponentsFor(s, worker, "1.33.4");
    expect(components.map((c) => c.daemonSet)).toEqual([
      "kube-proxy-worker-v1.33.4",
      "apiserver-proxy",
      "cilium",
      "csi-driver-node",
    ]);
    expect(components.find((c) => c.csiDriver)?.csiDriver).toBe("ebs.csi.aws.com");
    expect(components.every((c) => c.readyAfterTicks >= 1 && c.readyAfterTicks <= 3 && !c.fault)).toBe(true);
    const faulty = simulatedComponentsFor(s, worker, "1.33.4", { component: "csi-driver-node" });
    expect(faulty.find((c) => c.daemonSet === "csi-driver-node")?.fault).toBe("DriverNotRegistered");
    expect(simulatedComponentsFor(s, worker, "1.33.4", { component: "cni" }).find((c) => c.fault)?.daemonSet).toBe(
      "cilium",
    );
  });
});

import { describe, expect, it } from "vitest";
import { shootNodesAnswerSchema, type PoolRoll, type ShootNode, type ShootNodesAnswer } from "../api/nodes.ts";
import {
  awaitingSelectionText,
  heldText,
  nodeOnTarget,
  nodesSummary,
  poolViews,
  rollProgress,
  rollUnderWay,
  strategyText,
  surgeText,
  taintHint,
  waitText,
} from "./node-roll-text.ts";

const target = { kubernetesVersion: "1.31.4", image: { name: "gardenlinux", version: "1592.3.0" } };

const pool = (over: Partial<PoolRoll> = {}): PoolRoll => ({
  pool: "worker-a",
  updateStrategy: "AutoRollingUpdate",
  minimum: 2,
  maximum: 4,
  maxSurge: "1",
  maxUnavailable: "0",
  target,
  state: "Stable",
  updated: 2,
  desired: 2,
  ...over,
});

const node = (name: string, over: Partial<ShootNode> = {}): ShootNode => ({
  name,
  pool: "worker-a",
  zone: "eu-west-1a",
  kubernetesVersion: target.kubernetesVersion,
  image: target.image,
  ready: true,
  taints: [],
  state: "Ready",
  waitingFor: [],
  ...over,
});

// A roll half-way: one old node draining, one new node joining and held by a DaemonSet.
const rolling: ShootNodesAnswer = {
  source: "simulated",
  observedAt: "2026-11-27T12:00:00Z",
  pools: [
    pool({
      state: "Held",
      updated: 1,
      desired: 2,
      heldBy: {
        node: "worker-a-new-2",
        waits: [{ kind: "DaemonSet", namespace: "kube-system", name: "calico-node", reason: "CrashLoopBackOff" }],
      },
    }),
    pool({ pool: "worker-b", updateStrategy: "AutoInPlaceUpdate", maxSurge: "0", maxUnavailable: "1" }),
  ],
  items: [
    node("worker-a-old-1", {
      kubernetesVersion: "1.30.8",
      image: { name: "gardenlinux", version: "1443.10.0" },
      state: "Draining",
    }),
    node("worker-a-new-1"),
    node("worker-b-1", { pool: "worker-b" }),
    node("worker-a-new-2", {
      ready: true,
      state: "Joining",
      taints: [{ key: "node.gardener.cloud/critical-components-not-ready", effect: "NoSchedule" }],
      waitingFor: [{ kind: "DaemonSet", namespace: "kube-system", name: "calico-node", reason: "CrashLoopBackOff" }],
    }),
    node("worker-gone-1", { pool: "worker-gone" }),
  ],
};

describe("the nodes panel's words", () => {
  it("the hand-made answer is one the API may give", () => {
    expect(shootNodesAnswerSchema.safeParse(rolling).success).toBe(true);
  });

  it("names the update strategies, rolling replacement by default and in place as such", () => {
    expect(strategyText("AutoRollingUpdate")).toMatchObject({ word: "Rolling replacement", inPlace: false });
    expect(strategyText("")).toMatchObject({ word: "Rolling replacement", inPlace: false });
    expect(strategyText("AutoInPlaceUpdate")).toMatchObject({ word: "In place, automatic", inPlace: true });
    expect(strategyText("ManualInPlaceUpdate")).toMatchObject({ word: "In place, manual", inPlace: true });
    expect(strategyText("SomethingNew").word).toBe("SomethingNew");
  });

  it("says maxSurge and maxUnavailable in words, without surge for in-place pools", () => {
    expect(surgeText(pool())).toBe("up to 1 extra node, none unavailable");
    expect(surgeText(pool({ maxSurge: "2", maxUnavailable: "1" }))).toBe(
      "up to 2 extra nodes, up to 1 node unavailable",
    );
    expect(surgeText(pool({ maxSurge: "25%", maxUnavailable: "0%" }))).toBe("up to 25% of the nodes, none unavailable");
    expect(surgeText(pool({ maxSurge: "0", maxUnavailable: "3" }))).toBe("no extra node, up to 3 nodes unavailable");
    expect(surgeText(pool({ updateStrategy: "AutoInPlaceUpdate", maxSurge: "0", maxUnavailable: "1" }))).toBe(
      "up to 1 node unavailable",
    );
  });

  it("counts the roll's progress as updated of desired, never past the whole", () => {
    expect(rollProgress({ updated: 1, desired: 2, state: "Rolling" })).toEqual({
      percent: 50,
      text: "1 of 2 nodes updated",
    });
    expect(rollProgress({ updated: 1, desired: 3, state: "Rolling" }).percent).toBe(33);
    expect(rollProgress({ updated: 3, desired: 2, state: "Rolling" }).percent).toBe(100);
    expect(rollProgress({ updated: 1, desired: 1, state: "Stable" }).text).toBe("1 of 1 node updated");
    expect(rollProgress({ updated: 0, desired: 0, state: "Stable" })).toEqual({
      percent: 100,
      text: "No node is wanted",
    });
  });

  it("finds nodes not yet on their pool's target, image and version apart", () => {
    const [roll] = rolling.pools;
    const [old, fresh] = rolling.items;
    expect(nodeOnTarget(old, roll)).toEqual({ kubernetes: false, image: false });
    expect(nodeOnTarget(fresh, roll)).toEqual({ kubernetes: true, image: true });
    expect(nodeOnTarget({ ...fresh, image: { name: "ubuntu", version: "1592.3.0" } }, roll)).toEqual({
      kubernetes: true,
      image: false,
    });
    // A node of a pool without a roll is not flagged: there is no target to compare with.
    expect(nodeOnTarget(old, undefined)).toEqual({ kubernetes: true, image: true });
  });

  it("explains the taints a roll sets, and no other", () => {
    expect(taintHint("node.gardener.cloud/critical-components-not-ready")).toBe(
      "New node; workload is scheduled once its node-critical components are ready.",
    );
    expect(taintHint("node.kubernetes.io/unschedulable")).toMatch(/^Cordoned; no new workload/);
    expect(taintHint("dedicated")).toBeUndefined();
  });

  it("names what a node waits for", () => {
    expect(waitText({ kind: "DaemonSet", namespace: "kube-system", name: "calico-node", reason: "Not ready" })).toBe(
      "DaemonSet kube-system/calico-node: Not ready",
    );
    expect(waitText({ kind: "CSIDriver", name: "cinder.csi.openstack.org", reason: "not registered in CSINode" })).toBe(
      "CSIDriver cinder.csi.openstack.org: not registered in CSINode",
    );
  });

  it("explains a held roll by the node and the components it waits for, and nothing else", () => {
    expect(heldText(rolling.pools[0])).toBe(
      "The roll of pool worker-a is held: node worker-a-new-2 waits for DaemonSet kube-system/calico-node " +
        "(CrashLoopBackOff). Until it is ready the node keeps the critical-components-not-ready taint, " +
        "takes no workload, and no further old node is drained.",
    );
    const two = pool({
      state: "Held",
      heldBy: {
        node: "n",
        waits: [
          { kind: "Pod", namespace: "kube-system", name: "a", reason: "x" },
          { kind: "CSIDriver", name: "b", reason: "y" },
        ],
      },
    });
    expect(heldText(two)).toContain("node n waits for Pod kube-system/a (x) and CSIDriver b (y).");
    expect(heldText(pool({ state: "Held" }))).toBe("The roll of pool worker-a is held.");
    expect(heldText(rolling.pools[1])).toBeUndefined();
  });

  it("says how many nodes of a manual in-place pool wait to be selected, and how to select one", () => {
    expect(awaitingSelectionText(pool({ updateStrategy: "ManualInPlaceUpdate", awaitingSelection: 2 }))).toBe(
      "2 nodes wait to be selected for the update: label a node " +
        "node.machine.sapcloud.io/selected-for-update=true and it is updated in place.",
    );
    expect(awaitingSelectionText(pool({ awaitingSelection: 1 }))).toMatch(/^1 node waits to be selected/);
    expect(awaitingSelectionText(pool())).toBeUndefined();
  });

  it("groups nodes under their pools in the answer's order, pools without a roll last", () => {
    const views = poolViews(rolling);
    expect(views.map((v) => [v.name, v.nodes.map((n) => n.name)])).toEqual([
      ["worker-a", ["worker-a-old-1", "worker-a-new-1", "worker-a-new-2"]],
      ["worker-b", ["worker-b-1"]],
      ["worker-gone", ["worker-gone-1"]],
    ]);
    expect(views[2].roll).toBeUndefined();
  });

  it("polls while any pool is rolling or held", () => {
    expect(rollUnderWay(rolling)).toBe(true);
    expect(rollUnderWay({ pools: [pool()] })).toBe(false);
    expect(rollUnderWay(undefined)).toBe(false);
  });

  it("sums the pools up in one line", () => {
    expect(nodesSummary(rolling)).toBe("2 pools, 5 nodes; pool worker-a held.");
    expect(nodesSummary({ pools: [pool(), pool({ pool: "b", state: "Rolling" })], items: [] })).toBe(
      "2 pools, 0 nodes; pool b rolling.",
    );
    expect(nodesSummary({ pools: [pool()], items: [node("x")] })).toBe("1 pool, 1 node; every pool is stable.");
    expect(nodesSummary({ pools: [], items: [] })).toBe("0 pools, 0 nodes");
  });
});

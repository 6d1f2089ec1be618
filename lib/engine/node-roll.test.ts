// A worker pool's roll as machine-controller-manager does it: new nodes first (within maxSurge),
// old ones cordoned and drained only as new ones become available (their critical-components taint
// removed), never fewer than desired-maxUnavailable available; in-place pools keep their nodes.
import { describe, expect, it } from "vitest";
import { CRITICAL_COMPONENTS_NOT_READY_TAINT } from "./node-readiness.ts";
import {
  available,
  everyNodeReady,
  HELD_AFTER_TICKS,
  type NodeRoll,
  onTarget,
  poolStatus,
  resolveFenceposts,
  type RollPool,
  rollingMessage,
  rollSettled,
  scaledValue,
  type SimNode,
  type SimulatedComponent,
  steadyNodes,
  tickRoll,
  UNSCHEDULABLE_TAINT,
} from "./node-roll.ts";

const CTX = { uid: "0f6e3c1a-uid", prefix: "shoot--dev--stream" };
const OLD = { kubernetesVersion: "1.32.5", image: { name: "gardenlinux", version: "1592.4.0" } };
const NEW = { kubernetesVersion: "1.33.4", image: { name: "gardenlinux", version: "1877.2.0" } };

const COMPONENTS: SimulatedComponent[] = [
  { daemonSet: "kube-proxy-worker-v1.33.4", readyAfterTicks: 1 },
  { daemonSet: "calico-node", readyAfterTicks: 2 },
  { daemonSet: "csi-driver-node", csiDriver: "ebs.csi.aws.com", readyAfterTicks: 3 },
];

function pool(over: Partial<RollPool> = {}): RollPool {
  return {
    name: "worker",
    updateStrategy: "AutoRollingUpdate",
    desired: 3,
    maxSurge: 1,
    maxUnavailable: 0,
    zones: ["eu-west-1a", "eu-west-1b"],
    components: COMPONENTS,
    ...NEW,
    ...over,
  };
}

function start(p: RollPool): NodeRoll {
  return { nodes: steadyNodes(CTX, p, OLD, "2026-09-01T00:00:00Z"), pools: [] };
}

const at = (tick: number) => new Date(Date.parse("2026-09-10T02:00:00Z") + tick * 60_000).toISOString();

/** Ticks the roll until it settles (or `limit` ticks), returning every tick's nodes. */
function run(p: RollPool, roll = start(p), limit = 60): NodeRoll[] {
  const history: NodeRoll[] = [roll];
  for (let t = 1; t <= limit && !rollSettled(roll, [p]); t++) {
    roll = tickRoll(roll, [p], { ...CTX, at: at(t) });
    history.push(roll);
  }
  return history;
}

describe("resolveFenceposts (maxSurge rounds up, maxUnavailable rounds down)", () => {
  it("resolves numbers and percentages of the desired count", () => {
    expect(scaledValue("25%", 5, true)).toBe(2);
    expect(scaledValue("25%", 5, false)).toBe(1);
    expect(resolveFenceposts("10%", "10%", 5)).toEqual({ surge: 1, unavailable: 0 });
    expect(resolveFenceposts("30%", "30%", 5)).toEqual({ surge: 2, unavailable: 1 });
    expect(resolveFenceposts(1, 0, 3)).toEqual({ surge: 1, unavailable: 0 });
  });
  it("lets one node be unavailable when both come to zero", () => {
    expect(resolveFenceposts(0, 0, 3)).toEqual({ surge: 0, unavailable: 1 });
    expect(resolveFenceposts("0%", "20%", 3)).toEqual({ surge: 0, unavailable: 1 });
  });
});

describe("a rolling pool (AutoRollingUpdate)", () => {
  it("replaces every node with one on the target, keeping names stable and distinct", () => {
    const history = run(pool());
    const end = history.at(-1)!;
    expect(rollSettled(end, [pool()])).toBe(true);
    expect(end.nodes).toHaveLength(3);
    expect(end.nodes.every((n) => onTarget(n, NEW) && available(n) && n.taints.length === 0)).toBe(true);
    const before = history[0].nodes.map((n) => n.name);
    expect(end.nodes.some((n) => before.includes(n.name))).toBe(false);
    expect(new Set(end.nodes.map((n) => n.name)).size).toBe(3);
    expect(run(pool()).at(-1)).toEqual(end); // deterministic
  });

  for (const [maxSurge, maxUnavailable, desired] of [
    [1, 0, 3],
    [0, 1, 3],
    [2, 1, 5],
    ["50%", "0%", 4],
    ["0%", "34%", 3],
    [0, 0, 2],
  ] as const) {
    it(`never exceeds desired+maxSurge nodes nor drops below desired-maxUnavailable available (${maxSurge}/${maxUnavailable} of ${desired})`, () => {
      const p = pool({ maxSurge, maxUnavailable, desired });
      const { surge, unavailable } = resolveFenceposts(maxSurge, maxUnavailable, desired);
      const history = run(p);
      expect(rollSettled(history.at(-1)!, [p])).toBe(true);
      for (const roll of history) {
        expect(roll.nodes.length).toBeLessThanOrEqual(desired + surge);
        expect(roll.nodes.filter(available).length).toBeGreaterThanOrEqual(desired - unavailable);
      }
    });
  }

  it("registers new nodes with the critical-components taint and cordons old ones only once a new one is available", () => {
    const history = run(pool());
    const first = history[1].nodes.find((n) => onTarget(n, NEW))!;
    expect(first.state).toBe("Joining");
    expect(first.taints).toEqual([{ key: CRITICAL_COMPONENTS_NOT_READY_TAINT, effect: "NoSchedule" }]);
    for (const roll of history) {
      const draining = roll.nodes.filter((n) => n.state === "Draining");
      const newAvailable = roll.nodes.filter((n) => onTarget(n, NEW) && available(n)).length;
      const oldGone = 3 - roll.nodes.filter((n) => !onTarget(n, NEW)).length;
      // With maxUnavailable 0, every old node cordoned or gone has an available new node in its place.
      expect(draining.length + oldGone).toBeLessThanOrEqual(newAvailable);
      for (const n of draining) expect(n.taints.map((t) => t.key)).toContain(UNSCHEDULABLE_TAINT);
    }
  });

  it("keeps the taint while components are not ready, and says what the node waits for", () => {
    const history = run(pool());
    const joining = history[2].nodes.find((n) => n.state === "Joining")!;
    expect(joining.taints.map((t) => t.key)).toContain(CRITICAL_COMPONENTS_NOT_READY_TAINT);
    expect(joining.waitingFor.map((w) => w.kind)).toEqual(expect.arrayContaining(["Pod", "CSIDriver"]));
    // Ready once the slowest component (3 ticks) is.
    const becameReady = history.findIndex((r) => r.nodes.some((n) => n.name === joining.name && n.state === "Ready"));
    expect(becameReady).toBe(1 + 3);
  });

  it("holds when a node-critical component never becomes ready: which component, which node", () => {
    const p = pool({
      components: [...COMPONENTS.slice(0, 2), { ...COMPONENTS[2], fault: "DriverNotRegistered" }],
    });
    const history = run(p, start(p), 20);
    const end = history.at(-1)!;
    expect(rollSettled(end, [p])).toBe(false);
    const status = poolStatus(
      end.nodes,
      p,
      end.pools.find((m) => m.pool === "worker"),
    );
    expect(status.state).toBe("Held");
    const joining = end.nodes.filter((n) => n.state === "Joining");
    expect(joining).toHaveLength(1); // the surge is used up; nothing more is created
    expect(status.heldBy).toEqual({
      node: joining[0].name,
      waits: [{ kind: "CSIDriver", name: "ebs.csi.aws.com", reason: "driver not registered in CSINode" }],
    });
    expect(end.pools[0].heldSince).toBe(at(HELD_AFTER_TICKS + 1));
    // No old node was touched: all three still serve.
    expect(end.nodes.filter((n) => !onTarget(n, NEW) && available(n))).toHaveLength(3);
    expect(rollingMessage([status])).toContain(`node "${joining[0].name}"`);
    expect(rollingMessage([status])).toContain("CSIDriver ebs.csi.aws.com: driver not registered in CSINode");
  });

  it("holds on a crash-looping CNI pod, naming the pod's reason", () => {
    const p = pool({ components: [{ daemonSet: "calico-node", readyAfterTicks: 1, fault: "CrashLoopBackOff" }] });
    const end = run(p, start(p), 20).at(-1)!;
    const status = poolStatus(end.nodes, p);
    expect(status.state).toBe("Held");
    expect(status.heldBy?.waits).toEqual([
      expect.objectContaining({ kind: "Pod", namespace: "kube-system", reason: "CrashLoopBackOff" }),
    ]);
  });

  it("rolls no node for a Kubernetes patch version: the kubelet is updated where it runs", () => {
    const patchOnly = pool({ kubernetesVersion: "1.32.9", image: OLD.image });
    const history = run(patchOnly);
    expect(history).toHaveLength(2); // one tick
    expect(history[1].nodes.map((n) => n.name)).toEqual(history[0].nodes.map((n) => n.name));
    expect(history[1].nodes.every((n) => n.kubernetesVersion === "1.32.9" && available(n))).toBe(true);
  });

  it("creates a new pool's nodes and drains a removed pool's", () => {
    const removed = pool({ name: "old-pool" });
    const roll = start(removed);
    const added = pool({ name: "compute", desired: 2 });
    let next = roll;
    for (let t = 1; t < 10 && !rollSettled(next, [added]); t++) next = tickRoll(next, [added], { ...CTX, at: at(t) });
    expect(rollSettled(next, [added])).toBe(true);
    expect(next.nodes.map((n) => n.pool)).toEqual(["compute", "compute"]);
  });
});

describe("in-place pools", () => {
  it("AutoInPlaceUpdate updates nodes where they are, within maxUnavailable, keeping their names", () => {
    const p = pool({ updateStrategy: "AutoInPlaceUpdate", maxSurge: 0, maxUnavailable: 1 });
    const history = run(p);
    const end = history.at(-1)!;
    expect(rollSettled(end, [p])).toBe(true);
    expect(end.nodes.map((n) => n.name)).toEqual(history[0].nodes.map((n) => n.name));
    expect(end.nodes.every((n) => onTarget(n, NEW) && available(n) && n.taints.length === 0)).toBe(true);
    for (const roll of history) {
      expect(roll.nodes).toHaveLength(3);
      expect(roll.nodes.filter((n) => n.state === "UpdatingInPlace").length).toBeLessThanOrEqual(1);
      expect(roll.nodes.filter(available).length).toBeGreaterThanOrEqual(2);
    }
    expect(history.some((r) => r.nodes.some((n) => n.state === "UpdatingInPlace"))).toBe(true);
  });

  it("ManualInPlaceUpdate marks old nodes candidates and updates only those a person selected", () => {
    const p = pool({ updateStrategy: "ManualInPlaceUpdate", maxSurge: 0, maxUnavailable: 0 });
    let roll = tickRoll(start(p), [p], { ...CTX, at: at(1) });
    expect(roll.nodes.every((n) => n.candidateForUpdate && n.state === "Ready")).toBe(true);
    // Gardener's reconcile does not wait for a person: the pool is settled, awaiting selection.
    expect(rollSettled(roll, [p])).toBe(true);
    expect(poolStatus(roll.nodes, p).awaitingSelection).toBe(3);

    const chosen = roll.nodes[1].name;
    roll = { ...roll, nodes: roll.nodes.map((n) => (n.name === chosen ? { ...n, selectedForUpdate: true } : n)) };
    const history = run(p, roll, 10);
    const end = history.at(-1)!;
    expect(end.nodes.find((n) => n.name === chosen)).toMatchObject({ ...NEW, state: "Ready" });
    expect(end.nodes.filter((n) => n.name !== chosen).every((n) => onTarget(n, OLD) && n.candidateForUpdate)).toBe(
      true,
    );
    expect(poolStatus(end.nodes, p).awaitingSelection).toBe(2);
  });
});

describe("everyNodeReady", () => {
  const ready = (over: Partial<SimNode>): SimNode => ({ ...steadyNodes(CTX, pool(), NEW)[0], ...over });
  it("passes when every pool has its minimum of healthy nodes", () => {
    const nodes = steadyNodes(CTX, pool(), NEW);
    expect(everyNodeReady(nodes, [pool()])).toEqual({
      status: "True",
      reason: "EveryNodeReady",
      message: "All nodes are ready.",
    });
  });
  it("names a node that is not ready, and a pool below its minimum", () => {
    expect(everyNodeReady([ready({ ready: false, state: "NotReady" })], [pool({ desired: 1 })])).toEqual({
      status: "False",
      reason: "NodeUnhealthy",
      message: `Node "${ready({}).name}" in worker group "worker" is unhealthy: node is not ready.`,
    });
    expect(everyNodeReady([ready({})], [pool()]).message).toBe(
      'Not enough worker nodes registered in worker pool "worker" to meet minimum desired machine count. (1/3).',
    );
  });
});

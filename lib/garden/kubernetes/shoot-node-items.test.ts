import type { V1Node } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import type { PoolRoll } from "../../api/nodes.ts";
import { poolsWithNodes, shootNodeItems } from "./shoot-node-items.ts";

const pool = (name: string, updateStrategy: string, version: string): PoolRoll => ({
  pool: name,
  updateStrategy,
  minimum: 2,
  maximum: 2,
  maxSurge: "0",
  maxUnavailable: "1",
  target: { kubernetesVersion: "1.31.2", image: { name: "gardenlinux", version } },
  state: "Rolling",
  updated: 0,
  desired: 2,
});

const node = (name: string, pool: string, os: string, labels: Record<string, string> = {}): V1Node => ({
  metadata: { name, labels: { "worker.gardener.cloud/pool": pool, ...labels } },
  spec: {},
  status: {
    conditions: [{ type: "Ready", status: "True" }],
    nodeInfo: { kubeletVersion: "v1.31.2", osImage: `Garden Linux ${os}` } as never,
  },
});

describe("a live shoot's nodes mapped", () => {
  it("shows a ManualInPlaceUpdate pool's selected node updating in place and counts the candidates nobody selected", () => {
    const manual = pool("m", "ManualInPlaceUpdate", "1877.2.0");
    const nodes = [
      node("m-1", "m", "1592.4", {
        "node.machine.sapcloud.io/candidate-for-update": "",
        "node.machine.sapcloud.io/selected-for-update": "true",
      }),
      node("m-2", "m", "1592.4", { "node.machine.sapcloud.io/candidate-for-update": "" }),
    ];
    const inside = { nodes, pods: [], daemonSets: [], csiNodes: [] };
    const items = shootNodeItems(inside, [manual]);
    expect(items.map((n) => [n.name, n.state, n.image.version])).toEqual([
      ["m-1", "UpdatingInPlace", "1592.4"],
      ["m-2", "Ready", "1592.4"],
    ]);
    expect(poolsWithNodes([manual], items, inside)[0]).toMatchObject({
      state: "Rolling",
      updated: 0,
      awaitingSelection: 1,
    });
  });

  it("calls a pool Rolling whose nodes are not all on the target, though the garden said Stable", () => {
    const stable = { ...pool("a", "AutoRollingUpdate", "1877.2.0"), state: "Stable" as const, updated: 2 };
    const inside = {
      nodes: [node("a-1", "a", "1877.2"), node("a-2", "a", "1592.4")],
      pods: [],
      daemonSets: [],
      csiNodes: [],
    };
    const [counted] = poolsWithNodes([stable], shootNodeItems(inside, [stable]), inside);
    expect(counted).toMatchObject({ state: "Rolling", updated: 1, desired: 2 });
    expect(counted.awaitingSelection).toBeUndefined();
  });

  it("names the node a Held pool waits on, and what for", () => {
    const held = { ...pool("a", "AutoRollingUpdate", "1877.2.0"), state: "Held" as const };
    const joining = node("a-new", "a", "1877.2");
    joining.spec = { taints: [{ key: "node.gardener.cloud/critical-components-not-ready", effect: "NoSchedule" }] };
    const critical = { "node.gardener.cloud/critical-component": "true" };
    const inside = {
      nodes: [node("a-1", "a", "1592.4"), joining],
      pods: [
        {
          metadata: {
            name: "calico-node-x",
            namespace: "kube-system",
            labels: critical,
            ownerReferences: [
              { apiVersion: "apps/v1", kind: "DaemonSet", name: "calico-node", uid: "u", controller: true },
            ],
          },
          spec: { nodeName: "a-new", containers: [] },
          status: {
            conditions: [{ type: "Ready", status: "False" }],
            containerStatuses: [
              {
                name: "c",
                image: "i",
                imageID: "",
                ready: false,
                restartCount: 3,
                state: { waiting: { reason: "ImagePullBackOff" } },
              },
            ],
          },
        },
      ],
      daemonSets: [],
      csiNodes: [],
    };
    const items = shootNodeItems(inside, [held]);
    expect(items.find((n) => n.name === "a-new")).toMatchObject({ state: "Joining", ready: true });
    expect(poolsWithNodes([held], items, inside)[0]).toMatchObject({
      state: "Held",
      updated: 0,
      heldBy: {
        node: "a-new",
        waits: [{ kind: "Pod", namespace: "kube-system", name: "calico-node-x", reason: "ImagePullBackOff" }],
      },
    });
  });
});

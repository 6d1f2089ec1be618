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
});

// The simulated garden's nodes: those a roll left in the shoot's inventory, or, where no roll has
// touched the shoot, the steady state of what it runs (simulated-nodes.ts). During a roll both
// the old nodes and the new ones are listed, with each pool's progress and what holds it.
import type { PoolRoll, ShootNode, ShootNodesAnswer } from "../../api/nodes.ts";
import type { Db } from "../../db/client.ts";
import { type NodeRoll, poolStatus, type RollPool, type SimNode } from "../../engine/node-roll.ts";
import type { RunningVersions } from "../../engine/running-versions.ts";
import { currentNodeRoll, rollPoolsOf } from "../../engine/simulated-nodes.ts";
import type { Shoot } from "../../gardener/types.ts";
import { findNodeInventory } from "../../store/inventories.ts";
import { findShoot } from "../../store/shoots.ts";
import type { ShootNodes } from "../shoot-nodes.ts";

function shootNode(node: SimNode): ShootNode {
  return {
    name: node.name,
    pool: node.pool,
    ...(node.zone ? { zone: node.zone } : {}),
    kubernetesVersion: node.kubernetesVersion,
    image: node.image,
    ready: node.ready,
    taints: node.taints.map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect })),
    state: node.state,
    ...(node.createdAt ? { createdAt: node.createdAt } : {}),
    waitingFor: node.waitingFor,
  };
}

/**
 * Each pool of the spec and how its roll stands. The target is what the last roll brought the
 * pool to; a pool no roll has touched is at what it runs (a change waiting for its reconcile, say
 * one confined to the maintenance window, does not show as rolling before it rolls).
 */
function poolRolls(shoot: Shoot, pools: readonly RollPool[], roll: NodeRoll): PoolRoll[] {
  const workers = shoot.spec.provider?.workers ?? [];
  return pools.map((pool) => {
    const nodes = roll.nodes.filter((n) => n.pool === pool.name);
    const memory = roll.pools.find((m) => m.pool === pool.name);
    const target =
      memory?.target ?? (nodes[0] ? { kubernetesVersion: nodes[0].kubernetesVersion, image: nodes[0].image } : pool);
    const aimed = { ...pool, ...target, ...(memory ? {} : { desired: nodes.length || pool.desired }) };
    const status = poolStatus(nodes, aimed, memory);
    const worker = workers.find((w) => w.name === pool.name);
    return {
      pool: pool.name,
      updateStrategy: pool.updateStrategy,
      minimum: worker?.minimum ?? 0,
      maximum: worker?.maximum ?? 0,
      maxSurge: String(pool.maxSurge),
      maxUnavailable: String(pool.maxUnavailable),
      target: { kubernetesVersion: target.kubernetesVersion, image: target.image },
      state: status.state,
      updated: status.updated,
      desired: status.desired,
      ...(status.heldBy ? { heldBy: status.heldBy } : {}),
      ...(status.awaitingSelection ? { awaitingSelection: status.awaitingSelection } : {}),
    };
  });
}

/** The answer for a shoot, from its stored roll (if any) and the record of what it runs. */
export function simulatedNodesAnswer(
  shoot: Shoot,
  running: RunningVersions | undefined,
  inventory: Awaited<ReturnType<typeof findNodeInventory>>,
  now: number,
): ShootNodesAnswer {
  const pools = rollPoolsOf(shoot, inventory.criticalComponentFault);
  const roll = currentNodeRoll(shoot, running, inventory.nodeRoll);
  return {
    source: "simulated",
    items: roll.nodes.map(shootNode),
    pools: poolRolls(shoot, pools, roll),
    observedAt: new Date(now).toISOString(),
  };
}

export function embeddedShootNodes(db: Db): ShootNodes {
  return {
    async readNodes(_actor, key, request) {
      const stored = await findShoot(db, key.namespace, key.name);
      if (!stored) return { ok: false, refusal: { code: "NotFound" } };
      const inventory = await findNodeInventory(db, key.namespace, key.name);
      return { ok: true, value: simulatedNodesAnswer(stored.shoot, stored.running, inventory, request.now) };
    },
  };
}

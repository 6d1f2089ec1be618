// Step 3 of the simulated reconcile, "Reconciling shoot worker nodes": when a pool's nodes do not
// run what the spec asks (running vs spec versions, a pool added, removed or resized, hibernation),
// the reconcile rolls them tick by tick (node-roll.ts) and goes on only once every pool is settled.
// Each tick is one job: the nodes (kept in the shoot's inventory from the first tick on) and the
// shoot's status move in the caller's transaction. A roll held longer than the setting ends the
// attempt in Error; the gardenlet's retry picks the roll up where it stands.
import type { Tx } from "../db/client.ts";
import {
  describeWait,
  everyNodeReady,
  type NodeRoll,
  poolStatus,
  type PoolStatus,
  type RollPool,
  rollingMessage,
  rollSettled,
  tickRoll,
} from "../engine/node-roll.ts";
import { advanceNodeRoll, failNodeRoll } from "../engine/reconcile-simulation.ts";
import type { RunningVersions } from "../engine/running-versions.ts";
import { currentNodeRoll, nodePrefix, rollPoolsOf, targetsOf } from "../engine/simulated-nodes.ts";
import type { Shoot } from "../gardener/types.ts";
import { findNodeInventory, saveNodeRoll } from "../store/inventories.ts";
import type { JobsConfig } from "./config.ts";

export type RollOutcome =
  /** Every pool settled: the reconcile goes on to its next step. */
  | { readonly kind: "settled"; readonly shoot: Shoot }
  /** Still rolling (or held, within the timeout): the next tick follows. */
  | { readonly kind: "rolling"; readonly shoot: Shoot }
  /** Held too long: the shoot's operation ended in Error. */
  | { readonly kind: "held"; readonly shoot: Shoot };

// With ticks of 0 ms a roll runs within one job, up to this many ticks (a held roll stops it sooner).
const MAX_TICKS_AT_ONCE = 500;

function statusesOf(roll: NodeRoll, pools: readonly RollPool[]): PoolStatus[] {
  return pools.map((pool) =>
    poolStatus(
      roll.nodes.filter((n) => n.pool === pool.name),
      pool,
      roll.pools.find((m) => m.pool === pool.name),
    ),
  );
}

/** Of the nodes the pools are to have, the share already updated and available. */
function updatedShare(statuses: readonly PoolStatus[]): number {
  const desired = statuses.reduce((sum, s) => sum + s.desired, 0);
  if (desired === 0) return 1;
  return statuses.reduce((sum, s) => sum + Math.min(s.updated, s.desired), 0) / desired;
}

/**
 * One job of step 3 on `shoot` (already at step 3, Processing): tick `tick` of the roll (0: look
 * whether anything needs rolling and start).
 */
export async function rollWorkerNodes(
  tx: Tx,
  key: { namespace: string; name: string },
  shoot: Shoot,
  running: RunningVersions | undefined,
  tick: number,
  config: JobsConfig,
  now: number,
  rollsOut?: Omit<RunningVersions, "since">,
): Promise<RollOutcome> {
  const inventory = await findNodeInventory(tx, key.namespace, key.name);
  // The roll brings the pools to the spec the reconcile started with (`rollsOut`, else the spec at
  // its first tick), which the first tick records in each pool's memory; later ticks of this
  // reconcile keep those targets. A change made meanwhile that starts no reconcile of its own
  // (confineSpecUpdateRollout holds it for the window) is not this reconcile's to roll out, nor
  // does the running-versions record count it. A newer reconcile supersedes this one and starts at
  // tick 0 from its own spec.
  const pinned = tick === 0 ? rollsOut && targetsOf(rollsOut) : inventory.nodeRoll?.pools;
  const pools = rollPoolsOf(shoot, inventory.criticalComponentFault, running, pinned);
  let roll = currentNodeRoll(shoot, running, inventory.nodeRoll);
  if (tick === 0) {
    if (rollSettled(roll, pools)) return { kind: "settled", shoot };
    // A new attempt's hold is timed afresh.
    roll = { ...roll, pools: roll.pools.map(({ heldSince: _held, ...memory }) => memory) };
  }
  const ctx = {
    uid: shoot.metadata.uid ?? shoot.metadata.name,
    prefix: nodePrefix(shoot),
    at: new Date(now).toISOString(),
  };
  let ticks = 0;
  do {
    roll = tickRoll(roll, pools, ctx);
    ticks++;
  } while (
    config.nodeRollStepMs === 0 &&
    ticks < MAX_TICKS_AT_ONCE &&
    !rollSettled(roll, pools) &&
    !statusesOf(roll, pools).some((s) => s.state === "Held")
  );
  await saveNodeRoll(tx, key.namespace, key.name, roll);

  const statuses = statusesOf(roll, pools);
  if (rollSettled(roll, pools))
    return { kind: "settled", shoot: advanceNodeRoll(shoot, now, 1, rollingMessage(statuses)) };
  const timedOut = statuses.find(
    (s) =>
      s.state === "Held" && s.heldBy && s.heldSince && now - Date.parse(s.heldSince) > config.nodeRollHoldTimeoutMs,
  );
  if (timedOut?.heldBy) {
    const waits = timedOut.heldBy.waits.map(describeWait).join(", ");
    const message = `node "${timedOut.heldBy.node}" of worker pool "${timedOut.pool}" keeps the taint node.gardener.cloud/critical-components-not-ready: node-critical components not ready: ${waits}`;
    return { kind: "held", shoot: failNodeRoll(shoot, now, message, config.retryDurationMs) };
  }
  return { kind: "rolling", shoot: advanceNodeRoll(shoot, now, updatedShare(statuses), rollingMessage(statuses)) };
}

/** EveryNodeReady from the shoot's nodes (each pool's minimum present, every node healthy). */
export async function nodeCheck(
  tx: Tx,
  key: { namespace: string; name: string },
  shoot: Shoot,
  running: RunningVersions | undefined,
) {
  const inventory = await findNodeInventory(tx, key.namespace, key.name);
  const roll = currentNodeRoll(shoot, running, inventory.nodeRoll);
  return everyNodeReady(roll.nodes, rollPoolsOf(shoot));
}

/**
 * A migration's success finishes a roll the migration interrupted (it took the shoot from a
 * reconcile that was rolling its nodes): Gardener's Restore deploys the Worker on the destination
 * seed and waits until it is ready, machine-controller-manager there going on with the rolling
 * update. The stored roll ticks on towards the spec until it settles; a roll that holds stays as
 * it stands (Joining nodes waiting), and the next reconcile picks it up at its first tick.
 */
export async function finishInterruptedRoll(
  tx: Tx,
  key: { namespace: string; name: string },
  shoot: Shoot,
  running: RunningVersions | undefined,
  now: number,
): Promise<void> {
  const inventory = await findNodeInventory(tx, key.namespace, key.name);
  if (!inventory.nodeRoll) return;
  const pools = rollPoolsOf(shoot, inventory.criticalComponentFault, running);
  let roll = inventory.nodeRoll;
  if (rollSettled(roll, pools)) return;
  const ctx = {
    uid: shoot.metadata.uid ?? shoot.metadata.name,
    prefix: nodePrefix(shoot),
    at: new Date(now).toISOString(),
  };
  for (let ticks = 0; ticks < MAX_TICKS_AT_ONCE && !rollSettled(roll, pools); ticks++) {
    roll = tickRoll(roll, pools, ctx);
    if (statusesOf(roll, pools).some((s) => s.state === "Held")) break;
  }
  await saveNodeRoll(tx, key.namespace, key.name, roll);
}

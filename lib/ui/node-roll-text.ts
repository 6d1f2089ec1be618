// The nodes panel's reading of GET .../nodes: each pool with its nodes, how its roll stands in
// words (strategy, surge, progress, what holds it), and each node's state, taints and waits.
// Pure, so the words are tested without a page.
import type { NodeWait, PoolRoll, ShootNode, ShootNodesAnswer } from "../api/nodes.ts";
import type { Tone } from "./status.ts";

/** The taint a new node carries until its node-critical components are ready. */
export const CRITICAL_COMPONENTS_TAINT = "node.gardener.cloud/critical-components-not-ready";

export const CRITICAL_COMPONENTS_TAINT_HINT =
  "New node; workload is scheduled once its node-critical components are ready.";

/** The taint a node gets when it is cordoned (drained for removal, or updated in place). */
export const UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";

/** What a taint the roll sets means, in a few words; undefined for any other taint. */
export function taintHint(key: string): string | undefined {
  if (key === CRITICAL_COMPONENTS_TAINT) return CRITICAL_COMPONENTS_TAINT_HINT;
  if (key === UNSCHEDULABLE_TAINT) return "Cordoned; no new workload is scheduled while it drains or updates.";
  return undefined;
}

/** What a pool's update strategy means for its nodes. */
export function strategyText(updateStrategy: string): { word: string; hint: string; inPlace: boolean } {
  switch (updateStrategy) {
    case "AutoInPlaceUpdate":
      return {
        word: "In place, automatic",
        hint: "Nodes are updated where they run, one after another, instead of being replaced by new machines.",
        inPlace: true,
      };
    case "ManualInPlaceUpdate":
      return {
        word: "In place, manual",
        hint: "Nodes are updated where they run, each once someone selects it for the update; no new machines.",
        inPlace: true,
      };
    case "AutoRollingUpdate":
    case "":
      return {
        word: "Rolling replacement",
        hint: "Each node is replaced: a new machine joins, then an old one is drained and removed.",
        inPlace: false,
      };
    default:
      return { word: updateStrategy, hint: "An update strategy Almanac does not know.", inPlace: false };
  }
}

/** maxSurge / maxUnavailable in words ("up to 1 extra node, none unavailable"). */
export function surgeText(pool: Pick<PoolRoll, "maxSurge" | "maxUnavailable" | "updateStrategy">): string {
  const count = (value: string, one: string, many: string) =>
    value.endsWith("%") ? `${value} of the nodes` : value === "1" ? `1 ${one}` : `${value} ${many}`;
  const unavailable =
    pool.maxUnavailable === "0" || pool.maxUnavailable === "0%"
      ? "none unavailable"
      : `up to ${count(pool.maxUnavailable, "node", "nodes")} unavailable`;
  // In place, no machine is added: only how many update at once counts.
  if (strategyText(pool.updateStrategy).inPlace) return unavailable;
  const surge =
    pool.maxSurge === "0" || pool.maxSurge === "0%"
      ? "no extra node"
      : `up to ${count(pool.maxSurge, "extra node", "extra nodes")}`;
  return `${surge}, ${unavailable}`;
}

export const ROLL_STATE_META: Record<PoolRoll["state"], { word: string; tone: Tone; hint: string }> = {
  Stable: { word: "Stable", tone: "green", hint: "Every node runs what the pool asks for." },
  Rolling: { word: "Rolling", tone: "blue", hint: "Nodes are being replaced or updated." },
  Held: { word: "Held", tone: "amber", hint: "A new node waits for a component that does not become ready." },
};

/** The roll's progress: nodes on the target and ready out of those the pool is to have. */
export function rollProgress(pool: Pick<PoolRoll, "updated" | "desired" | "state">): {
  percent: number;
  text: string;
} {
  const percent = pool.desired > 0 ? Math.round((100 * Math.min(pool.updated, pool.desired)) / pool.desired) : 100;
  const text =
    pool.desired === 0
      ? "No node is wanted"
      : `${pool.updated} of ${pool.desired} ${pool.desired === 1 ? "node" : "nodes"} updated`;
  return { percent, text };
}

/**
 * ManualInPlaceUpdate: old nodes machine-controller-manager marked as candidates that nobody has
 * selected for the update yet, and how to select one. Undefined when none waits.
 */
export function awaitingSelectionText(pool: Pick<PoolRoll, "awaitingSelection" | "pool">): string | undefined {
  const n = pool.awaitingSelection ?? 0;
  if (n <= 0) return undefined;
  return (
    `${n} ${n === 1 ? "node waits" : "nodes wait"} to be selected for the update: ` +
    "label a node node.machine.sapcloud.io/selected-for-update=true and it is updated in place."
  );
}

export const NODE_STATE_META: Record<ShootNode["state"], { word: string; tone: Tone; hint: string }> = {
  // "Serving" rather than "Ready": the Ready condition has a column of its own beside it.
  Ready: { word: "Serving", tone: "green", hint: "Ready and taking workload." },
  Joining: {
    word: "Joining",
    tone: "blue",
    hint: "New node: it takes workload once its node-critical components are ready.",
  },
  NotReady: { word: "Not ready", tone: "red", hint: "Its Ready condition is not True." },
  Draining: { word: "Draining", tone: "amber", hint: "Being emptied of workload; it is removed next." },
  UpdatingInPlace: {
    word: "Updating in place",
    tone: "blue",
    hint: "Being updated where it runs; it takes workload again once done.",
  },
};

/** Whether a node runs what its pool is to run (Kubernetes version and machine image). */
export function nodeOnTarget(
  node: Pick<ShootNode, "kubernetesVersion" | "image">,
  pool: Pick<PoolRoll, "target"> | undefined,
): { kubernetes: boolean; image: boolean } {
  if (!pool) return { kubernetes: true, image: true };
  return {
    kubernetes: node.kubernetesVersion === pool.target.kubernetesVersion,
    image: node.image.name === pool.target.image.name && node.image.version === pool.target.image.version,
  };
}

/** "DaemonSet kube-system/calico-node" */
export function waitSubject(wait: Pick<NodeWait, "kind" | "namespace" | "name">): string {
  return `${wait.kind} ${wait.namespace ? `${wait.namespace}/` : ""}${wait.name}`;
}

/** "DaemonSet kube-system/calico-node: CrashLoopBackOff" */
export function waitText(wait: NodeWait): string {
  return `${waitSubject(wait)}: ${wait.reason}`;
}

/**
 * The held roll's banner: which node waits for which components and what that means. Undefined
 * unless the pool is Held.
 */
export function heldText(pool: PoolRoll): string | undefined {
  if (pool.state !== "Held") return undefined;
  if (!pool.heldBy) return `The roll of pool ${pool.pool} is held.`;
  const { node, waits } = pool.heldBy;
  const what =
    waits.length === 0 ? "a node-critical component" : listWords(waits.map((w) => `${waitSubject(w)} (${w.reason})`));
  return (
    `The roll of pool ${pool.pool} is held: node ${node} waits for ${what}. ` +
    "Until it is ready the node keeps the critical-components-not-ready taint, takes no workload, " +
    "and no further old node is drained."
  );
}

function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

export interface PoolView {
  readonly name: string;
  /** Undefined for nodes of a pool the answer has no roll for (a pool being removed). */
  readonly roll?: PoolRoll;
  readonly nodes: readonly ShootNode[];
}

/**
 * The pools in the answer's order, each with its nodes (in the answer's order: old and new side by
 * side during a roll); nodes of a pool without a roll come last, under their own pool.
 */
export function poolViews(answer: Pick<ShootNodesAnswer, "pools" | "items">): PoolView[] {
  const views: PoolView[] = answer.pools.map((roll) => ({
    name: roll.pool,
    roll,
    nodes: answer.items.filter((n) => n.pool === roll.pool),
  }));
  const known = new Set(answer.pools.map((p) => p.pool));
  const others = [...new Set(answer.items.filter((n) => !known.has(n.pool)).map((n) => n.pool))];
  for (const name of others) views.push({ name, nodes: answer.items.filter((n) => n.pool === name) });
  return views;
}

/** Whether any pool is rolling or held: the panel then polls besides following the live events. */
export function rollUnderWay(answer: Pick<ShootNodesAnswer, "pools"> | undefined): boolean {
  return answer?.pools.some((p) => p.state !== "Stable") ?? false;
}

/** The one-line summary above the pools ("2 pools, 7 nodes; pool worker-a is rolling"). */
export function nodesSummary(answer: Pick<ShootNodesAnswer, "pools" | "items">): string {
  const pools = answer.pools.length;
  const nodes = answer.items.length;
  const head = `${pools} ${pools === 1 ? "pool" : "pools"}, ${nodes} ${nodes === 1 ? "node" : "nodes"}`;
  const held = answer.pools.filter((p) => p.state === "Held").map((p) => p.pool);
  const rolling = answer.pools.filter((p) => p.state === "Rolling").map((p) => p.pool);
  const parts: string[] = [];
  if (held.length > 0) parts.push(`${held.length === 1 ? "pool" : "pools"} ${listWords(held)} held`);
  if (rolling.length > 0) parts.push(`${rolling.length === 1 ? "pool" : "pools"} ${listWords(rolling)} rolling`);
  if (parts.length === 0) return pools === 0 ? head : `${head}; every pool is stable.`;
  return `${head}; ${parts.join(", ")}.`;
}

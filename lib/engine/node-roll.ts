// A worker pool's roll, tick by tick, as machine-controller-manager rolls the pool's
// MachineDeployment when its machine image or Kubernetes version changes. Rolling pools
// (AutoRollingUpdate, the default) replace nodes like a Kubernetes Deployment replaces pods: never
// more than desired+maxSurge nodes, never fewer than desired-maxUnavailable available ones. A new
// node registers with node.gardener.cloud/critical-components-not-ready; it counts as available
// only once gardener-resource-manager removed that taint (node-readiness.ts), so old nodes are
// cordoned, drained and removed only as new ones really can take workload. A node-critical
// component that never becomes ready holds the roll. In-place pools (AutoInPlaceUpdate,
// ManualInPlaceUpdate) update their nodes where they are, keeping their names.
//
// Pure: the caller decides when a tick happens and what time it is; what the node-critical
// components do on a new node (when they become ready, or that they never do) is the simulation's
// world, given per pool.
import { crc32 } from "./crc32.ts";
import { parseVersion } from "./version.ts";
import {
  CRITICAL_COMPONENT_LABEL,
  CRITICAL_COMPONENTS_NAMESPACE,
  CRITICAL_COMPONENTS_NOT_READY_TAINT,
  type CriticalDaemonSet,
  type CriticalPod,
  criticalComponentsNotReadyTaint,
  type NodeTaint,
  type NodeWait,
  nodeReadiness,
  WAIT_FOR_CSI_NODE_PREFIX,
  withoutCriticalComponentsTaint,
} from "./node-readiness.ts";

/** Where a node stands in its pool's life: serving, new and not yet schedulable, being replaced or updated. */
export const NODE_STATES = ["Ready", "Joining", "NotReady", "Draining", "UpdatingInPlace"] as const;
export type NodeState = (typeof NODE_STATES)[number];

export const UPDATE_STRATEGIES = ["AutoRollingUpdate", "AutoInPlaceUpdate", "ManualInPlaceUpdate"] as const;
export type UpdateStrategy = (typeof UPDATE_STRATEGIES)[number];

/** The taint kubectl cordon (and machine-controller-manager's drain) puts on a node. */
export const UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";

/** Ticks a cordoned node takes to be drained and its machine deleted. */
export const DRAIN_TICKS = 1;
/** Ticks an in-place update takes (drain, update the OS and kubelet, reboot). */
export const IN_PLACE_UPDATE_TICKS = 2;
/** A new node still waiting for node-critical components after this many ticks holds its pool. */
export const HELD_AFTER_TICKS = 5;

export interface NodeVersions {
  readonly kubernetesVersion: string;
  readonly image: { readonly name: string; readonly version: string };
}

export interface SimNode extends NodeVersions {
  readonly name: string;
  readonly pool: string;
  readonly zone?: string;
  readonly state: NodeState;
  /** The node's Ready condition. */
  readonly ready: boolean;
  readonly taints: readonly NodeTaint[];
  readonly createdAt?: string;
  /** Ticks spent in the current state. */
  readonly ticks: number;
  /** What keeps node.gardener.cloud/critical-components-not-ready on the node. */
  readonly waitingFor: readonly NodeWait[];
  /** ManualInPlaceUpdate: machine-controller-manager's node.machine.sapcloud.io/candidate-for-update. */
  readonly candidateForUpdate?: boolean;
  /** ManualInPlaceUpdate: a person's node.machine.sapcloud.io/selected-for-update=true. */
  readonly selectedForUpdate?: boolean;
}

/** A node-critical component as the simulation runs it on a new node. */
export interface SimulatedComponent {
  /** The DaemonSet in kube-system, labelled node.gardener.cloud/critical-component=true. */
  readonly daemonSet: string;
  /** The CSI driver its pod waits for (node.gardener.cloud/wait-for-csi-node-<name>). */
  readonly csiDriver?: string;
  /** Ticks after the node registers until the pod is Ready (and its driver registered in CSINode). */
  readonly readyAfterTicks: number;
  /** Never ready on new nodes: the pod crash-loops, or the driver never registers. */
  readonly fault?: "CrashLoopBackOff" | "DriverNotRegistered";
}

export interface RollPool extends NodeVersions {
  readonly name: string;
  readonly updateStrategy: UpdateStrategy;
  /** The node count the pool keeps (the simulation has no cluster-autoscaler: the minimum). */
  readonly desired: number;
  /** As the pool states them: a number or a percentage ("25%"). */
  readonly maxSurge: string | number;
  readonly maxUnavailable: string | number;
  readonly zones: readonly string[];
  readonly components: readonly SimulatedComponent[];
}

/** The roll's memory of a pool between ticks. */
export interface PoolRollMemory {
  readonly pool: string;
  /** The index the next new node's name is made from. */
  readonly nextIndex: number;
  /** When the pool became Held (the time of that tick), while it is. */
  readonly heldSince?: string;
  /** What the roll brings the pool's nodes to (the spec of the reconcile that rolled it last). */
  readonly target?: NodeVersions;
}

export interface NodeRoll {
  readonly nodes: readonly SimNode[];
  readonly pools: readonly PoolRollMemory[];
}

export interface RollContext {
  /** The shoot's uid, so node names are stable and distinct across shoots. */
  readonly uid: string;
  /** The nodes' name prefix: the shoot's technical id (shoot--<project>--<name>). */
  readonly prefix: string;
  /** The time of this tick (RFC 3339), for new nodes' createdAt and heldSince. */
  readonly at: string;
}

export type PoolState = "Stable" | "Rolling" | "Held";

export interface PoolStatus {
  readonly pool: string;
  readonly state: PoolState;
  /** Nodes on the target and ready, out of the desired. */
  readonly updated: number;
  readonly desired: number;
  readonly heldBy?: { readonly node: string; readonly waits: readonly NodeWait[] };
  readonly heldSince?: string;
  /** ManualInPlaceUpdate: old nodes marked candidates that nobody selected for update yet. */
  readonly awaitingSelection?: number;
}

// --- maxSurge / maxUnavailable -----------------------------------------------------------------

/**
 * intstr's GetScaledValueFromIntOrPercent: a number as it is, a percentage of `total` rounded up
 * (surge) or down (unavailable).
 */
export function scaledValue(value: string | number, total: number, roundUp: boolean): number {
  if (typeof value === "number") return value;
  const percent = /^(\d+)%$/.exec(value.trim());
  if (!percent) {
    const n = Number(value);
    return Number.isInteger(n) && n >= 0 ? n : 0;
  }
  const scaled = (Number(percent[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/**
 * Kubernetes' ResolveFenceposts (machine-controller-manager does the same): surge rounds up,
 * unavailable rounds down, and when both come to zero one node may be unavailable, else the roll
 * could never start.
 */
export function resolveFenceposts(
  maxSurge: string | number,
  maxUnavailable: string | number,
  desired: number,
): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge, desired, true);
  const unavailable = scaledValue(maxUnavailable, desired, false);
  return surge === 0 && unavailable === 0 ? { surge, unavailable: 1 } : { surge, unavailable };
}

// --- nodes -------------------------------------------------------------------------------------

/** A node's name, as stable as the shoot's uid: <prefix>-<pool>-z<zone>-<5 characters>. */
export function nodeName(ctx: Pick<RollContext, "uid" | "prefix">, pool: string, zoneIndex: number, index: number) {
  const suffix = crc32(`${ctx.uid}/${pool}/${index}`).toString(36).padStart(5, "0").slice(-5);
  return `${ctx.prefix}-${pool}-z${zoneIndex + 1}-${suffix}`;
}

function zoneOf(pool: RollPool, index: number): { zone?: string; zoneIndex: number } {
  if (pool.zones.length === 0) return { zoneIndex: 0 };
  const zoneIndex = index % pool.zones.length;
  return { zone: pool.zones[zoneIndex], zoneIndex };
}

/** A node serving workload: ready, no taint of the roll's. */
function readyNode(
  ctx: Pick<RollContext, "uid" | "prefix">,
  pool: RollPool,
  versions: NodeVersions,
  index: number,
  createdAt?: string,
): SimNode {
  const { zone, zoneIndex } = zoneOf(pool, index);
  return {
    name: nodeName(ctx, pool.name, zoneIndex, index),
    pool: pool.name,
    ...(zone ? { zone } : {}),
    kubernetesVersion: versions.kubernetesVersion,
    image: versions.image,
    state: "Ready",
    ready: true,
    taints: [],
    ...(createdAt ? { createdAt } : {}),
    ticks: 0,
    waitingFor: [],
  };
}

/**
 * A pool's nodes when no roll has touched it: `desired` ready nodes running `versions`, named by
 * index. Derived, not stored: the simulated garden keeps nodes only once a roll changed them.
 */
export function steadyNodes(
  ctx: Pick<RollContext, "uid" | "prefix">,
  pool: RollPool,
  versions: NodeVersions,
  createdAt?: string,
): SimNode[] {
  return Array.from({ length: pool.desired }, (_, i) => readyNode(ctx, pool, versions, i, createdAt));
}

export function onTarget(node: NodeVersions, target: NodeVersions): boolean {
  return (
    node.kubernetesVersion === target.kubernetesVersion &&
    node.image.name === target.image.name &&
    node.image.version === target.image.version
  );
}

/** Serving workload: Ready, schedulable, no critical-components taint. */
export function available(node: SimNode): boolean {
  return node.state === "Ready" && node.ready;
}

/** What the node-critical components look like on a node `ticks` after it registered. */
export function simulatedComponents(
  node: Pick<SimNode, "name" | "taints">,
  components: readonly SimulatedComponent[],
  ticks: number,
): { daemonSets: CriticalDaemonSet[]; pods: CriticalPod[]; csiDrivers: string[] } {
  const critical = { [CRITICAL_COMPONENT_LABEL]: "true" };
  const tolerations = [{ key: CRITICAL_COMPONENTS_NOT_READY_TAINT, operator: "Exists" as const, effect: "NoSchedule" }];
  const daemonSets: CriticalDaemonSet[] = components.map((c) => ({
    namespace: CRITICAL_COMPONENTS_NAMESPACE,
    name: c.daemonSet,
    uid: `daemonset/${c.daemonSet}`,
    labels: critical,
    template: { labels: critical, tolerations },
  }));
  // The DaemonSet controller schedules the daemon pods a tick after the node registers.
  const pods: CriticalPod[] =
    ticks < 1
      ? []
      : components.map((c) => {
          const crashing = c.fault === "CrashLoopBackOff";
          const ready = !crashing && ticks >= c.readyAfterTicks;
          return {
            namespace: CRITICAL_COMPONENTS_NAMESPACE,
            name: `${c.daemonSet}-${crc32(`${node.name}/${c.daemonSet}`).toString(36).slice(-5)}`,
            nodeName: node.name,
            labels: critical,
            daemonSetUid: `daemonset/${c.daemonSet}`,
            ready,
            ...(ready ? {} : { notReadyReason: crashing ? "CrashLoopBackOff" : "ContainersNotReady" }),
            ...(c.csiDriver ? { annotations: { [`${WAIT_FOR_CSI_NODE_PREFIX}${c.daemonSet}`]: c.csiDriver } } : {}),
          };
        });
  const csiDrivers = components
    .filter((c) => c.csiDriver && c.fault !== "DriverNotRegistered" && ticks >= c.readyAfterTicks)
    .map((c) => c.csiDriver!);
  return { daemonSets, pods, csiDrivers };
}

// --- one tick ----------------------------------------------------------------------------------

/** The nodes of one pool after their own tick: joining ones may become ready, drained ones go. */
function advanceNodes(nodes: readonly SimNode[], pool: RollPool): SimNode[] {
  const next: SimNode[] = [];
  for (const node of nodes) {
    const ticks = node.ticks + 1;
    if (node.state === "Draining") {
      if (ticks < DRAIN_TICKS) next.push({ ...node, ticks });
      continue; // drained: machine-controller-manager deletes the machine and the node goes
    }
    if (node.state === "Joining") {
      const world = simulatedComponents(node, pool.components, ticks);
      const verdict = nodeReadiness(
        { name: node.name, taints: node.taints, csiDrivers: world.csiDrivers },
        world.daemonSets,
        world.pods,
      );
      // The kubelet reports Ready once it registered; the taint keeps workload away until the
      // node-critical components are ready too.
      if (verdict.removeTaint || !verdict.tainted)
        next.push({
          ...node,
          state: "Ready",
          ready: true,
          taints: withoutCriticalComponentsTaint(node.taints),
          ticks: 0,
          waitingFor: [],
        });
      else next.push({ ...node, ready: true, ticks, waitingFor: verdict.waitingFor });
      continue;
    }
    if (node.state === "UpdatingInPlace") {
      if (ticks >= IN_PLACE_UPDATE_TICKS)
        next.push({
          ...node,
          kubernetesVersion: pool.kubernetesVersion,
          image: pool.image,
          state: "Ready",
          ready: true,
          taints: node.taints.filter((t) => t.key !== UNSCHEDULABLE_TAINT),
          ticks: 0,
          candidateForUpdate: undefined,
          selectedForUpdate: undefined,
        });
      else next.push({ ...node, ready: false, ticks });
      continue;
    }
    next.push({ ...node, ticks });
  }
  return next.map(withoutUndefined);
}

function withoutUndefined(node: SimNode): SimNode {
  const { candidateForUpdate, selectedForUpdate, ...rest } = node;
  return {
    ...rest,
    ...(candidateForUpdate ? { candidateForUpdate } : {}),
    ...(selectedForUpdate ? { selectedForUpdate } : {}),
  };
}

const cordoned = (taints: readonly NodeTaint[]): NodeTaint[] => [
  ...taints.filter((t) => t.key !== UNSCHEDULABLE_TAINT),
  { key: UNSCHEDULABLE_TAINT, effect: "NoSchedule" },
];

function cordonAndDrain(node: SimNode): SimNode {
  return { ...node, state: "Draining", taints: cordoned(node.taints), ticks: 0 };
}

/**
 * Old nodes first (unavailable ones cost no availability), then surplus new nodes when the pool
 * shrank; cordoned for draining as far as availability allows.
 */
function scaleDown(nodes: SimNode[], pool: RollPool, unavailable: number, replacing: boolean): SimNode[] {
  const serving = nodes.filter((n) => n.state !== "Draining");
  const old = replacing ? serving.filter((n) => !onTarget(n, pool)) : [];
  const fresh = serving.filter((n) => !old.includes(n));
  const surplus = Math.max(0, fresh.length - pool.desired);
  // Surplus new nodes: the youngest first (a ReplicaSet scales down not-ready pods first).
  const candidates = [
    ...old.filter((n) => !available(n)),
    ...old.filter(available),
    ...[...fresh].reverse().slice(0, surplus),
  ];
  // Old nodes go only while the new ones can carry the pool: new ones still joining do not count.
  let budget = nodes.filter(available).length - Math.max(0, pool.desired - unavailable);
  const drain = new Set<string>();
  for (const node of candidates) {
    if (available(node)) {
      if (budget <= 0) continue;
      budget--;
    }
    drain.add(node.name);
  }
  return nodes.map((n) => (drain.has(n.name) ? cordonAndDrain(n) : n));
}

/** New nodes on the target, as many as the surge allows and the pool still lacks. */
function scaleUp(
  nodes: SimNode[],
  pool: RollPool,
  surge: number,
  memory: PoolRollMemory,
  ctx: RollContext,
  replacing: boolean,
): { nodes: SimNode[]; nextIndex: number } {
  const fresh = nodes.filter((n) => n.state !== "Draining" && (!replacing || onTarget(n, pool)));
  const room = pool.desired + (replacing ? surge : 0) - nodes.length;
  const count = Math.max(0, Math.min(room, pool.desired - fresh.length));
  const created: SimNode[] = [];
  let index = memory.nextIndex;
  for (let i = 0; i < count; i++, index++) {
    const base = readyNode(ctx, pool, pool, index, ctx.at);
    created.push({
      ...base,
      state: "Joining",
      ready: false,
      taints: [criticalComponentsNotReadyTaint],
      waitingFor: [],
    });
  }
  return { nodes: [...nodes, ...created], nextIndex: index };
}

/** In-place: old ready nodes are cordoned and updated where they are, within maxUnavailable. */
function updateInPlace(nodes: SimNode[], pool: RollPool, unavailable: number): SimNode[] {
  const manual = pool.updateStrategy === "ManualInPlaceUpdate";
  let budget = nodes.filter(available).length - Math.max(0, pool.desired - unavailable);
  return nodes.map((n) => {
    if (onTarget(n, pool) || n.state === "Draining" || n.state === "UpdatingInPlace") return n;
    if (manual && !n.selectedForUpdate) return { ...n, candidateForUpdate: true };
    // A person selected the node: it is updated now, whatever the pool's availability.
    if (!manual) {
      if (available(n) && budget <= 0) return n;
      if (available(n)) budget--;
    }
    return { ...n, state: "UpdatingInPlace", ready: false, taints: cordoned(n.taints), ticks: 0 };
  });
}

/**
 * Whether the node differs from the target only in the Kubernetes patch version: Gardener rolls no
 * node for that (shoot_updates.md "Rolling Update Triggers"), the kubelet is restarted with the new
 * binary.
 */
function onlyPatchBehind(node: NodeVersions, target: NodeVersions): boolean {
  if (node.image.name !== target.image.name || node.image.version !== target.image.version) return false;
  if (node.kubernetesVersion === target.kubernetesVersion) return false;
  try {
    const a = parseVersion(node.kubernetesVersion);
    const b = parseVersion(target.kubernetesVersion);
    return a.major === b.major && a.minor === b.minor;
  } catch {
    return false;
  }
}

/** One tick of one pool. */
export function tickPool(
  nodes: readonly SimNode[],
  pool: RollPool,
  memory: PoolRollMemory,
  ctx: RollContext,
): { nodes: SimNode[]; memory: PoolRollMemory } {
  const { surge, unavailable } = resolveFenceposts(pool.maxSurge, pool.maxUnavailable, pool.desired);
  const inPlace = pool.updateStrategy !== "AutoRollingUpdate";
  let next = advanceNodes(nodes, pool).map((n) =>
    onlyPatchBehind(n, pool) && n.state !== "Draining" ? { ...n, kubernetesVersion: pool.kubernetesVersion } : n,
  );
  if (inPlace) next = updateInPlace(next, pool, unavailable);
  next = scaleDown(next, pool, unavailable, !inPlace);
  const up = scaleUp(next, pool, surge, memory, ctx, !inPlace);
  const status = poolStatus(up.nodes, pool);
  const heldSince = status.state === "Held" ? (memory.heldSince ?? ctx.at) : undefined;
  return {
    nodes: up.nodes,
    memory: {
      pool: pool.name,
      nextIndex: up.nextIndex,
      target: { kubernetesVersion: pool.kubernetesVersion, image: pool.image },
      ...(heldSince ? { heldSince } : {}),
    },
  };
}

/**
 * One tick of a shoot's roll: every pool in `pools` ticks; nodes of pools no longer in the spec are
 * drained and go.
 */
export function tickRoll(roll: NodeRoll, pools: readonly RollPool[], ctx: RollContext): NodeRoll {
  const names = new Set(pools.map((p) => p.name));
  const nodes: SimNode[] = [];
  const memories: PoolRollMemory[] = [];
  for (const pool of pools) {
    const memory = roll.pools.find((m) => m.pool === pool.name) ?? { pool: pool.name, nextIndex: pool.desired };
    const ticked = tickPool(
      roll.nodes.filter((n) => n.pool === pool.name),
      pool,
      memory,
      ctx,
    );
    nodes.push(...ticked.nodes);
    memories.push(ticked.memory);
  }
  for (const node of roll.nodes.filter((n) => !names.has(n.pool))) {
    if (node.state !== "Draining") nodes.push(cordonAndDrain(node));
    else if (node.ticks + 1 < DRAIN_TICKS) nodes.push({ ...node, ticks: node.ticks + 1 });
  }
  return { nodes, pools: memories };
}

// --- how a pool stands -------------------------------------------------------------------------

export function poolStatus(nodes: readonly SimNode[], pool: RollPool, memory?: PoolRollMemory): PoolStatus {
  const updated = nodes.filter((n) => onTarget(n, pool) && available(n)).length;
  const held = nodes.find((n) => n.state === "Joining" && n.ticks >= HELD_AFTER_TICKS && n.waitingFor.length > 0);
  const base = { pool: pool.name, updated, desired: pool.desired };
  if (held)
    return {
      ...base,
      state: "Held",
      heldBy: { node: held.name, waits: held.waitingFor },
      ...(memory?.heldSince ? { heldSince: memory.heldSince } : {}),
    };
  const awaiting =
    pool.updateStrategy === "ManualInPlaceUpdate"
      ? nodes.filter((n) => !onTarget(n, pool) && !n.selectedForUpdate && n.state !== "UpdatingInPlace").length
      : 0;
  const stable = nodes.length === pool.desired && updated === pool.desired;
  return { ...base, state: stable ? "Stable" : "Rolling", ...(awaiting > 0 ? { awaitingSelection: awaiting } : {}) };
}

/**
 * Whether the reconcile can go on past the pool: Stable, or a ManualInPlaceUpdate pool whose
 * remaining old nodes only wait for a person to select them (Gardener's reconcile succeeds with
 * manual in-place updates pending).
 */
export function poolSettled(status: PoolStatus, nodes: readonly SimNode[], pool: RollPool): boolean {
  if (status.state === "Stable") return true;
  if (status.state === "Held" || pool.updateStrategy !== "ManualInPlaceUpdate") return false;
  const busy = nodes.some((n) => n.state !== "Ready");
  return !busy && (status.awaitingSelection ?? 0) + status.updated === pool.desired && nodes.length === pool.desired;
}

export function rollSettled(roll: NodeRoll, pools: readonly RollPool[]): boolean {
  const names = new Set(pools.map((p) => p.name));
  if (roll.nodes.some((n) => !names.has(n.pool))) return false;
  return pools.every((pool) => {
    const nodes = roll.nodes.filter((n) => n.pool === pool.name);
    return poolSettled(poolStatus(nodes, pool), nodes, pool);
  });
}

// --- EveryNodeReady ----------------------------------------------------------------------------

export interface NodeCheck {
  readonly status: "True" | "False";
  readonly reason: string;
  readonly message: string;
}

/**
 * The care controller's EveryNodeReady from the nodes (health.CheckClusterNodes): every node of a
 * pool healthy (its Ready condition), and each pool at least its minimum of registered nodes.
 */
export function everyNodeReady(
  nodes: readonly SimNode[],
  pools: readonly Pick<RollPool, "name" | "desired">[],
): NodeCheck {
  for (const pool of pools) {
    const own = nodes.filter((n) => n.pool === pool.name);
    const unhealthy = own.find((n) => !n.ready && n.state !== "UpdatingInPlace" && n.state !== "Draining");
    if (unhealthy)
      return {
        status: "False",
        reason: "NodeUnhealthy",
        message: `Node "${unhealthy.name}" in worker group "${pool.name}" is unhealthy: node is not ready.`,
      };
    if (own.length < pool.desired)
      return {
        status: "False",
        reason: "MissingNodes",
        message: `Not enough worker nodes registered in worker pool "${pool.name}" to meet minimum desired machine count. (${own.length}/${pool.desired}).`,
      };
  }
  return { status: "True", reason: "EveryNodeReady", message: "All nodes are ready." };
}

/** EveryNodeReady while the reconcile rolls nodes: the pools rolling, and what holds a held one. */
export function rollingMessage(statuses: readonly PoolStatus[]): string {
  const parts = statuses
    .filter((s) => s.state !== "Stable")
    .map((s) => {
      if (s.state === "Held" && s.heldBy) {
        const waits = s.heldBy.waits.map(describeWait).join(", ");
        return `Worker pool "${s.pool}" is held: node "${s.heldBy.node}" waits for node-critical components (${waits}).`;
      }
      return `Worker pool "${s.pool}" is being rolled (${s.updated}/${s.desired} nodes updated).`;
    });
  return parts.length > 0 ? parts.join(" ") : "Worker nodes are being rolled.";
}

export function describeWait(wait: NodeWait): string {
  const name = wait.namespace ? `${wait.namespace}/${wait.name}` : wait.name;
  return `${wait.kind} ${name}: ${wait.reason}`;
}

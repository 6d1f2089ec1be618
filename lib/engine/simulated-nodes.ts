// The simulated garden's worker nodes of a shoot. A shoot's nodes are not stored while nothing
// rolls them: they follow from its spec (pools, minimums, zones) and what it runs (the record of
// running versions), named from crc32 of uid/pool/index, so a 100,000-shoot landscape costs nothing
// to seed. Once a reconcile rolls a pool, the roll (node-roll.ts) is kept in the shoot's inventory
// and read from there. What the node-critical components do on new nodes is this file's world:
// Gardener's and the extensions' usual ones (kube-proxy per pool, the CNI's node agent, the
// provider's csi-driver-node with its driver), ready within a few ticks, unless the inventory says
// one of them never becomes ready on this shoot.
import type { Shoot, Worker } from "../gardener/types.ts";
import { crc32 } from "./crc32.ts";
import {
  type NodeRoll,
  type NodeVersions,
  onTarget,
  type PoolRollMemory,
  type RollPool,
  type SimulatedComponent,
  steadyNodes,
  UPDATE_STRATEGIES,
  type UpdateStrategy,
} from "./node-roll.ts";
import { type RunningVersions, specVersions } from "./running-versions.ts";
import { hibernationIsEnabled } from "./shoot-strategy.ts";

/** A node-critical component that never becomes ready on this shoot's new nodes (the demo's few). */
export interface CriticalComponentFault {
  /** "csi-driver-node" (its driver never registers in CSINode) or "cni" (its node agent crash-loops). */
  readonly component: "csi-driver-node" | "cni";
}

// The CSI drivers the provider extensions' csi-driver-node pods wait for.
const CSI_DRIVERS: Readonly<Record<string, string>> = {
  aws: "ebs.csi.aws.com",
  gcp: "pd.csi.storage.gke.io",
  azure: "disk.csi.azure.com",
  openstack: "cinder.csi.openstack.org",
  alicloud: "diskplugin.csi.alibabacloud.com",
};

// The networking extensions' node agents, which put the CNI in place.
const CNI_DAEMONSETS: Readonly<Record<string, string>> = { calico: "calico-node", cilium: "cilium" };

/** The nodes' name prefix: the shoot's technical id. */
export function nodePrefix(shoot: Shoot): string {
  const technicalID = shoot.status?.technicalID;
  if (typeof technicalID === "string" && technicalID) return technicalID;
  const project = (shoot.metadata.namespace ?? "").replace(/^garden-/, "");
  return `shoot--${project}--${shoot.metadata.name}`;
}

function updateStrategyOf(worker: Worker): UpdateStrategy {
  return (UPDATE_STRATEGIES as readonly string[]).includes(worker.updateStrategy ?? "")
    ? (worker.updateStrategy as UpdateStrategy)
    : "AutoRollingUpdate";
}

/** Gardener's defaults: 1/0 for rolling pools, 0/1 for in-place ones (ManualInPlaceUpdate has none). */
function surgeAndUnavailable(worker: Worker, strategy: UpdateStrategy) {
  const given = (v: unknown) => (typeof v === "number" || typeof v === "string" ? v : undefined);
  const inPlace = strategy !== "AutoRollingUpdate";
  return {
    maxSurge: given(worker.maxSurge) ?? (inPlace ? 0 : 1),
    maxUnavailable: given(worker.maxUnavailable) ?? (inPlace ? 1 : 0),
  };
}

/** The node-critical components a new node of `worker` waits for, as the simulation runs them. */
export function simulatedComponentsFor(
  shoot: Shoot,
  worker: Worker,
  kubernetesVersion: string,
  fault?: CriticalComponentFault,
): SimulatedComponent[] {
  // A few ticks each, varying by shoot so that not every roll looks the same.
  const spread = (name: string) => 1 + (crc32(`${shoot.metadata.uid ?? shoot.metadata.name}/${name}`) % 3);
  const components: SimulatedComponent[] = [
    { daemonSet: `kube-proxy-${worker.name}-v${kubernetesVersion}`, readyAfterTicks: 1 },
    { daemonSet: "apiserver-proxy", readyAfterTicks: 1 },
  ];
  const cni = CNI_DAEMONSETS[shoot.spec.networking?.type ?? "calico"] ?? "calico-node";
  components.push({
    daemonSet: cni,
    readyAfterTicks: spread(cni),
    ...(fault?.component === "cni" ? { fault: "CrashLoopBackOff" as const } : {}),
  });
  const driver = CSI_DRIVERS[shoot.spec.provider?.type ?? ""];
  if (driver)
    components.push({
      daemonSet: "csi-driver-node",
      csiDriver: driver,
      readyAfterTicks: spread("csi-driver-node"),
      ...(fault?.component === "csi-driver-node" ? { fault: "DriverNotRegistered" as const } : {}),
    });
  return components;
}

function versionsOfWorker(worker: Worker, controlPlane: string): NodeVersions {
  return {
    kubernetesVersion: worker.kubernetes?.version ?? controlPlane,
    image: { name: worker.machine.image?.name ?? "", version: worker.machine.image?.version ?? "" },
  };
}

/**
 * The pools as the shoot's spec asks for them: what their nodes are to run, and how many. `fault`
 * strikes on the nodes of a pool whose target is a new version (the component does not work with
 * it): a pool's new version differing from `running`, what the pool runs by the record. Nodes
 * created again on versions the pool already ran (waking up, a resize) are not affected.
 * `pinned`: the roll's memory of the targets its first tick took from the spec; a pool found
 * there keeps that target whatever the spec asks now (a change held for the window, say).
 */
export function rollPoolsOf(
  shoot: Shoot,
  fault?: CriticalComponentFault,
  running?: RunningVersions,
  pinned?: readonly Pick<PoolRollMemory, "pool" | "target">[],
): RollPool[] {
  const hibernated = hibernationIsEnabled(shoot);
  return (shoot.spec.provider?.workers ?? []).map((worker) => {
    const strategy = updateStrategyOf(worker);
    const target =
      pinned?.find((m) => m.pool === worker.name)?.target ?? versionsOfWorker(worker, shoot.spec.kubernetes.version);
    const zones = Array.isArray(worker.zones) ? (worker.zones as unknown[]).filter((z) => typeof z === "string") : [];
    return {
      name: worker.name,
      updateStrategy: strategy,
      // No cluster-autoscaler here: a pool keeps its minimum; a hibernated shoot has no nodes.
      desired: hibernated ? 0 : Math.max(0, worker.minimum ?? 0),
      ...surgeAndUnavailable(worker, strategy),
      zones,
      components: simulatedComponentsFor(
        shoot,
        worker,
        target.kubernetesVersion,
        fault && running && upgraded(worker, target, running) ? fault : undefined,
      ),
      ...target,
    };
  });
}

/**
 * Each pool's versions in a record (the spec a reconcile started with), as targets for
 * `rollPoolsOf`'s `pinned`: the roll's first tick brings the pools there, not to a spec changed
 * since the reconcile began.
 */
export function targetsOf(record: Omit<RunningVersions, "since">): Pick<PoolRollMemory, "pool" | "target">[] {
  return record.workers.map((w) => ({
    pool: w.name,
    target: {
      kubernetesVersion: w.kubernetesVersion ?? record.kubernetesVersion,
      image: { name: w.image?.name ?? "", version: w.image?.version ?? "" },
    },
  }));
}

/** Whether the pool's target is not what it runs by the record (a pool it never ran is not). */
function upgraded(worker: Worker, target: NodeVersions, running: RunningVersions): boolean {
  const recorded = running.workers.find((w) => w.name === worker.name);
  if (!recorded) return false;
  const ran = {
    kubernetesVersion: recorded.kubernetesVersion ?? running.kubernetesVersion,
    image: {
      name: recorded.image?.name ?? target.image.name,
      version: recorded.image?.version ?? target.image.version,
    },
  };
  return !onTarget(ran, target);
}

/** What a pool runs by the record (running-versions.ts), falling back to its spec. */
function runningVersionsOf(pool: RollPool, worker: Worker, running: RunningVersions): NodeVersions {
  const recorded = running.workers.find((w) => w.name === pool.name);
  const spec = versionsOfWorker(worker, running.kubernetesVersion);
  return {
    kubernetesVersion: recorded?.kubernetesVersion ?? running.kubernetesVersion,
    image: {
      name: recorded?.image?.name ?? spec.image.name,
      version: recorded?.image?.version ?? spec.image.version,
    },
  };
}

/**
 * The shoot's nodes now: the stored roll when a roll touched them, else the steady state of what it
 * runs (none while it is hibernated or its creation has not deployed workers yet; a pool added to
 * the spec and not yet rolled out has none either).
 */
export function currentNodeRoll(
  shoot: Shoot,
  running: RunningVersions | undefined,
  stored: NodeRoll | undefined,
): NodeRoll {
  if (stored) return stored;
  // Without a record of what runs (a garden that never reported a dated success), a cluster that
  // exists is taken to run its spec; one whose creation has not succeeded has no nodes yet.
  const op = shoot.status?.lastOperation;
  const exists = op !== undefined && !(op.type === "Create" && op.state !== "Succeeded");
  running ??= exists ? specVersions(shoot, shoot.metadata.creationTimestamp ?? "") : undefined;
  if (!running || shoot.status?.hibernated === true) return { nodes: [], pools: [] };
  const ctx = { uid: shoot.metadata.uid ?? shoot.metadata.name, prefix: nodePrefix(shoot) };
  const workers = shoot.spec.provider?.workers ?? [];
  // The record keeps no pool sizes: the current minimum counts, so a resize (even one held for
  // the window) shows here at once rather than rolling.
  const pools = rollPoolsOf({ ...shoot, spec: { ...shoot.spec, hibernation: undefined } });
  return {
    nodes: pools.flatMap((pool) => {
      const worker = workers.find((w) => w.name === pool.name)!;
      if (!running.workers.some((w) => w.name === pool.name)) return [];
      return steadyNodes(ctx, pool, runningVersionsOf(pool, worker, running), running.since || undefined);
    }),
    pools: [],
  };
}

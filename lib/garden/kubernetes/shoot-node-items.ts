// What a shoot's API server shows of its worker nodes, as the nodes answer (lib/api/nodes.ts): each
// Node with its pool (worker.gardener.cloud/pool), kubelet version, image, Ready condition, taints
// and, while node.gardener.cloud/critical-components-not-ready is on it, what it waits for (the
// readiness rule, from the node-critical pods and DaemonSets of kube-system and the CSINodes); and
// each pool's roll counted from its nodes. Pure: the lists in, the answer's parts out.
import type { V1CSINode, V1DaemonSet, V1Node, V1Pod } from "@kubernetes/client-node";
import type { PoolRoll, ShootNode } from "../../api/nodes.ts";
import {
  CRITICAL_COMPONENTS_NOT_READY_TAINT,
  type CriticalDaemonSet,
  type CriticalPod,
  nodeReadiness,
  type PodToleration,
} from "../../engine/node-readiness.ts";

export const POOL_LABEL = "worker.gardener.cloud/pool";
// machine-controller-manager marks a ManualInPlaceUpdate pool's old nodes as candidates; a person
// selects them for update (Gardener's shoot_updates.md).
const CANDIDATE_LABEL = "node.machine.sapcloud.io/candidate-for-update";
const SELECTED_LABEL = "node.machine.sapcloud.io/selected-for-update";
const ZONE_LABEL = "topology.kubernetes.io/zone";

/** What was read from inside the shoot. */
export interface ShootInside {
  readonly nodes: readonly V1Node[];
  /** Node-critical pods of kube-system. */
  readonly pods: readonly V1Pod[];
  /** Node-critical DaemonSets of kube-system. */
  readonly daemonSets: readonly V1DaemonSet[];
  readonly csiNodes: readonly V1CSINode[];
}

const labelsOf = (o: { metadata?: { labels?: Record<string, string> } } | undefined) => o?.metadata?.labels ?? {};

function criticalPod(pod: V1Pod): CriticalPod {
  const owner = pod.metadata?.ownerReferences?.find((r) => r.controller && r.kind === "DaemonSet");
  const ready = pod.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;
  // Kubernetes' own words for why: a container's waiting reason (CrashLoopBackOff, ImagePullBackOff),
  // else the pod's phase.
  const waiting = pod.status?.containerStatuses?.find((c) => c.state?.waiting?.reason)?.state?.waiting?.reason;
  const reason = waiting ?? (pod.status?.phase && pod.status.phase !== "Running" ? pod.status.phase : undefined);
  return {
    namespace: pod.metadata?.namespace ?? "",
    name: pod.metadata?.name ?? "",
    nodeName: pod.spec?.nodeName ?? "",
    labels: labelsOf(pod),
    annotations: pod.metadata?.annotations ?? {},
    ...(owner ? { daemonSetUid: owner.uid } : {}),
    ready,
    ...(reason ? { notReadyReason: reason } : {}),
  };
}

function criticalDaemonSet(ds: V1DaemonSet): CriticalDaemonSet {
  const template = ds.spec?.template;
  return {
    namespace: ds.metadata?.namespace ?? "",
    name: ds.metadata?.name ?? "",
    uid: ds.metadata?.uid ?? "",
    labels: labelsOf(ds),
    template: {
      labels: template?.metadata?.labels ?? {},
      ...(template?.spec?.nodeName ? { nodeName: template.spec.nodeName } : {}),
      ...(template?.spec?.nodeSelector ? { nodeSelector: template.spec.nodeSelector } : {}),
      tolerations: (template?.spec?.tolerations ?? []) as PodToleration[],
      hostNetwork: template?.spec?.hostNetwork === true,
    },
  };
}

/** "Garden Linux 1592.1" → "1592.1": the node reports its OS, not the pool's image name. */
function imageVersionOf(osImage: string | undefined): string {
  return /(\d+(?:\.\d+)+|\d+)\s*$/.exec(osImage ?? "")?.[1] ?? "";
}

/** Versions that differ only by trailing zero parts ("1592.4" is "1592.4.0") are the same. */
function sameVersion(a: string, b: string): boolean {
  const parts = (v: string) => v.split(".").map((p) => p.replace(/^0+(?=\d)/, ""));
  const [x, y] = [parts(a), parts(b)];
  while (x.length < y.length) x.push("0");
  while (y.length < x.length) y.push("0");
  return x.join(".") === y.join(".");
}

/** On the pool's target: its Kubernetes version and, where the node tells it, its image version. */
function onTargetOf(node: Pick<ShootNode, "kubernetesVersion" | "image">, pool: PoolRoll): boolean {
  return (
    sameVersion(node.kubernetesVersion, pool.target.kubernetesVersion) &&
    (node.image.version === "" || sameVersion(node.image.version, pool.target.image.version))
  );
}

/** The kubelet's version without Kubernetes' "v". */
const versionOf = (kubelet: string | undefined) => (kubelet ?? "").replace(/^v/, "");

export function shootNodeItems(inside: ShootInside, pools: readonly PoolRoll[]): ShootNode[] {
  const daemonSets = inside.daemonSets.map(criticalDaemonSet);
  const pods = inside.pods.map(criticalPod);
  const drivers = new Map(
    inside.csiNodes.map((c) => [c.metadata?.name ?? "", (c.spec?.drivers ?? []).map((d) => d.name)]),
  );
  const byPool = new Map(pools.map((p) => [p.pool, p]));
  return inside.nodes
    .map((node): ShootNode => {
      const name = node.metadata?.name ?? "";
      const labels = labelsOf(node);
      const pool = labels[POOL_LABEL] ?? "";
      const target = byPool.get(pool);
      const taints = (node.spec?.taints ?? []).map((t) => ({
        key: t.key,
        ...(t.value ? { value: t.value } : {}),
        effect: t.effect,
      }));
      const ready = node.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;
      const readiness = nodeReadiness({ name, labels, taints, csiDrivers: drivers.get(name) ?? [] }, daemonSets, pods);
      const kubernetesVersion = versionOf(node.status?.nodeInfo?.kubeletVersion);
      const image = { name: target?.target.image.name ?? "", version: imageVersionOf(node.status?.nodeInfo?.osImage) };
      const onTarget = target !== undefined && onTargetOf({ kubernetesVersion, image }, target);
      const draining =
        node.spec?.unschedulable === true ||
        node.metadata?.deletionTimestamp !== undefined ||
        taints.some((t) => t.key === "node.kubernetes.io/unschedulable");
      const inPlace = target !== undefined && target.updateStrategy !== "AutoRollingUpdate";
      const updating = inPlace && !onTarget && (draining || labels[SELECTED_LABEL] === "true");
      const state: ShootNode["state"] = updating
        ? "UpdatingInPlace"
        : draining
          ? "Draining"
          : !ready
            ? "NotReady"
            : readiness.tainted
              ? "Joining"
              : "Ready";
      const zone = labels[ZONE_LABEL];
      const createdAt = node.metadata?.creationTimestamp;
      return {
        name,
        pool,
        ...(zone ? { zone } : {}),
        kubernetesVersion,
        image,
        ready,
        taints,
        state,
        ...(createdAt ? { createdAt: new Date(createdAt).toISOString() } : {}),
        waitingFor: readiness.waitingFor,
      };
    })
    .sort((a, b) => a.pool.localeCompare(b.pool) || a.name.localeCompare(b.name));
}

/**
 * Each pool's roll with its nodes in view: the nodes on the target that serve (Ready, without the
 * critical-components taint) are `updated`; a pool the garden calls Stable whose nodes are not all
 * there yet is Rolling; a Held pool names the node that waits, and for what.
 */
export function poolsWithNodes(
  pools: readonly PoolRoll[],
  nodes: readonly ShootNode[],
  inside: Pick<ShootInside, "nodes">,
): PoolRoll[] {
  // ManualInPlaceUpdate: the candidates nobody selected yet, by pool.
  const awaiting = new Map<string, number>();
  for (const node of inside.nodes) {
    const labels = labelsOf(node);
    const pool = labels[POOL_LABEL] ?? "";
    if (labels[CANDIDATE_LABEL] !== undefined && labels[SELECTED_LABEL] !== "true")
      awaiting.set(pool, (awaiting.get(pool) ?? 0) + 1);
  }
  return pools.map((pool) => {
    const own = nodes.filter((n) => n.pool === pool.pool);
    const onTarget = (n: ShootNode) => onTargetOf(n, pool);
    const serving = (n: ShootNode) => n.ready && !n.taints.some((t) => t.key === CRITICAL_COMPONENTS_NOT_READY_TAINT);
    const updated = own.filter((n) => onTarget(n) && serving(n) && n.state !== "Draining").length;
    const unfinished = own.some((n) => !onTarget(n) || !serving(n) || n.state === "Draining");
    const state = pool.state === "Stable" && (unfinished || updated < pool.desired) ? "Rolling" : pool.state;
    const waiting = own.find((n) => n.waitingFor.length > 0);
    const unselected = pool.updateStrategy === "ManualInPlaceUpdate" ? (awaiting.get(pool.pool) ?? 0) : 0;
    return {
      ...pool,
      state,
      updated,
      ...(unselected > 0 ? { awaitingSelection: unselected } : {}),
      // An autoscaled pool may have more nodes than its minimum.
      desired: Math.max(pool.desired, updated),
      ...(state === "Held" && waiting ? { heldBy: { node: waiting.name, waits: waiting.waitingFor } } : {}),
    };
  });
}

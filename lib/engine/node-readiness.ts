// Readiness of a shoot's worker node, as gardener-resource-manager's Node controller for critical
// components decides it: a new node registers with the taint
// node.gardener.cloud/critical-components-not-ready (NoSchedule) so that no workload is scheduled
// before the node-critical components (CNI, kube-proxy, CSI node plugins, ...) run on it. The
// controller removes the taint once
//   1. every node-critical DaemonSet that should run on the node has a daemon pod there,
//   2. every node-critical pod on the node is Ready, and
//   3. every CSI driver named by a node-critical pod's wait-for-csi-node-<name> annotation is
//      registered in the node's CSINode (a missing CSINode registers none).
// Until then it waits; what it waits for is listed here so a person can see why a node is not yet
// schedulable (the controller itself only logs and records events).

export const CRITICAL_COMPONENTS_NOT_READY_TAINT = "node.gardener.cloud/critical-components-not-ready";
export const CRITICAL_COMPONENT_LABEL = "node.gardener.cloud/critical-component";
export const WAIT_FOR_CSI_NODE_PREFIX = "node.gardener.cloud/wait-for-csi-node-";
/** The controller lists node-critical DaemonSets and pods in this namespace only. */
export const CRITICAL_COMPONENTS_NAMESPACE = "kube-system";

export type TaintEffect = "NoSchedule" | "PreferNoSchedule" | "NoExecute";

export interface NodeTaint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
}

export interface PodToleration {
  /** Empty with operator Exists: tolerates every taint. */
  readonly key?: string;
  /** Equal when absent, as Kubernetes defaults it. */
  readonly operator?: "Exists" | "Equal";
  readonly value?: string;
  /** Empty: every effect. */
  readonly effect?: string;
}

/** A node-critical component (or CSI driver) that has not become ready on a node yet. */
export interface NodeWait {
  /**
   * DaemonSet / Pod: labelled node.gardener.cloud/critical-component=true; CSIDriver: named by a pod's
   * node.gardener.cloud/wait-for-csi-node-<name> annotation.
   */
  readonly kind: "DaemonSet" | "Pod" | "CSIDriver";
  readonly namespace?: string;
  readonly name: string;
  /** Why it is not ready, in Kubernetes' words (e.g. "CrashLoopBackOff", "driver not registered in CSINode"). */
  readonly reason: string;
}

export interface ReadinessNode {
  readonly name: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly taints: readonly NodeTaint[];
  /** The driver names in the node's CSINode (spec.drivers[].name); empty when it has no CSINode yet. */
  readonly csiDrivers: readonly string[];
}

export interface CriticalDaemonSet {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly labels: Readonly<Record<string, string>>;
  /** The pod template's metadata and the parts of its spec that decide where daemon pods run. */
  readonly template: {
    readonly labels: Readonly<Record<string, string>>;
    readonly nodeName?: string;
    readonly nodeSelector?: Readonly<Record<string, string>>;
    readonly tolerations?: readonly PodToleration[];
    readonly hostNetwork?: boolean;
  };
}

export interface CriticalPod {
  readonly namespace: string;
  readonly name: string;
  readonly nodeName: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  /** The uid of the DaemonSet that controls the pod (its controller ownerReference), if one does. */
  readonly daemonSetUid?: string;
  /** The pod's Ready condition. */
  readonly ready: boolean;
  /** Why it is not ready, e.g. a container's waiting reason (CrashLoopBackOff). */
  readonly notReadyReason?: string;
}

export interface NodeReadiness {
  /** Whether the node still carries the critical-components-not-ready taint. */
  readonly tainted: boolean;
  /** The controller removes the taint now: it is there and nothing is waited for. */
  readonly removeTaint: boolean;
  /** What keeps the taint on the node (empty when the node has no taint to remove). */
  readonly waitingFor: readonly NodeWait[];
}

export function hasCriticalComponentsNotReadyTaint(taints: readonly NodeTaint[]): boolean {
  return taints.some((t) => t.key === CRITICAL_COMPONENTS_NOT_READY_TAINT);
}

/** The node's taints once the controller removed its own (every other taint stays). */
export function withoutCriticalComponentsTaint(taints: readonly NodeTaint[]): NodeTaint[] {
  return taints.filter((t) => t.key !== CRITICAL_COMPONENTS_NOT_READY_TAINT);
}

/** The taint a new node registers with (the kubelet's --register-with-taints, set by Gardener). */
export const criticalComponentsNotReadyTaint: NodeTaint = {
  key: CRITICAL_COMPONENTS_NOT_READY_TAINT,
  effect: "NoSchedule",
};

const isCritical = (labels: Readonly<Record<string, string>> | undefined) =>
  labels?.[CRITICAL_COMPONENT_LABEL] === "true";

/**
 * The Node controller's verdict for one node, from the node, the DaemonSets labelled node-critical
 * and the pods on the node (other namespaces, unlabelled objects and other nodes' pods are ignored,
 * as the controller's list calls ignore them).
 */
export function nodeReadiness(
  node: ReadinessNode,
  daemonSets: readonly CriticalDaemonSet[],
  pods: readonly CriticalPod[],
): NodeReadiness {
  if (!hasCriticalComponentsNotReadyTaint(node.taints)) return { tainted: false, removeTaint: false, waitingFor: [] };

  const criticalPods = pods.filter(
    (p) => p.namespace === CRITICAL_COMPONENTS_NAMESPACE && p.nodeName === node.name && isCritical(p.labels),
  );
  const waitingFor = [
    ...unscheduledDaemonSets(node, daemonSets, criticalPods),
    ...unreadyPods(criticalPods),
    ...unregisteredDrivers(node, criticalPods),
  ];
  return { tainted: true, removeTaint: waitingFor.length === 0, waitingFor };
}

/** Critical DaemonSets that should run a pod on the node and have none there yet. */
function unscheduledDaemonSets(
  node: ReadinessNode,
  daemonSets: readonly CriticalDaemonSet[],
  criticalPods: readonly CriticalPod[],
): NodeWait[] {
  const scheduled = new Set(criticalPods.flatMap((p) => (p.daemonSetUid ? [p.daemonSetUid] : [])));
  return (
    daemonSets
      .filter((ds) => ds.namespace === CRITICAL_COMPONENTS_NAMESPACE && isCritical(ds.labels))
      // The label must be on the pod template too: only then are its pods listed as critical.
      .filter((ds) => isCritical(ds.template.labels))
      .filter((ds) => daemonPodShouldRun(node, ds))
      .filter((ds) => !scheduled.has(ds.uid))
      .map((ds) => ({
        kind: "DaemonSet" as const,
        namespace: ds.namespace,
        name: ds.name,
        reason: "no daemon pod scheduled on the node yet",
      }))
  );
}

function unreadyPods(criticalPods: readonly CriticalPod[]): NodeWait[] {
  return criticalPods
    .filter((p) => !p.ready)
    .map((p) => ({
      kind: "Pod" as const,
      namespace: p.namespace,
      name: p.name,
      reason: p.notReadyReason ?? "Ready condition is not True",
    }));
}

/** Drivers named by the critical pods' wait-for-csi-node annotations and missing from the CSINode. */
function unregisteredDrivers(node: ReadinessNode, criticalPods: readonly CriticalPod[]): NodeWait[] {
  const required = new Set(
    criticalPods.flatMap((p) =>
      Object.entries(p.annotations ?? {})
        .filter(([key]) => key.startsWith(WAIT_FOR_CSI_NODE_PREFIX))
        .map(([, driver]) => driver),
    ),
  );
  const registered = new Set(node.csiDrivers);
  return [...required]
    .filter((driver) => !registered.has(driver))
    .sort()
    .map((driver) => ({ kind: "CSIDriver" as const, name: driver, reason: "driver not registered in CSINode" }));
}

/**
 * The DaemonSet controller's NodeShouldRunDaemonPod, as far as it matters here: the template's
 * nodeName, its nodeSelector, and whether its tolerations (plus those every daemon pod gets) tolerate
 * the node's NoSchedule and NoExecute taints, the critical-components taint among them. A DaemonSet
 * that does not tolerate that taint never runs on a new node and so is not waited for. Required node
 * affinity is not modelled (the simulated garden's DaemonSets use none).
 */
export function daemonPodShouldRun(node: ReadinessNode, ds: CriticalDaemonSet): boolean {
  const { nodeName, nodeSelector, hostNetwork } = ds.template;
  if (nodeName && nodeName !== node.name) return false;
  const labels = node.labels ?? {};
  if (Object.entries(nodeSelector ?? {}).some(([k, v]) => labels[k] !== v)) return false;
  const tolerations = [...(ds.template.tolerations ?? []), ...daemonPodTolerations(hostNetwork === true)];
  return node.taints
    .filter((t) => t.effect === "NoSchedule" || t.effect === "NoExecute")
    .every((t) => tolerations.some((tol) => tolerates(tol, t)));
}

/** The tolerations the DaemonSet controller adds to every daemon pod (AddOrUpdateDaemonPodTolerations). */
function daemonPodTolerations(hostNetwork: boolean): PodToleration[] {
  const exists = (key: string, effect: TaintEffect): PodToleration => ({ key, operator: "Exists", effect });
  return [
    exists("node.kubernetes.io/not-ready", "NoExecute"),
    exists("node.kubernetes.io/unreachable", "NoExecute"),
    exists("node.kubernetes.io/disk-pressure", "NoSchedule"),
    exists("node.kubernetes.io/memory-pressure", "NoSchedule"),
    exists("node.kubernetes.io/pid-pressure", "NoSchedule"),
    exists("node.kubernetes.io/unschedulable", "NoSchedule"),
    ...(hostNetwork ? [exists("node.kubernetes.io/network-unavailable", "NoSchedule")] : []),
  ];
}

/** Kubernetes' Toleration.ToleratesTaint. */
export function tolerates(toleration: PodToleration, taint: NodeTaint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  if (toleration.operator === "Exists") return true;
  // Equal (the default): the values must match.
  return (toleration.value ?? "") === (taint.value ?? "");
}

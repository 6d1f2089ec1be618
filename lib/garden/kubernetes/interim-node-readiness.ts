// INTERIM: until lib/engine/node-readiness.ts (the roll's pure readiness rule) is on main. Same
// names and signature, so that shoot-node-items.ts swaps to it by changing one import line and this
// file goes. gardener-resource-manager's Node controller keeps node.gardener.cloud/critical-
// components-not-ready on a node until every node-critical DaemonSet (kube-system, labelled
// node.gardener.cloud/critical-component=true, template too) that should run there has a pod
// there, every node-critical pod on it is Ready, and every CSI driver a pod's
// node.gardener.cloud/wait-for-csi-node-<name> annotation names is registered in its CSINode.
import type { NodeWait } from "../../api/nodes.ts";

export const CRITICAL_COMPONENTS_NOT_READY_TAINT = "node.gardener.cloud/critical-components-not-ready";
export const CRITICAL_COMPONENT_LABEL = "node.gardener.cloud/critical-component";
export const WAIT_FOR_CSI_NODE_PREFIX = "node.gardener.cloud/wait-for-csi-node-";
export const CRITICAL_COMPONENTS_NAMESPACE = "kube-system";

export interface NodeTaint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
}

export interface PodToleration {
  readonly key?: string;
  readonly operator?: "Exists" | "Equal";
  readonly value?: string;
  readonly effect?: string;
}

export interface ReadinessNode {
  readonly name: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly taints: readonly NodeTaint[];
  readonly csiDrivers: readonly string[];
}

export interface CriticalDaemonSet {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly labels: Readonly<Record<string, string>>;
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
  readonly daemonSetUid?: string;
  readonly ready: boolean;
  readonly notReadyReason?: string;
}

export interface NodeReadiness {
  readonly tainted: boolean;
  readonly removeTaint: boolean;
  readonly waitingFor: readonly NodeWait[];
}

const critical = (labels: Readonly<Record<string, string>> | undefined) =>
  labels?.[CRITICAL_COMPONENT_LABEL] === "true";

function tolerates(toleration: PodToleration, taint: NodeTaint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  if (toleration.operator === "Exists") return true;
  return (toleration.value ?? "") === (taint.value ?? "");
}

// Every daemon pod tolerates these (the DaemonSet controller adds them).
const DAEMON_TOLERATIONS: PodToleration[] = [
  "node.kubernetes.io/not-ready",
  "node.kubernetes.io/unreachable",
  "node.kubernetes.io/disk-pressure",
  "node.kubernetes.io/memory-pressure",
  "node.kubernetes.io/pid-pressure",
  "node.kubernetes.io/unschedulable",
].map((key) => ({ key, operator: "Exists" }));

function shouldRun(node: ReadinessNode, ds: CriticalDaemonSet): boolean {
  const { nodeName, nodeSelector, tolerations = [] } = ds.template;
  if (nodeName && nodeName !== node.name) return false;
  if (Object.entries(nodeSelector ?? {}).some(([k, v]) => node.labels?.[k] !== v)) return false;
  const all = [...tolerations, ...DAEMON_TOLERATIONS];
  return node.taints
    .filter((t) => t.effect === "NoSchedule" || t.effect === "NoExecute")
    .every((t) => all.some((tol) => tolerates(tol, t)));
}

export function nodeReadiness(
  node: ReadinessNode,
  daemonSets: readonly CriticalDaemonSet[],
  pods: readonly CriticalPod[],
): NodeReadiness {
  if (!node.taints.some((t) => t.key === CRITICAL_COMPONENTS_NOT_READY_TAINT))
    return { tainted: false, removeTaint: false, waitingFor: [] };
  const onNode = pods.filter(
    (p) => p.namespace === CRITICAL_COMPONENTS_NAMESPACE && p.nodeName === node.name && critical(p.labels),
  );
  const scheduled = new Set(onNode.flatMap((p) => (p.daemonSetUid ? [p.daemonSetUid] : [])));
  const unscheduled = daemonSets
    .filter(
      (ds) => ds.namespace === CRITICAL_COMPONENTS_NAMESPACE && critical(ds.labels) && critical(ds.template.labels),
    )
    .filter((ds) => shouldRun(node, ds) && !scheduled.has(ds.uid))
    .map((ds) => ({
      kind: "DaemonSet" as const,
      namespace: ds.namespace,
      name: ds.name,
      reason: "no daemon pod scheduled on the node yet",
    }));
  const unready = onNode
    .filter((p) => !p.ready)
    .map((p) => ({
      kind: "Pod" as const,
      namespace: p.namespace,
      name: p.name,
      reason: p.notReadyReason ?? "Ready condition is not True",
    }));
  const registered = new Set(node.csiDrivers);
  const required = new Set(
    onNode.flatMap((p) =>
      Object.entries(p.annotations ?? {})
        .filter(([key]) => key.startsWith(WAIT_FOR_CSI_NODE_PREFIX))
        .map(([, driver]) => driver),
    ),
  );
  const drivers = [...required]
    .filter((d) => !registered.has(d))
    .sort()
    .map((name) => ({ kind: "CSIDriver" as const, name, reason: "driver not registered in CSINode" }));
  const waitingFor = [...unscheduled, ...unready, ...drivers];
  return { tainted: true, removeTaint: waitingFor.length === 0, waitingFor };
}

// gardener-resource-manager's Node controller for critical components: the taint
// node.gardener.cloud/critical-components-not-ready goes only when every node-critical DaemonSet has
// a ready pod on the node and every CSI driver its pods wait for is registered in the CSINode.
import { describe, expect, it } from "vitest";
import {
  CRITICAL_COMPONENTS_NOT_READY_TAINT,
  type CriticalDaemonSet,
  type CriticalPod,
  daemonPodShouldRun,
  nodeReadiness,
  type ReadinessNode,
  tolerates,
  withoutCriticalComponentsTaint,
} from "./node-readiness.ts";

const CRITICAL = { "node.gardener.cloud/critical-component": "true" };
const TOLERATES_CRITICAL = [
  { key: CRITICAL_COMPONENTS_NOT_READY_TAINT, operator: "Exists" as const, effect: "NoSchedule" },
];

function node(over: Partial<ReadinessNode> = {}): ReadinessNode {
  return {
    name: "shoot--dev--a-worker-z1-5f7c9-abcde",
    labels: { "worker.gardener.cloud/pool": "worker" },
    taints: [{ key: CRITICAL_COMPONENTS_NOT_READY_TAINT, effect: "NoSchedule" }],
    csiDrivers: [],
    ...over,
  };
}

function daemonSet(name: string, over: Partial<CriticalDaemonSet["template"]> = {}): CriticalDaemonSet {
  return {
    namespace: "kube-system",
    name,
    uid: `uid-${name}`,
    labels: CRITICAL,
    template: { labels: CRITICAL, tolerations: TOLERATES_CRITICAL, ...over },
  };
}

function daemonPod(ds: CriticalDaemonSet, ready: boolean, over: Partial<CriticalPod> = {}): CriticalPod {
  return {
    namespace: "kube-system",
    name: `${ds.name}-x1`,
    nodeName: node().name,
    labels: CRITICAL,
    daemonSetUid: ds.uid,
    ready,
    ...over,
  };
}

const calico = daemonSet("calico-node");
const kubeProxy = daemonSet("kube-proxy-worker-v1.33.4");
const csi = daemonSet("csi-driver-node");
const csiAnnotations = { "node.gardener.cloud/wait-for-csi-node-ebs": "ebs.csi.aws.com" };

describe("nodeReadiness", () => {
  it("removes the taint when every critical daemon pod is ready and every awaited CSI driver is registered", () => {
    const verdict = nodeReadiness(
      node({ csiDrivers: ["ebs.csi.aws.com"] }),
      [calico, kubeProxy, csi],
      [daemonPod(calico, true), daemonPod(kubeProxy, true), daemonPod(csi, true, { annotations: csiAnnotations })],
    );
    expect(verdict).toEqual({ tainted: true, removeTaint: true, waitingFor: [] });
  });

  it("waits for a critical DaemonSet that has no pod on the node yet", () => {
    const verdict = nodeReadiness(node(), [calico, kubeProxy], [daemonPod(calico, true)]);
    expect(verdict.removeTaint).toBe(false);
    expect(verdict.waitingFor).toEqual([
      {
        kind: "DaemonSet",
        namespace: "kube-system",
        name: "kube-proxy-worker-v1.33.4",
        reason: "no daemon pod scheduled on the node yet",
      },
    ]);
  });

  it("waits for a critical pod whose Ready condition is not True, with its reason", () => {
    const verdict = nodeReadiness(node(), [calico], [daemonPod(calico, false, { notReadyReason: "CrashLoopBackOff" })]);
    expect(verdict.removeTaint).toBe(false);
    expect(verdict.waitingFor).toEqual([
      { kind: "Pod", namespace: "kube-system", name: "calico-node-x1", reason: "CrashLoopBackOff" },
    ]);
  });

  it("waits for a CSI driver a ready csi-driver-node pod names but the CSINode does not register", () => {
    const pod = daemonPod(csi, true, {
      annotations: { ...csiAnnotations, "node.gardener.cloud/wait-for-csi-node-efs": "efs.csi.aws.com" },
    });
    const verdict = nodeReadiness(node({ csiDrivers: ["efs.csi.aws.com"] }), [csi], [pod]);
    expect(verdict.waitingFor).toEqual([
      { kind: "CSIDriver", name: "ebs.csi.aws.com", reason: "driver not registered in CSINode" },
    ]);
    // No CSINode yet registers no driver.
    expect(nodeReadiness(node(), [csi], [pod]).waitingFor.map((w) => w.name)).toEqual([
      "ebs.csi.aws.com",
      "efs.csi.aws.com",
    ]);
  });

  it("lists every reason at once: unscheduled DaemonSets, unready pods, unregistered drivers", () => {
    const verdict = nodeReadiness(
      node(),
      [calico, kubeProxy, csi],
      [daemonPod(calico, false), daemonPod(csi, true, { annotations: csiAnnotations })],
    );
    expect(verdict.waitingFor.map((w) => `${w.kind}/${w.name}`)).toEqual([
      "DaemonSet/kube-proxy-worker-v1.33.4",
      "Pod/calico-node-x1",
      "CSIDriver/ebs.csi.aws.com",
    ]);
  });

  it("also waits for critical pods no DaemonSet controls", () => {
    const standalone: CriticalPod = {
      ...daemonPod(calico, false),
      name: "node-problem-detector",
      daemonSetUid: undefined,
    };
    expect(nodeReadiness(node(), [], [standalone]).waitingFor.map((w) => w.name)).toEqual(["node-problem-detector"]);
  });

  it("ignores what the controller does not list: other namespaces, unlabelled pods, other nodes' pods", () => {
    const elsewhere = [
      daemonPod(calico, false, { namespace: "default" }),
      daemonPod(calico, false, { labels: {} }),
      daemonPod(calico, false, { nodeName: "another-node" }),
    ];
    expect(nodeReadiness(node(), [], elsewhere)).toEqual({ tainted: true, removeTaint: true, waitingFor: [] });
    const otherNamespace: CriticalDaemonSet = { ...calico, namespace: "monitoring" };
    expect(nodeReadiness(node(), [otherNamespace], []).removeTaint).toBe(true);
  });

  it("does not wait for a DaemonSet whose pod template lacks the critical label", () => {
    const unlabelledTemplate: CriticalDaemonSet = { ...calico, template: { ...calico.template, labels: {} } };
    expect(nodeReadiness(node(), [unlabelledTemplate], []).removeTaint).toBe(true);
  });

  it("does not wait for a DaemonSet that should not run on the node", () => {
    const gpuOnly = daemonSet("nvidia-driver", { nodeSelector: { "worker.gardener.cloud/pool": "gpu" } });
    const notTolerating = daemonSet("node-exporter", { tolerations: [] });
    const pinned = daemonSet("pinned", { nodeName: "another-node" });
    expect(nodeReadiness(node(), [gpuOnly, notTolerating, pinned], []).removeTaint).toBe(true);
  });

  it("has nothing to do for a node without the taint", () => {
    const untainted = node({ taints: [{ key: "dedicated", value: "db", effect: "NoSchedule" }] });
    expect(nodeReadiness(untainted, [calico], [daemonPod(calico, false)])).toEqual({
      tainted: false,
      removeTaint: false,
      waitingFor: [],
    });
  });
});

describe("daemonPodShouldRun", () => {
  it("adds the daemon pod tolerations the DaemonSet controller adds (unschedulable; network-unavailable with host network)", () => {
    const cordoned = node({
      taints: [...node().taints, { key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" }],
    });
    expect(daemonPodShouldRun(cordoned, calico)).toBe(true);
    const noNetwork = node({
      taints: [...node().taints, { key: "node.kubernetes.io/network-unavailable", effect: "NoSchedule" }],
    });
    expect(daemonPodShouldRun(noNetwork, calico)).toBe(false);
    expect(daemonPodShouldRun(noNetwork, daemonSet("calico-node", { hostNetwork: true }))).toBe(true);
  });

  it("ignores PreferNoSchedule taints", () => {
    const preferred = node({ taints: [...node().taints, { key: "spot", effect: "PreferNoSchedule" }] });
    expect(daemonPodShouldRun(preferred, calico)).toBe(true);
  });
});

describe("tolerates (Kubernetes ToleratesTaint)", () => {
  const taint = { key: "dedicated", value: "db", effect: "NoSchedule" };
  it("matches key, value and effect; Exists ignores the value; an empty key with Exists tolerates everything", () => {
    expect(tolerates({ key: "dedicated", value: "db" }, taint)).toBe(true);
    expect(tolerates({ key: "dedicated", value: "web" }, taint)).toBe(false);
    expect(tolerates({ key: "dedicated", operator: "Exists" }, taint)).toBe(true);
    expect(tolerates({ key: "dedicated", operator: "Exists", effect: "NoExecute" }, taint)).toBe(false);
    expect(tolerates({ operator: "Exists" }, taint)).toBe(true);
    expect(tolerates({ key: "other", operator: "Exists" }, taint)).toBe(false);
  });
});

describe("withoutCriticalComponentsTaint", () => {
  it("removes only the controller's own taint", () => {
    const other = { key: "dedicated", value: "db", effect: "NoSchedule" };
    expect(withoutCriticalComponentsTaint([...node().taints, other])).toEqual([other]);
  });
});

// What runs inside each demo shoot: admission webhooks (some of them badly configured), CA
// certificates (some expiring within a year), whether its API server runs yet, and the resources a
// deletion cleans up (some with finalizers, some labelled no-cleanup, some the cleanup spares
// anyway). Deterministic per shoot
// uid, so the demo is repeatable. Webhooks read as the API server answers them: with its defaults
// (failurePolicy, timeoutSeconds) filled in.
import { crc32 } from "../engine/crc32.ts";
import type { ClusterResource } from "../engine/deletion-cleanup.ts";
import { DAY_MS as DAY } from "../engine/time-units.ts";
import type { WebhookConfiguration } from "../engine/webhook-constraints.ts";
import type { ShootInventory } from "../engine/shoot-inventory.ts";
import type { CriticalComponentFault } from "../engine/simulated-nodes.ts";
import type { Shoot } from "../gardener/types.ts";

const CAS = ["ca", "ca-front-proxy", "ca-kubelet", "ca-etcd", "ca-client"];
const SPARE_KUBE_SYSTEM = {
  matchExpressions: [{ key: "gardener.cloud/purpose", operator: "NotIn" as const, values: ["kube-system"] }],
};

function webhooksFor(draw: number): WebhookConfiguration[] {
  const wellBehaved: WebhookConfiguration = {
    kind: "ValidatingWebhookConfiguration",
    metadata: { name: "gatekeeper-validating-webhook-configuration" },
    webhooks: [
      {
        name: "validation.gatekeeper.sh",
        failurePolicy: "Ignore",
        timeoutSeconds: 3,
        namespaceSelector: SPARE_KUBE_SYSTEM,
        rules: [{ operations: ["CREATE", "UPDATE"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"] }],
      },
    ],
  };
  switch (draw % 8) {
    case 0: // a sidecar injector that blocks pods everywhere when it is down
      return [
        wellBehaved,
        {
          kind: "MutatingWebhookConfiguration",
          metadata: { name: "istio-sidecar-injector" },
          webhooks: [
            {
              name: "sidecar-injector.istio.io",
              failurePolicy: "Fail",
              timeoutSeconds: 10,
              rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] }],
            },
          ],
        },
      ];
    case 1: // a policy engine that ignores failures but waits 30 s for them (leases in kube-system too)
      return [
        {
          kind: "ValidatingWebhookConfiguration",
          metadata: { name: "kyverno-resource-validating-webhook-cfg" },
          webhooks: [
            {
              name: "validate.kyverno.svc-fail",
              failurePolicy: "Ignore",
              timeoutSeconds: 30,
              rules: [{ operations: ["CREATE", "UPDATE"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"] }],
            },
          ],
        },
      ];
    case 2:
      return [];
    default:
      return [wellBehaved];
  }
}

function resourcesFor(draw: number, webhooks: WebhookConfiguration[]): ClusterResource[] {
  const resources: ClusterResource[] = webhooks.map((w) => ({ kind: w.kind, name: w.metadata.name }));
  resources.push(
    { kind: "CustomResourceDefinition", name: "certificates.cert.gardener.cloud" },
    { kind: "APIService", name: "v1beta1.metrics.k8s.io" },
    { kind: "Deployment", namespace: "default", name: "web" },
    { kind: "Service", namespace: "default", name: "web" },
    { kind: "Pod", namespace: "default", name: "web-7c9f8d6b5-x2v4q" },
    { kind: "StatefulSet", namespace: "data", name: "postgres" },
    {
      kind: "PersistentVolumeClaim",
      namespace: "data",
      name: "data-postgres-0",
      ...(draw % 5 === 0 ? { finalizers: ["kubernetes.io/pvc-protection"] } : {}),
    },
    {
      kind: "Deployment",
      namespace: "kube-system",
      name: "csi-snapshot-controller",
      labels: { "shoot.gardener.cloud/no-cleanup": "true" },
    },
    // What every cluster has and the cleanup spares: a Gardener system component, the API server's
    // own Service, and a built-in APIService.
    {
      kind: "Deployment",
      namespace: "kube-system",
      name: "coredns",
      labels: { "gardener.cloud/role": "system-component" },
    },
    {
      kind: "Service",
      namespace: "default",
      name: "kubernetes",
      labels: { provider: "kubernetes", component: "apiserver" },
    },
    { kind: "APIService", name: "v1.apps", labels: { "kube-aggregator.kubernetes.io/automanaged": "onstart" } },
  );
  if (draw % 3 === 0)
    resources.push({
      kind: "VolumeSnapshot",
      namespace: "data",
      name: "nightly",
      ...(draw % 6 === 0 ? { finalizers: ["snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection"] } : {}),
    });
  return resources;
}

/**
 * A few demo shoots (one in 30, by crc32 of their uid) have a node-critical component that never
 * becomes ready on new nodes, so a roll of their pools holds: the provider's csi-driver-node whose
 * driver never registers in CSINode, or the CNI's node agent crash-looping. Only shoots the demo
 * made (they carry status.gardener): hand-made test shoots never hold by chance.
 */
export function criticalComponentFaultFor(shoot: Shoot): CriticalComponentFault | undefined {
  if (!shoot.status?.gardener) return undefined;
  const draw = crc32(`nodes|${shoot.metadata.uid ?? shoot.metadata.name}`);
  if (draw % 30 !== 0) return undefined;
  return { component: Math.floor(draw / 30) % 2 === 0 ? "csi-driver-node" : "cni" };
}

const withFault = (fault: CriticalComponentFault | undefined) => (fault ? { criticalComponentFault: fault } : {});

export function inventoryFor(shoot: Shoot, now: number): ShootInventory {
  const draw = crc32(`inventory|${shoot.metadata.uid ?? shoot.metadata.name}`);
  const created = Date.parse(shoot.metadata.creationTimestamp ?? "") || now - 100 * DAY;
  // CAs last ten years, but some clusters' CAs were made long ago and expire within a year.
  const caEnd = draw % 7 === 0 ? now + (60 + (draw % 200)) * DAY : created + 3650 * DAY;
  const webhookConfigurations = webhooksFor(draw);
  // A creation that has not succeeded has not deployed the kube-apiserver yet.
  const operation = shoot.status?.lastOperation;
  const creating = operation?.type === "Create" && operation.state !== "Succeeded";
  return {
    webhookConfigurations,
    caCertificates: CAS.map((name) => ({ name, notAfter: new Date(caEnd).toISOString() })),
    resources: resourcesFor(draw, webhookConfigurations),
    ...(creating ? { apiServerRunning: false } : {}),
    ...withFault(criticalComponentFaultFor(shoot)),
  };
}

import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import { shoot as buildShoot } from "../../tests/support/builders.ts";
import { type ClusterResource, cleanupPlan, startDeletion } from "./deletion-cleanup.ts";

const T0 = Date.parse("2026-11-22T10:00:00Z");
const r = (kind: string, name: string, extra: Partial<ClusterResource> = {}): ClusterResource => ({
  kind,
  name,
  namespace: "default",
  ...extra,
});

const inventory: ClusterResource[] = [
  r("ValidatingWebhookConfiguration", "policy"),
  r("MutatingWebhookConfiguration", "injector", { finalizers: ["example.com/keep"] }),
  r("CustomResourceDefinition", "widgets.example.com"),
  r("APIService", "v1beta1.metrics.k8s.io"),
  r("Deployment", "web"),
  r("Deployment", "csi-controller", { labels: { "shoot.gardener.cloud/no-cleanup": "true" } }),
  r("Service", "web"),
  r("PersistentVolumeClaim", "data", { finalizers: ["kubernetes.io/pvc-protection"] }),
  r("Pod", "web-1"),
  r("VolumeSnapshot", "nightly"),
  r("ConfigMap", "untouched"),
];

function withAnnotations(annotations: Record<string, string>): Shoot {
  const s = buildShoot("1.31.2");
  s.metadata = { ...s.metadata, annotations };
  return s;
}

const names = (rs: readonly ClusterResource[]) => rs.map((x) => `${x.kind}/${x.name}`);

describe("cleanupPlan", () => {
  it("deletes in the four steps of the document with their grace periods and forced finalization times", () => {
    const plan = cleanupPlan(withAnnotations({}), inventory);
    expect(plan.map((s) => [s.name, s.gracePeriodSeconds, s.finalizeAfterSeconds])).toEqual([
      ["CleanWebhooks", 300, 300],
      ["CleanExtendedAPIs", 300, 3600],
      ["CleanKubernetesResources", 300, 300],
      ["CleanVolumeSnapshots", 300, 3600],
    ]);
    expect(names(plan[0].resources)).toEqual([
      "ValidatingWebhookConfiguration/policy",
      "MutatingWebhookConfiguration/injector",
    ]);
    expect(names(plan[1].resources)).toEqual([
      "CustomResourceDefinition/widgets.example.com",
      "APIService/v1beta1.metrics.k8s.io",
    ]);
    expect(names(plan[2].resources)).toEqual([
      "Deployment/web",
      "Service/web",
      "PersistentVolumeClaim/data",
      "Pod/web-1",
    ]);
    expect(names(plan[3].resources)).toEqual(["VolumeSnapshot/nightly"]);
    // Other kinds are not touched at all.
    expect(plan.flatMap((s) => [...s.resources, ...s.kept]).some((x) => x.kind === "ConfigMap")).toBe(false);
  });

  it("leaves resources labelled shoot.gardener.cloud/no-cleanup=true alone", () => {
    const plan = cleanupPlan(withAnnotations({}), inventory);
    expect(names(plan[2].kept)).toEqual(["Deployment/csi-controller"]);
  });

  it("considers only Services and PersistentVolumeClaims in step 3 with shoot.gardener.cloud/skip-cleanup=true", () => {
    const plan = cleanupPlan(withAnnotations({ "shoot.gardener.cloud/skip-cleanup": "true" }), inventory);
    expect(names(plan[2].resources)).toEqual(["Service/web", "PersistentVolumeClaim/data"]);
    expect(names(plan[2].kept)).toEqual(["Deployment/web", "Deployment/csi-controller", "Pod/web-1"]);
    // The other steps are unchanged.
    expect(plan[0].resources).toHaveLength(2);
  });

  it("takes the finalization grace periods from the annotations; 0 finalizes at once", () => {
    const plan = cleanupPlan(
      withAnnotations({
        "shoot.gardener.cloud/cleanup-webhooks-finalize-grace-period-seconds": "0",
        "shoot.gardener.cloud/cleanup-extended-apis-finalize-grace-period-seconds": "600",
        "shoot.gardener.cloud/cleanup-kubernetes-resources-finalize-grace-period-seconds": "soon",
      }),
      inventory,
    );
    expect([plan[0].gracePeriodSeconds, plan[0].finalizeAfterSeconds]).toEqual([0, 0]);
    expect([plan[1].gracePeriodSeconds, plan[1].finalizeAfterSeconds]).toEqual([300, 600]);
    expect([plan[2].gracePeriodSeconds, plan[2].finalizeAfterSeconds]).toEqual([300, 300]);
    expect(plan[2].note).toMatch(/not a whole number/);
    expect(plan[3].finalizeAfterSeconds).toBe(3600);
  });
});

describe("startDeletion", () => {
  it("times each step: graceful deletion, or forced finalization for stuck resources", () => {
    const deletion = startDeletion(cleanupPlan(withAnnotations({}), inventory), T0);
    expect(deletion.startedAt).toBe(T0);
    expect(deletion.steps.map((s) => [s.name, s.seconds / 60, s.forced])).toEqual([
      ["CleanWebhooks", 5, true], // the injector's finalizer: forced after 5 min
      ["CleanExtendedAPIs", 5, false], // gone after the 5 min grace period
      ["CleanKubernetesResources", 5, true], // the PVC's finalizer: forced after 5 min
      ["CleanVolumeSnapshots", 5, false],
      ["DeleteShoot", 0, false],
    ]);
  });

  it("finalizes at once with 0 and skips empty steps", () => {
    const deletion = startDeletion(
      cleanupPlan(
        withAnnotations({ "shoot.gardener.cloud/cleanup-webhooks-finalize-grace-period-seconds": "0" }),
        inventory.slice(0, 2),
      ),
      T0,
    );
    expect(deletion.steps.map((s) => s.seconds)).toEqual([0, 0, 0, 0, 0]);
  });
});

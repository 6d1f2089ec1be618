// Before a deletion: which resources Gardener leaves because they are labelled
// shoot.gardener.cloud/no-cleanup=true, and the finalization grace periods the cleanup would use.
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import {
  ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE,
  ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE,
  ANNOTATION_CLEANUP_WEBHOOKS_GRACE,
  ANNOTATION_SKIP_CLEANUP,
  gracePeriodsInEffect,
  noCleanupResources,
} from "./deletion-cleanup.ts";

const shoot = (annotations?: Record<string, string>): Shoot => ({
  metadata: { name: "s", ...(annotations ? { annotations } : {}) },
  spec: { kubernetes: { version: "1.31.1" } },
});
const NO_CLEANUP = { "shoot.gardener.cloud/no-cleanup": "true" };

describe("noCleanupResources", () => {
  it("lists what is labelled no-cleanup=true: spared, deleted anyway (APIServices) or never cleaned", () => {
    const found = noCleanupResources([
      { kind: "Deployment", namespace: "kube-system", name: "csi-snapshot-controller", labels: NO_CLEANUP },
      { kind: "Deployment", namespace: "default", name: "web" },
      { kind: "Deployment", namespace: "x", name: "off", labels: { "shoot.gardener.cloud/no-cleanup": "false" } },
      {
        kind: "VolumeSnapshot",
        namespace: "data",
        name: "keep",
        labels: NO_CLEANUP,
        finalizers: ["snapshot.storage.kubernetes.io/volumesnapshot-bound-protection"],
      },
      { kind: "APIService", name: "v1beta1.custom.example.com", labels: NO_CLEANUP },
      { kind: "CSIDriver", name: "csi.example.com", labels: NO_CLEANUP },
    ]);
    expect(found.map((r) => [r.kind, r.name, r.outcome])).toEqual([
      ["Deployment", "csi-snapshot-controller", "spared"],
      ["VolumeSnapshot", "keep", "spared"],
      ["APIService", "v1beta1.custom.example.com", "deleted-anyway"],
      ["CSIDriver", "csi.example.com", "not-cleaned"],
    ]);
    expect(found[1].finalizers).toEqual(["snapshot.storage.kubernetes.io/volumesnapshot-bound-protection"]);
  });
});

describe("gracePeriodsInEffect", () => {
  it("answers the defaults without annotations: 5 min for webhooks and workloads, 1 h for extended APIs and snapshots", () => {
    expect(
      gracePeriodsInEffect(shoot()).map((g) => [g.step, g.kinds[0], g.options?.finalizeGracePeriodSeconds, g.skipped]),
    ).toEqual([
      ["CleanWebhooks", "MutatingWebhookConfiguration", 300, false],
      ["CleanExtendedAPIs", "APIService", 3600, false],
      ["CleanKubernetesResources", "CronJob", 300, false],
      ["CleanKubernetesResources", "VolumeSnapshot", 3600, false],
    ]);
  });

  it("shortens by the annotations (never lengthens), with the deletion grace period scaled per list", () => {
    const periods = gracePeriodsInEffect(
      shoot({
        [ANNOTATION_CLEANUP_WEBHOOKS_GRACE]: "0",
        [ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE]: "600",
        [ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE]: "7200",
      }),
    );
    expect(periods.map((g) => [g.value, g.options])).toEqual([
      ["0", { gracePeriodSeconds: 0, finalizeGracePeriodSeconds: 0 }],
      ["600", { gracePeriodSeconds: 60, finalizeGracePeriodSeconds: 600 }],
      // 7200 s is not shorter than the 5-minute default: the default stays.
      ["7200", { gracePeriodSeconds: 300, finalizeGracePeriodSeconds: 300 }],
      // Nor than the snapshots' hour.
      ["7200", { gracePeriodSeconds: 300, finalizeGracePeriodSeconds: 3600 }],
    ]);
  });

  it("with skip-cleanup: the extended APIs are skipped, only Services, PVCs and snapshots with the 5-minute options", () => {
    const periods = gracePeriodsInEffect(shoot({ [ANNOTATION_SKIP_CLEANUP]: "true" }));
    expect(periods.map((g) => [g.step, g.kinds.join(","), g.skipped, g.options?.finalizeGracePeriodSeconds])).toEqual([
      ["CleanWebhooks", "MutatingWebhookConfiguration,ValidatingWebhookConfiguration", false, 300],
      ["CleanExtendedAPIs", "APIService,CustomResourceDefinition", true, undefined],
      ["CleanKubernetesResources", "Service,PersistentVolumeClaim", false, 300],
      ["CleanKubernetesResources", "VolumeSnapshot,VolumeSnapshotContent", false, 300],
    ]);
  });

  it("says when an annotation cannot be read (the step would fail with Atoi's error)", () => {
    const [webhooks] = gracePeriodsInEffect(shoot({ [ANNOTATION_CLEANUP_WEBHOOKS_GRACE]: "5m" }));
    expect(webhooks.error).toBe('strconv.Atoi: parsing "5m": invalid syntax');
    expect(webhooks.options).toBeUndefined();
  });
});

// The cleanup of a shoot's resources during its deletion, as the gardenlet's deletion flow does it
// (Gardener: pkg/gardenlet/operation/botanist/cleanup.go, getCleanOptions, CleanWebhooks,
// CleanExtendedAPIs, CleanKubernetesResources and the *CleanOption selectors;
// pkg/gardenlet/controller/shoot/shoot/reconciler_delete.go for the tasks, their timeout and
// skip-cleanup; pkg/utils/kubernetes/client for the cleaner and its "remaining objects" error).
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import { shoot as buildShoot } from "../../tests/support/builders.ts";
import {
  ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE,
  ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE,
  ANNOTATION_CLEANUP_WEBHOOKS_GRACE,
  type ClusterResource,
  cleanupAttemptOutcome,
  cleanupPlan,
  deletionFlowError,
  getCleanOptions,
  goAtoi,
  selectedForCleanup,
  startDeletion,
} from "./deletion-cleanup.ts";

const T0 = Date.parse("2026-11-22T10:00:00Z");
const r = (kind: string, name: string, extra: Partial<ClusterResource> = {}): ClusterResource => ({
  kind,
  name,
  namespace: "default",
  ...extra,
});
const cluster = (kind: string, name: string, extra: Partial<ClusterResource> = {}): ClusterResource => ({
  kind,
  name,
  ...extra,
});

const inventory: ClusterResource[] = [
  cluster("ValidatingWebhookConfiguration", "policy"),
  cluster("MutatingWebhookConfiguration", "injector", { finalizers: ["example.com/keep"] }),
  cluster("CustomResourceDefinition", "widgets.example.com"),
  cluster("APIService", "v1beta1.metrics.k8s.io"),
  cluster("APIService", "v1.apps", { labels: { "kube-aggregator.kubernetes.io/automanaged": "onstart" } }),
  r("Deployment", "web"),
  r("Deployment", "csi-controller", { labels: { "shoot.gardener.cloud/no-cleanup": "true" } }),
  r("Deployment", "coredns", { namespace: "kube-system", labels: { "gardener.cloud/role": "system-component" } }),
  r("Service", "web"),
  r("Service", "kubernetes", { labels: { provider: "kubernetes", component: "apiserver" } }),
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

describe("goAtoi (Go's strconv.Atoi, which getCleanOptions reads the annotations with)", () => {
  it("reads whole numbers with an optional sign and refuses the rest with Go's texts", () => {
    expect(goAtoi("600")).toEqual({ value: 600 });
    expect(goAtoi("+60")).toEqual({ value: 60 });
    expect(goAtoi("-1")).toEqual({ value: -1 });
    expect(goAtoi("soon")).toEqual({ error: 'strconv.Atoi: parsing "soon": invalid syntax' });
    expect(goAtoi("")).toEqual({ error: 'strconv.Atoi: parsing "": invalid syntax' });
    expect(goAtoi("1.5")).toEqual({ error: 'strconv.Atoi: parsing "1.5": invalid syntax' });
    expect(goAtoi("9223372036854775808")).toEqual({
      error: 'strconv.Atoi: parsing "9223372036854775808": value out of range',
    });
  });
});

describe("getCleanOptions (Gardener: botanist/cleanup.go)", () => {
  const KEY = ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE;
  const options = (value?: string, factor = 0.1) =>
    getCleanOptions(value === undefined ? {} : { [KEY]: value }, 300, 3600, KEY, factor);

  it("keeps the defaults without the annotation", () => {
    expect(options()).toEqual({ options: { gracePeriodSeconds: 300, finalizeGracePeriodSeconds: 3600 } });
  });

  it("applies the annotation only when it is shorter than the default finalization", () => {
    expect(options("3600")).toEqual(options());
    expect(options("7200")).toEqual(options());
    expect(options("3599")).toEqual({ options: { gracePeriodSeconds: 359, finalizeGracePeriodSeconds: 3599 } });
  });

  it("scales the deletion grace period by the step's factor, truncating", () => {
    expect(options("600")).toEqual({ options: { gracePeriodSeconds: 60, finalizeGracePeriodSeconds: 600 } });
    expect(options("600", 0.5)).toEqual({ options: { gracePeriodSeconds: 300, finalizeGracePeriodSeconds: 600 } });
    expect(options("15", 0.1)).toEqual({ options: { gracePeriodSeconds: 1, finalizeGracePeriodSeconds: 15 } });
    expect(options("0")).toEqual({ options: { gracePeriodSeconds: 0, finalizeGracePeriodSeconds: 0 } });
  });

  it("fails on a value Atoi cannot read instead of using the defaults", () => {
    expect(options("soon")).toEqual({ error: 'strconv.Atoi: parsing "soon": invalid syntax' });
  });
});

describe("selectedForCleanup (Gardener: botanist/cleanup.go, the *CleanOption selectors)", () => {
  it("spares system components and resources labelled no-cleanup", () => {
    expect(selectedForCleanup(r("Deployment", "web"))).toBe(true);
    expect(selectedForCleanup(r("Deployment", "a", { labels: { "gardener.cloud/role": "system-component" } }))).toBe(
      false,
    );
    expect(selectedForCleanup(r("Deployment", "a", { labels: { "gardener.cloud/role": "monitoring" } }))).toBe(true);
    expect(selectedForCleanup(r("Deployment", "a", { labels: { "shoot.gardener.cloud/no-cleanup": "true" } }))).toBe(
      false,
    );
    expect(selectedForCleanup(r("Deployment", "a", { labels: { "shoot.gardener.cloud/no-cleanup": "yes" } }))).toBe(
      true,
    );
  });

  it("spares the API server's own `kubernetes` Service (provider=kubernetes)", () => {
    expect(selectedForCleanup(r("Service", "kubernetes", { labels: { provider: "kubernetes" } }))).toBe(false);
    expect(selectedForCleanup(r("Service", "web", { labels: { provider: "aws" } }))).toBe(true);
  });

  it("spares built-in (auto-managed) APIServices, but does not look at no-cleanup for APIServices", () => {
    const automanaged = { "kube-aggregator.kubernetes.io/automanaged": "true" };
    expect(selectedForCleanup(cluster("APIService", "v1.apps", { labels: automanaged }))).toBe(false);
    expect(
      selectedForCleanup(cluster("APIService", "v1beta1.x", { labels: { "shoot.gardener.cloud/no-cleanup": "true" } })),
    ).toBe(true);
    expect(
      selectedForCleanup(
        cluster("APIService", "v1beta1.metrics.k8s.io", { labels: { "gardener.cloud/role": "system-component" } }),
      ),
    ).toBe(false);
  });
});

describe("cleanupPlan (Gardener: CleanWebhooks, CleanExtendedAPIs, CleanKubernetesResources)", () => {
  it("cleans in the deletion flow's three tasks, each kind listed on its own, with their options", () => {
    const plan = cleanupPlan(withAnnotations({}), inventory);
    expect(plan.map((s) => [s.name, s.task])).toEqual([
      ["CleanWebhooks", "Cleaning up webhooks"],
      ["CleanExtendedAPIs", "Cleaning extended API groups"],
      ["CleanKubernetesResources", "Cleaning Kubernetes resources"],
    ]);
    expect(plan.map((s) => s.options.map((o) => [o.gracePeriodSeconds, o.finalizeGracePeriodSeconds]))).toEqual([
      [[300, 300]],
      [[300, 3600]],
      [
        [300, 300],
        [300, 3600],
      ],
    ]);
    expect(names(plan[0].resources)).toEqual([
      "MutatingWebhookConfiguration/injector",
      "ValidatingWebhookConfiguration/policy",
    ]);
    expect(names(plan[1].resources)).toEqual([
      "APIService/v1beta1.metrics.k8s.io",
      "CustomResourceDefinition/widgets.example.com",
    ]);
    expect(names(plan[1].kept)).toEqual(["APIService/v1.apps"]);
    expect(names(plan[2].resources)).toEqual([
      "Deployment/web",
      "Pod/web-1",
      "Service/web",
      "PersistentVolumeClaim/data",
      "VolumeSnapshot/nightly",
    ]);
    expect(names(plan[2].kept)).toEqual(["Deployment/csi-controller", "Deployment/coredns", "Service/kubernetes"]);
    // Other kinds are not touched at all.
    expect(plan.flatMap((s) => [...s.resources, ...s.kept]).some((x) => x.kind === "ConfigMap")).toBe(false);
  });

  it("with shoot.gardener.cloud/skip-cleanup, whatever its value, skips the extended APIs and lists only Services, PVCs and snapshots", () => {
    for (const value of ["true", "false", ""]) {
      const plan = cleanupPlan(withAnnotations({ "shoot.gardener.cloud/skip-cleanup": value }), inventory);
      expect(plan[0].resources).toHaveLength(2);
      expect(plan[1]).toMatchObject({ skipped: true, resources: [] });
      expect(names(plan[1].kept)).toEqual([
        "CustomResourceDefinition/widgets.example.com",
        "APIService/v1beta1.metrics.k8s.io",
        "APIService/v1.apps",
      ]);
      expect(names(plan[2].resources)).toEqual(["Service/web", "PersistentVolumeClaim/data", "VolumeSnapshot/nightly"]);
      expect(names(plan[2].kept)).toEqual(
        expect.arrayContaining(["Deployment/web", "Deployment/csi-controller", "Pod/web-1", "Service/kubernetes"]),
      );
      // The snapshots with the five-minute options.
      expect(plan[2].options.map((o) => [o.gracePeriodSeconds, o.finalizeGracePeriodSeconds])).toEqual([
        [300, 300],
        [300, 300],
      ]);
    }
  });

  it("takes shorter finalization grace periods from the annotations, each step with its factor", () => {
    const plan = cleanupPlan(
      withAnnotations({
        [ANNOTATION_CLEANUP_WEBHOOKS_GRACE]: "0",
        [ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE]: "600",
        [ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE]: "120",
      }),
      inventory,
    );
    const opts = plan.map((s) => s.options.map((o) => [o.gracePeriodSeconds, o.finalizeGracePeriodSeconds]));
    expect(opts).toEqual([
      [[0, 0]],
      [[60, 600]], // factor 0.1
      [
        [120, 120], // factor 1
        [60, 120], // the snapshots: factor 0.5
      ],
    ]);
  });

  it("ignores annotations at or above the default", () => {
    const plan = cleanupPlan(withAnnotations({ [ANNOTATION_CLEANUP_WEBHOOKS_GRACE]: "900" }), inventory);
    expect(plan[0].options.map((o) => [o.gracePeriodSeconds, o.finalizeGracePeriodSeconds])).toEqual([[300, 300]]);
  });

  it("makes the step fail with Atoi's error when its annotation cannot be read", () => {
    const plan = cleanupPlan(withAnnotations({ [ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE]: "soon" }), inventory);
    expect(plan[2].error).toBe('strconv.Atoi: parsing "soon": invalid syntax');
    expect(plan[2].resources).toEqual([]);
    expect(plan[0].error).toBeUndefined();
  });
});

describe("startDeletion and cleanupAttemptOutcome (the cleaner and the tasks' 10-minute timeout)", () => {
  it("times each step by its slowest object: finalizers after the finalization grace period, a Pod after its grace period", () => {
    const deletion = startDeletion(cleanupPlan(withAnnotations({}), inventory), T0);
    expect(deletion.startedAt).toBe(T0);
    expect(deletion.steps.map((s) => [s.name, s.seconds, s.forced])).toEqual([
      ["CleanWebhooks", 300, true], // the injector's finalizer: finalized after 5 min
      ["CleanExtendedAPIs", 0, false], // nothing stuck: gone at once
      ["CleanKubernetesResources", 300, true], // the PVC's finalizer; the Pod's 5 min grace period
      ["DeleteShoot", 0, false],
    ]);
  });

  it("finalizes a stuck Pod only once its deletion timestamp, its grace period ahead, is older than the finalization period", () => {
    const pod = r("Pod", "stuck", { finalizers: ["example.com/x"] });
    const deletion = startDeletion(cleanupPlan(withAnnotations({}), [pod]), T0);
    expect(deletion.steps[2].seconds).toBe(600);
  });

  it("ends an attempt when its objects are gone, within the ten minutes", () => {
    const [webhooks] = startDeletion(cleanupPlan(withAnnotations({}), inventory), T0).steps;
    expect(cleanupAttemptOutcome(webhooks, 0)).toEqual({ afterSeconds: 300 });
    expect(cleanupAttemptOutcome(webhooks, 400)).toEqual({ afterSeconds: 0 });
  });

  it("fails an attempt that waits longer with the remaining objects and ERR_CLEANUP_CLUSTER_RESOURCES", () => {
    const crd = cluster("CustomResourceDefinition", "installations.example.com", { finalizers: ["x"] });
    const steps = startDeletion(cleanupPlan(withAnnotations({}), [crd]), T0).steps;
    expect(steps[1].seconds).toBe(3600);
    const taskError =
      'task "Cleaning extended API groups" failed: 1 error occurred:\n\t* retry failed with context deadline exceeded, ' +
      "last error: remaining objects are still present: [*v1.CustomResourceDefinition /installations.example.com]\n\n";
    expect(cleanupAttemptOutcome(steps[1], 0)).toEqual({
      afterSeconds: 600,
      failure: { taskError, codes: ["ERR_CLEANUP_CLUSTER_RESOURCES"] },
    });
    expect(deletionFlowError(taskError)).toBe(`Flow "Shoot cluster deletion" encountered task errors: [${taskError}]`);
    // Five timed-out attempts later, the hour is over within the sixth.
    expect(cleanupAttemptOutcome(steps[1], 3000)).toEqual({ afterSeconds: 600 });
  });

  it("names the remaining objects of each list, in parallel, and only those still there at the timeout", () => {
    const stuck = { finalizers: ["x"] };
    const resources = [
      r("VolumeSnapshot", "a", stuck),
      r("VolumeSnapshot", "b", stuck),
      r("VolumeSnapshotContent", "c", { ...stuck, namespace: undefined }),
      r("Deployment", "gone"),
    ];
    const [, , k8s] = startDeletion(cleanupPlan(withAnnotations({}), resources), T0).steps;
    const outcome = cleanupAttemptOutcome(k8s, 0);
    expect(outcome.failure?.taskError).toBe(
      'task "Cleaning Kubernetes resources" failed: 2 errors occurred:\n' +
        "\t* retry failed with context deadline exceeded, last error: remaining objects are still present: [*v1.VolumeSnapshot default/a *v1.VolumeSnapshot default/b]\n" +
        "\t* retry failed with context deadline exceeded, last error: remaining objects are still present: [*v1.VolumeSnapshotContent /c]\n\n",
    );
  });

  it("fails every attempt at once, without codes, on an unreadable annotation", () => {
    const steps = startDeletion(
      cleanupPlan(withAnnotations({ [ANNOTATION_CLEANUP_WEBHOOKS_GRACE]: "1h" }), inventory),
      T0,
    ).steps;
    expect(cleanupAttemptOutcome(steps[0], 0)).toEqual({
      afterSeconds: 0,
      failure: {
        taskError: 'task "Cleaning up webhooks" failed: strconv.Atoi: parsing "1h": invalid syntax',
        codes: [],
      },
    });
  });

  it("finalizes at once with 0 and takes no time for empty or skipped steps", () => {
    const deletion = startDeletion(
      cleanupPlan(
        withAnnotations({
          [ANNOTATION_CLEANUP_WEBHOOKS_GRACE]: "0",
          "shoot.gardener.cloud/skip-cleanup": "true",
        }),
        inventory.slice(0, 4),
      ),
      T0,
    );
    expect(deletion.steps.map((s) => [s.seconds, s.skipped ?? false])).toEqual([
      [0, false],
      [0, true],
      [0, false],
      [0, false],
    ]);
  });
});

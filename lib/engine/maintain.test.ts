import { describe, expect, it } from "vitest";
import { at, profile, shoot, worker } from "../../tests/support/builders.ts";
import { maintain } from "./maintain.ts";

const EXPIRY = "2019-04-13T08:00:00Z";
const BEFORE = at("2019-04-12T22:30:00Z");
const AFTER = at("2019-04-14T22:30:00Z");

describe("Kubernetes version maintenance (docs examples)", () => {
  it("auto-updates 1.10.0 to the latest patch 1.10.5, never to the minor 1.11.0", () => {
    const out = maintain(
      shoot("1.10.0", { autoUpdate: { kubernetesVersion: true } }),
      profile([{ version: "1.11.0" }, { version: "1.10.5" }, { version: "1.10.0" }]),
      AFTER,
    );
    expect(out.shoot.spec.kubernetes.version).toBe("1.10.5");
    expect(out.shoot.status?.lastMaintenance).toEqual({
      description:
        'All maintenance operations successful. Control Plane: Updated Kubernetes version from "1.10.0" to "1.10.5". Reason: Automatic update of Kubernetes version configured',
      triggeredTime: "2019-04-14T22:30:00Z",
      state: "Succeeded",
    });
  });

  const forced = profile([
    { version: "1.12.8" },
    { version: "1.11.10" },
    { version: "1.10.13" },
    { version: "1.10.12", expirationDate: EXPIRY },
  ]);

  it("leaves an expiring version alone before its expiry", () => {
    const out = maintain(shoot("1.10.12"), forced, BEFORE);
    expect(out.shoot.spec.kubernetes.version).toBe("1.10.12");
    expect(out.shoot.status?.lastMaintenance).toBeUndefined();
    expect(out.requirePatch).toBe(false);
  });

  it("forces an expired version to the latest patch even with autoUpdate off", () => {
    const out = maintain(shoot("1.10.12"), forced, AFTER);
    expect(out.shoot.spec.kubernetes.version).toBe("1.10.13");
    expect(out.controlPlane?.reason).toBe("Kubernetes version expired - force update required");
  });

  it("treats a version missing from the profile as expired, regardless of autoUpdate", () => {
    const out = maintain(shoot("1.10.12"), profile([{ version: "1.11.10" }, { version: "1.10.13" }]), AFTER);
    expect(out.shoot.spec.kubernetes.version).toBe("1.10.13");
    expect(out.controlPlane?.reason).toBe("Version does not exist in CloudProfile");
  });

  it("forces the latest expired patch to the next minor (1.10.12 -> 1.11.10)", () => {
    const p = profile([
      { version: "1.12.8" },
      { version: "1.11.10" },
      { version: "1.11.09" },
      { version: "1.10.12", expirationDate: EXPIRY },
    ]);
    expect(maintain(shoot("1.10.12"), p, AFTER).shoot.spec.kubernetes.version).toBe("1.11.10");
  });

  it("fails without a consecutive minor and says why, keeping the version", () => {
    const p = profile([{ version: "1.26.10" }, { version: "1.26.9" }, { version: "1.24.12", expirationDate: EXPIRY }]);
    const out = maintain(shoot("1.24.12"), p, AFTER);
    expect(out.shoot.spec.kubernetes.version).toBe("1.24.12");
    expect(out.shoot.status?.lastMaintenance).toEqual({
      description:
        "(0/1) maintenance operations successful. Control Plane: Kubernetes version update failed. Reason for update: Kubernetes version expired - force update required",
      triggeredTime: "2019-04-14T22:30:00Z",
      state: "Failed",
      failureReason:
        'Control Plane: Kubernetes maintenance failure due to: could not determine higher suitable version than "1.24.12": cannot perform forceful update of expired version "1.24.12". No suitable version found in CloudProfile - this is most likely a misconfiguration of the CloudProfile',
    });
    const fixed = profile([
      { version: "1.26.9" },
      { version: "1.25.10" },
      { version: "1.25.9" },
      { version: "1.24.12", expirationDate: EXPIRY },
    ]);
    expect(maintain(shoot("1.24.12"), fixed, AFTER).shoot.spec.kubernetes.version).toBe("1.25.10");
  });

  it("caps a worker pool at the maintained control plane, in canonical form", () => {
    const p = profile([{ version: "0.1.5" }, { version: "0.1.1" }, { version: "0.0.5", expirationDate: EXPIRY }]);
    const s = shoot("0.1.1", { workers: [worker("pool", "img", "1.0.0", { kubernetes: { version: "0.0.5" } })] });
    const out = maintain(s, p, AFTER);
    expect(out.shoot.spec.provider?.workers?.[0].kubernetes?.version).toBe("0.1.1");
    expect(out.workerKubernetes[0].result.description).toBe('Updated Kubernetes version from "0.0.5" to "0.1.1"');
  });
});

describe("machine image maintenance", () => {
  const gardenlinux = (expired = false) => ({
    name: "gardenlinux",
    updateStrategy: "minor",
    versions: [
      { version: "1096.1.0" },
      { version: "934.8.0", ...(expired ? { expirationDate: EXPIRY } : {}) },
      { version: "934.7.0" },
    ],
  });
  const run = (image: ReturnType<typeof gardenlinux>, version: string, auto: boolean) =>
    maintain(
      shoot("1.10.5", {
        workers: [worker("pool-a", "gardenlinux", version)],
        autoUpdate: { machineImageVersion: auto },
      }),
      profile([{ version: "1.10.5" }], [image]),
      AFTER,
    );

  it("minor strategy: 934.7.0 -> 934.8.0, 934.8.0 stays, expired 934.8.0 -> 1096.1.0", () => {
    expect(run(gardenlinux(), "934.7.0", true).shoot.spec.provider?.workers?.[0].machine.image?.version).toBe(
      "934.8.0",
    );
    expect(run(gardenlinux(), "934.8.0", true).requirePatch).toBe(false);
    const out = run(gardenlinux(true), "934.8.0", false);
    expect(out.shoot.spec.provider?.workers?.[0].machine.image?.version).toBe("1096.1.0");
    expect(out.shoot.status?.lastMaintenance?.description).toBe(
      'All maintenance operations successful. Worker pool "pool-a": Updated machine image "gardenlinux" from "934.8.0" to "1096.1.0". Reason: Machine image version expired - force update required (image update strategy: minor)',
    );
  });

  it("patch strategy: updates within the minor, fails when the latest 15.3 expired and no 15.4 exists", () => {
    const suse = (expired: boolean) => ({
      name: "suse-chost",
      updateStrategy: "patch",
      versions: [
        { version: "15.3.20221118", ...(expired ? { expirationDate: EXPIRY } : {}) },
        { version: "15.3.20220818" },
      ],
    });
    const s = (v: string, auto: boolean) =>
      shoot("1.10.5", { workers: [worker("w", "suse-chost", v)], autoUpdate: { machineImageVersion: auto } });
    expect(
      maintain(s("15.3.20220818", true), profile([{ version: "1.10.5" }], [suse(false)]), AFTER).shoot.spec.provider
        ?.workers?.[0].machine.image?.version,
    ).toBe("15.3.20221118");
    const failed = maintain(s("15.3.20221118", false), profile([{ version: "1.10.5" }], [suse(true)]), AFTER);
    expect(failed.shoot.status?.lastMaintenance?.state).toBe("Failed");
    expect(failed.shoot.status?.lastMaintenance?.failureReason).toBe(
      'Worker pool "w": failed to update machine image "suse-chost": failed to determine the target version for maintenance of machine image "suse-chost" with strategy "patch": cannot perform forceful update of expired version "15.3.20221118". No suitable version found in CloudProfile - this is most likely a misconfiguration of the CloudProfile',
    );
  });

  it("major strategy: an expired latest version cannot be force-updated", () => {
    const coreos = { name: "coreos", versions: [{ version: "2191.5.0", expirationDate: EXPIRY }] };
    const out = maintain(
      shoot("1.10.5", { workers: [worker("w", "coreos", "2191.5.0")] }),
      profile([{ version: "1.10.5" }], [coreos]),
      AFTER,
    );
    expect(out.workerImages[0].result.description).toContain(
      'with strategy "major": failed to determine version for forceful update: either the machine image "coreos" is reaching end of life',
    );
  });

  it("filters by architecture: an arm64 pool only moves to arm64 versions", () => {
    const img = {
      name: "ubuntu",
      updateStrategy: "major",
      versions: [
        { version: "3.0.0", architectures: ["amd64"] },
        { version: "2.0.0", architectures: ["amd64", "arm64"] },
        { version: "1.0.0", architectures: ["amd64", "arm64"] },
      ],
    };
    const w = worker("arm", "ubuntu", "1.0.0", {
      machine: { type: "m6g.large", architecture: "arm64", image: { name: "ubuntu", version: "1.0.0" } },
    });
    const out = maintain(
      shoot("1.10.5", { workers: [w], autoUpdate: { machineImageVersion: true } }),
      profile([{ version: "1.10.5" }], [img]),
      AFTER,
    );
    expect(out.shoot.spec.provider?.workers?.[0].machine.image?.version).toBe("2.0.0");
  });

  it("treats a version that exists but lacks the worker's CRI as missing, so forces it", () => {
    const img = {
      name: "gardenlinux",
      updateStrategy: "minor",
      versions: [{ version: "2.0.0" }, { version: "1.0.0", cri: [{ name: "docker" }] }],
    };
    const out = maintain(
      shoot("1.10.5", { workers: [worker("w", "gardenlinux", "1.0.0")] }),
      profile([{ version: "1.10.5" }], [img]),
      AFTER,
    );
    expect(out.workerImages[0].result.reason).toBe("Version does not exist in CloudProfile");
    expect(out.shoot.spec.provider?.workers?.[0].machine.image?.version).toBe("2.0.0");
  });

  it("honours kubeletVersionConstraint with the pre-update control-plane version", () => {
    const img = {
      name: "gl",
      updateStrategy: "major",
      versions: [{ version: "2.0.0", kubeletVersionConstraint: ">= 1.11" }, { version: "1.0.0" }],
    };
    const p = profile([{ version: "1.11.1" }, { version: "1.10.5", expirationDate: EXPIRY }], [img]);
    const out = maintain(
      shoot("1.10.5", { workers: [worker("w", "gl", "1.0.0")], autoUpdate: { machineImageVersion: true } }),
      p,
      AFTER,
    );
    expect(out.shoot.spec.kubernetes.version).toBe("1.11.1");
    expect(out.shoot.spec.provider?.workers?.[0].machine.image?.version).toBe("1.0.0");
  });

  it("aborts the whole image step when a machine type is missing, and still maintains Kubernetes", () => {
    const img = { name: "gl", updateStrategy: "major", versions: [{ version: "2.0.0" }, { version: "1.0.0" }] };
    const w = worker("w", "gl", "1.0.0", { machine: { type: "nope", image: { name: "gl", version: "1.0.0" } } });
    const out = maintain(
      shoot("1.10.0", { workers: [w], autoUpdate: { kubernetesVersion: true, machineImageVersion: true } }),
      profile([{ version: "1.10.5" }, { version: "1.10.0" }], [img]),
      AFTER,
    );
    expect(out.workerImages).toEqual([]);
    expect(out.errors[0]).toContain('machine type "nope" of worker "w" does not exist in cloudprofile');
    expect(out.shoot.spec.kubernetes.version).toBe("1.10.5");
  });

  it("finds images case-insensitively but checks versions case-sensitively (forces them)", () => {
    const img = {
      name: "GardenLinux",
      updateStrategy: "minor",
      versions: [{ version: "2.0.0" }, { version: "1.0.0" }],
    };
    const out = maintain(
      shoot("1.10.5", { workers: [worker("w", "gardenlinux", "1.0.0")] }),
      profile([{ version: "1.10.5" }], [img]),
      AFTER,
    );
    expect(out.workerImages[0].result.reason).toBe("Version does not exist in CloudProfile");
  });
});

describe("lastMaintenance, annotations and purity", () => {
  const p = profile([{ version: "1.10.5" }, { version: "1.10.0" }]);

  it("adds reconcile and the tasks, and removes maintain", () => {
    const out = maintain(shoot("1.10.5", { annotations: { "gardener.cloud/operation": "maintain" } }), p, AFTER);
    expect(out.shoot.metadata.annotations).toEqual({
      "gardener.cloud/operation": "reconcile",
      "shoot.gardener.cloud/tasks":
        "deployInfrastructure,deployDNSRecordInternal,deployDNSRecordExternal,deployDNSRecordIngress",
    });
  });

  it("triggers no reconcile without a lastOperation", () => {
    const out = maintain(
      shoot("1.10.5", { annotations: { "gardener.cloud/operation": "maintain" }, status: {} }),
      p,
      AFTER,
    );
    expect(out.shoot.metadata.annotations?.["gardener.cloud/operation"]).toBeUndefined();
  });

  it("sets retry for a failed shoot that needs it", () => {
    const out = maintain(
      shoot("1.10.5", {
        annotations: { "maintenance.shoot.gardener.cloud/needs-retry-operation": "true" },
        status: { lastOperation: { type: "Reconcile", state: "Failed" } },
      }),
      p,
      AFTER,
    );
    expect(out.shoot.metadata.annotations?.["gardener.cloud/operation"]).toBe("retry");
    expect(out.shoot.metadata.annotations?.["maintenance.shoot.gardener.cloud/needs-retry-operation"]).toBeUndefined();
  });

  it("moves maintenance operations into the operation annotation and reports them", () => {
    const out = maintain(
      shoot("1.10.5", { annotations: { "maintenance.gardener.cloud/operation": "rotate-ssh-keypair" } }),
      p,
      AFTER,
    );
    expect(out.shoot.metadata.annotations?.["gardener.cloud/operation"]).toBe("rotate-ssh-keypair;reconcile");
    expect(out.shoot.status?.lastMaintenance?.description).toBe(
      'All maintenance operations successful. Added "rotate-ssh-keypair;reconcile" operation annotation',
    );
  });

  it("clears an earlier failure when nothing needs doing, keeping its triggeredTime", () => {
    const earlier = { description: "x", triggeredTime: "2019-04-01T22:00:00Z", state: "Failed", failureReason: "y" };
    const out = maintain(
      shoot("1.10.5", {
        status: { lastOperation: { type: "Reconcile", state: "Succeeded" }, lastMaintenance: earlier },
      }),
      p,
      AFTER,
    );
    expect(out.shoot.status?.lastMaintenance).toEqual({
      description: "Maintenance succeeded",
      triggeredTime: "2019-04-01T22:00:00Z",
      state: "Succeeded",
    });
  });

  it("records a rejected dry run without changing the spec", () => {
    const s = shoot("1.10.0", {
      autoUpdate: { kubernetesVersion: true },
      annotations: { "gardener.cloud/operation": "maintain" },
    });
    const out = maintain(s, p, AFTER, { dryRun: () => "admission webhook denied" });
    expect(out.rejected).toBe(true);
    expect(out.shoot.spec.kubernetes.version).toBe("1.10.0");
    expect(out.shoot.metadata.annotations?.["gardener.cloud/operation"]).toBeUndefined();
    expect(out.shoot.status?.lastMaintenance).toMatchObject({
      description: "Maintenance failed",
      state: "Failed",
      failureReason: "Updates to the Shoot failed to be applied: admission webhook denied",
    });
  });

  it("counts successes and failures in the description prefix", () => {
    const img = { name: "gl", updateStrategy: "major", versions: [{ version: "1.0.0", expirationDate: EXPIRY }] };
    const s = shoot("1.10.0", { autoUpdate: { kubernetesVersion: true }, workers: [worker("w", "gl", "1.0.0")] });
    const out = maintain(s, profile([{ version: "1.10.5" }, { version: "1.10.0" }], [img]), AFTER);
    expect(out.shoot.status?.lastMaintenance?.description).toMatch(
      /^\(1\/2\) maintenance operations successful\. Control Plane: Updated/,
    );
  });

  it("removes fields forbidden by 1.33 when crossing it", () => {
    const s = shoot("1.32.9");
    s.spec.kubernetes.kubeControllerManager = { podEvictionTimeout: "2m" };
    const out = maintain(s, profile([{ version: "1.33.1" }, { version: "1.32.9", expirationDate: EXPIRY }]), AFTER);
    expect(out.shoot.spec.kubernetes.kubeControllerManager).toEqual({});
    expect(out.shoot.status?.lastMaintenance?.description).toContain(
      ".spec.kubernetes.kubeControllerManager.podEvictionTimeout is set to nil. Reason:",
    );
    expect(s.spec.kubernetes.kubeControllerManager).toEqual({ podEvictionTimeout: "2m" });
  });

  it("never modifies its input", () => {
    const s = shoot("1.10.0", {
      autoUpdate: { kubernetesVersion: true, machineImageVersion: true },
      workers: [worker("w", "gl", "1.0.0")],
    });
    const before = structuredClone(s);
    maintain(
      s,
      profile(
        [{ version: "1.10.5" }, { version: "1.10.0" }],
        [{ name: "gl", versions: [{ version: "2.0.0" }, { version: "1.0.0" }] }],
      ),
      AFTER,
    );
    expect(s).toEqual(before);
  });
});

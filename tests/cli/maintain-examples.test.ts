// `almanac maintain` on the worked examples of the Gardener documents (gardener/documentation:
// website/documentation/050-tutorials/content/howto/maintain-shoot/_index.md; Gardener:
// docs/usage/shoot-operations/shoot_versions.md) and on what Gardener's maintenance controller
// does beyond them (pkg/controllermanager/controller/shoot/maintenance/reconciler.go).
import { describe, expect, it } from "vitest";
import { byName, fixture, imageVersion, maintainJson } from "./run-almanac.ts";

const TASKS = "deployInfrastructure,deployDNSRecordInternal,deployDNSRecordExternal,deployDNSRecordIngress";
const NO_SUITABLE = (v: string) =>
  `cannot perform forceful update of expired version "${v}". No suitable version found in CloudProfile - this is most likely a misconfiguration of the CloudProfile`;

describe("maintain: Kubernetes versions", () => {
  it("auto-updates 1.10.0 to the latest patch 1.10.5, not to the minor 1.11.0", () => {
    const out = maintainJson([fixture("k8s-auto-patch.yaml")], "2024-07-01T22:10:00Z");
    expect(out.apiVersion).toBe("v1");
    expect(out.kind).toBe("List");
    expect(out.items).toHaveLength(1);
    const shoot = out.items[0];
    expect(shoot.kind).toBe("Shoot");
    expect(shoot.spec.kubernetes.version).toBe("1.10.5");
    expect(shoot.status?.lastMaintenance).toEqual({
      description:
        'All maintenance operations successful. Control Plane: Updated Kubernetes version from "1.10.0" to "1.10.5". Reason: Automatic update of Kubernetes version configured',
      triggeredTime: "2024-07-01T22:10:00Z",
      state: "Succeeded",
    });
  });

  it("leaves 1.10.12 alone in the window of 2019-04-12, before it expires", () => {
    const shoot = maintainJson([fixture("k8s-force-patch.yaml")], "2019-04-12T21:10:00Z").items[0];
    expect(shoot.spec.kubernetes.version).toBe("1.10.12");
    // Nothing changed and nothing failed before: no lastMaintenance is written.
    expect(shoot.status?.lastMaintenance).toBeUndefined();
    expect(shoot.metadata.annotations).toEqual({
      "gardener.cloud/operation": "reconcile",
      "shoot.gardener.cloud/tasks": TASKS,
    });
  });

  it("forces 1.10.12 to 1.10.13 in the window of 2019-04-14 although autoUpdate is false", () => {
    const shoot = maintainJson([fixture("k8s-force-patch.yaml")], "2019-04-14T21:10:00Z").items[0];
    expect(shoot.spec.kubernetes.version).toBe("1.10.13");
    expect(shoot.status?.lastMaintenance).toEqual({
      description:
        'All maintenance operations successful. Control Plane: Updated Kubernetes version from "1.10.12" to "1.10.13". Reason: Kubernetes version expired - force update required',
      triggeredTime: "2019-04-14T21:10:00Z",
      state: "Succeeded",
    });
  });

  // Gardener's CurrentLifecycleClassification: a stage applies once it starts strictly before now.
  it("treats an expiration date equal to --now as not yet expired, one second later as expired", () => {
    expect(
      maintainJson([fixture("k8s-force-patch.yaml")], "2019-04-13T08:00:00Z").items[0].spec.kubernetes.version,
    ).toBe("1.10.12");
    expect(
      maintainJson([fixture("k8s-force-patch.yaml")], "2019-04-13T08:00:01Z").items[0].spec.kubernetes.version,
    ).toBe("1.10.13");
  });

  it("moves to the next minor when the expired version is the latest patch (docs-force-minor)", () => {
    const shoot = maintainJson([fixture("docs-force-minor.yaml")], "2019-04-14T21:30:00Z").items[0];
    expect(shoot.spec.kubernetes.version).toBe("1.11.10");
    expect(imageVersion(shoot)).toBe("2191.5.0");
    expect(shoot.status?.lastMaintenance?.description).toBe(
      'All maintenance operations successful. Control Plane: Updated Kubernetes version from "1.10.12" to "1.11.10". Reason: Kubernetes version expired - force update required, ' +
        'Worker pool "name": Updated machine image "coreos" from "2135.6.0" to "2191.5.0". Reason: Machine image version expired - force update required (image update strategy: major)',
    );
  });

  it("forces a version removed from the profile (1.10.12) to 1.10.13, with autoUpdate false", () => {
    const shoot = maintainJson([fixture("k8s-removed.yaml")], "2025-03-02T00:00:00Z").items[0];
    expect(shoot.spec.kubernetes.version).toBe("1.10.13");
    expect(shoot.status?.lastMaintenance).toEqual({
      description:
        'All maintenance operations successful. Control Plane: Updated Kubernetes version from "1.10.12" to "1.10.13". Reason: Version does not exist in CloudProfile',
      triggeredTime: "2025-03-02T00:00:00Z",
      state: "Succeeded",
    });
  });

  it("fails on expired 1.24.12 when the profile only offers 1.26.x, and keeps the version", () => {
    const shoot = maintainJson([fixture("k8s-stuck.yaml")], "2024-02-01T03:10:00Z").items[0];
    expect(shoot.spec.kubernetes.version).toBe("1.24.12");
    expect(shoot.status?.lastMaintenance).toEqual({
      description:
        "(0/1) maintenance operations successful. Control Plane: Kubernetes version update failed. Reason for update: Kubernetes version expired - force update required",
      triggeredTime: "2024-02-01T03:10:00Z",
      state: "Failed",
      failureReason: `Control Plane: Kubernetes maintenance failure due to: could not determine higher suitable version than "1.24.12": ${NO_SUITABLE("1.24.12")}`,
    });
  });

  it("upgrades the stuck 1.24.12 shoot to 1.25.10 once the profile offers 1.25.x, replacing the failure", () => {
    const shoot = maintainJson([fixture("k8s-stuck-fixed.yaml")], "2024-02-02T03:10:00Z").items[0];
    expect(shoot.spec.kubernetes.version).toBe("1.25.10");
    expect(shoot.status?.lastMaintenance).toEqual({
      description:
        'All maintenance operations successful. Control Plane: Updated Kubernetes version from "1.24.12" to "1.25.10". Reason: Kubernetes version expired - force update required',
      triggeredTime: "2024-02-02T03:10:00Z",
      state: "Succeeded",
    });
  });
});

describe("maintain: machine images", () => {
  const gardenlinux = () => maintainJson([fixture("images-gardenlinux.yaml")], "2024-07-01T22:10:00Z");

  it("gardenlinux (strategy minor): 934.7.0 auto-updates to 934.8.0", () => {
    const shoot = byName(gardenlinux(), "glx-auto");
    expect(imageVersion(shoot)).toBe("934.8.0");
    expect(shoot.spec.kubernetes.version).toBe("1.31.4");
    expect(shoot.status?.lastMaintenance).toEqual({
      description:
        'All maintenance operations successful. Worker pool "pool-a": Updated machine image "gardenlinux" from "934.7.0" to "934.8.0". Reason: Automatic update of the machine image version is configured (image update strategy: minor)',
      triggeredTime: "2024-07-01T22:10:00Z",
      state: "Succeeded",
    });
  });

  it("gardenlinux (strategy minor): 934.8.0 stays, auto-update never leaves the major", () => {
    const shoot = byName(gardenlinux(), "glx-latest");
    expect(imageVersion(shoot)).toBe("934.8.0");
    expect(shoot.status?.lastMaintenance).toBeUndefined();
  });

  it("gardenlinux (strategy minor): expired 934.8.0 is forced to the next major 1096.1.0", () => {
    const shoot = byName(gardenlinux(), "glx-expired");
    expect(imageVersion(shoot)).toBe("1096.1.0");
    expect(shoot.status?.lastMaintenance).toEqual({
      description:
        'All maintenance operations successful. Worker pool "pool-a": Updated machine image "gardenlinux" from "934.8.0" to "1096.1.0". Reason: Machine image version expired - force update required (image update strategy: minor)',
      triggeredTime: "2024-07-01T22:10:00Z",
      state: "Succeeded",
    });
  });

  const suse = () => maintainJson([fixture("images-suse-chost.yaml")], "2024-07-01T23:15:00Z");

  it("suse-chost (strategy patch): 15.3.20220818 auto-updates to the latest patch 15.3.20221118", () => {
    const shoot = byName(suse(), "suse-auto");
    expect(imageVersion(shoot)).toBe("15.3.20221118");
    expect(shoot.status?.lastMaintenance?.description).toBe(
      'All maintenance operations successful. Worker pool "workers": Updated machine image "suse-chost" from "15.3.20220818" to "15.3.20221118". Reason: Automatic update of the machine image version is configured (image update strategy: patch)',
    );
  });

  it("suse-chost (strategy patch): the latest 15.3 expired without a higher minor fails", () => {
    const shoot = byName(suse(), "suse-eol");
    expect(imageVersion(shoot)).toBe("15.3.20221118");
    expect(shoot.status?.lastMaintenance).toEqual({
      description:
        '(0/1) maintenance operations successful. Worker pool "workers": machine image version maintenance failed. Reason for update: Machine image version expired - force update required (image update strategy: patch)',
      triggeredTime: "2024-07-01T23:15:00Z",
      state: "Failed",
      failureReason:
        'Worker pool "workers": failed to update machine image "suse-chost": failed to determine the target version for maintenance of machine image "suse-chost" with strategy "patch": ' +
        NO_SUITABLE("15.3.20221118"),
    });
  });

  it("suse-chost (strategy patch): a force update skips a minor that is only in preview (15.4) and takes 15.5's latest", () => {
    const shoot = byName(suse(), "suse-next");
    expect(imageVersion(shoot)).toBe("15.5.20230601");
    expect(shoot.status?.lastMaintenance?.state).toBe("Succeeded");
    expect(shoot.status?.lastMaintenance?.description).toContain(
      'Updated machine image "suse-chost" from "15.3.20221118" to "15.5.20230601". Reason: Machine image version expired - force update required (image update strategy: patch)',
    );
  });

  it("coreos: 2135.6.0 stays on 2019-04-12 and is forced to 2191.5.0 on 2019-04-14 (autoUpdate false)", () => {
    const before = maintainJson([fixture("images-coreos.yaml")], "2019-04-12T21:05:00Z").items[0];
    expect(imageVersion(before)).toBe("2135.6.0");
    expect(before.status?.lastMaintenance).toBeUndefined();

    const after = maintainJson([fixture("images-coreos.yaml")], "2019-04-14T21:05:00Z").items[0];
    expect(imageVersion(after)).toBe("2191.5.0");
    expect(after.spec.kubernetes.version).toBe("1.11.10");
    expect(after.status?.lastMaintenance).toEqual({
      description:
        'All maintenance operations successful. Worker pool "name": Updated machine image "coreos" from "2135.6.0" to "2191.5.0". Reason: Machine image version expired - force update required (image update strategy: major)',
      triggeredTime: "2019-04-14T21:05:00Z",
      state: "Succeeded",
    });
  });
});

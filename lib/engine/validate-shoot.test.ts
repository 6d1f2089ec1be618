// Shoot validation and manual version changes.
import { describe, expect, it } from "vitest";
import type { CloudProfile, Shoot, Worker } from "../gardener/types.ts";
import type { FieldError } from "./field-error.ts";
import { validateShoot, validateShootChange } from "./validate-shoot.ts";

const NOW = Date.parse("2024-06-01T00:00:00Z");
const PAST = "2024-01-01T00:00:00Z";
const FUTURE = "2025-01-01T00:00:00Z";

const PROFILE: CloudProfile = {
  metadata: { name: "aws" },
  spec: {
    type: "aws",
    kubernetes: {
      versions: [
        { version: "1.31.0", classification: "preview" },
        { version: "1.30.2" },
        { version: "1.30.1" },
        { version: "1.29.5" },
        { version: "1.29.4", expirationDate: PAST },
        { version: "1.29.3", expirationDate: FUTURE },
        { version: "1.28.9", expirationDate: PAST },
        { version: "1.28.1" },
        { version: "2.0.0" },
      ],
    },
    machineImages: [
      {
        name: "gardenlinux",
        updateStrategy: "minor",
        versions: [
          { version: "1592.1.0" },
          { version: "1443.3.0" },
          { version: "1443.2.0", expirationDate: PAST },
          { version: "934.8.0" },
        ],
      },
      { name: "ubuntu", versions: [{ version: "22.4.0" }, { version: "1.0.0" }] },
    ],
  },
};

const WINDOW = { begin: "220000+0100", end: "230000+0100" };

function worker(name: string, image?: { name: string; version?: string }, kubernetesVersion?: string): Worker {
  return {
    name,
    machine: { type: "m5.large", ...(image ? { image } : {}) },
    ...(kubernetesVersion !== undefined ? { kubernetes: { version: kubernetesVersion } } : {}),
  };
}

function shoot(
  version: string,
  workers: Worker[] = [],
  timeWindow: { begin: string; end: string } | undefined = WINDOW,
): Shoot {
  return {
    metadata: { name: "s", namespace: "garden-dev" },
    spec: {
      cloudProfileName: "aws",
      kubernetes: { version },
      provider: { type: "aws", workers },
      ...(timeWindow ? { maintenance: { timeWindow } } : {}),
    },
  };
}

const summary = (errors: readonly FieldError[]) => errors.map((e) => `${e.type} ${e.field}`);
const change = (prev: Shoot, next: Shoot) => validateShootChange(prev, next, PROFILE, NOW);
const CP = "spec.kubernetes.version";
const POOL = (i: number) => `spec.provider.workers[${i}].kubernetes.version`;
const IMAGE = (i: number) => `spec.provider.workers[${i}].machine.image.version`;
const IMAGE_NAME = (i: number) => `spec.provider.workers[${i}].machine.image.name`;

describe("validateShoot", () => {
  it("accepts a valid shoot, with or without a window", () => {
    expect(validateShoot(shoot("1.30.1"))).toEqual([]);
    expect(validateShoot(shoot("1.30.1", [], undefined))).toEqual([]);
  });

  it("requires a name and a Kubernetes version", () => {
    const s = shoot("");
    s.metadata.name = "";
    expect(summary(validateShoot(s))).toEqual(["Required metadata.name", `Required ${CP}`]);
  });

  it("validates the maintenance window", () => {
    expect(validateShoot(shoot("1.30.1", [], { begin: "220000+0000", end: "040001+0000" }))).toMatchObject([
      { type: "Invalid", field: "spec.maintenance.timeWindow", detail: "time window must not be greater than 6h0m0s" },
    ]);
    expect(validateShoot(shoot("1.30.1", [], { begin: "220000+0000", end: "222959+0000" }))).toMatchObject([
      { type: "Invalid", field: "spec.maintenance.timeWindow", detail: "time window must not be smaller than 30m0s" },
    ]);
    expect(summary(validateShoot(shoot("1.30.1", [], { begin: "240000+0000", end: "010000+0000" })))).toEqual([
      "Invalid spec.maintenance.timeWindow.begin/end",
    ]);
    expect(validateShoot(shoot("1.30.1", [], { begin: "230000+0000", end: "010000+0000" }))).toEqual([]);
  });
});

describe("validateShootChange: control plane", () => {
  it("allows a patch update and a consecutive minor update", () => {
    expect(change(shoot("1.30.1"), shoot("1.30.2"))).toEqual([]);
    expect(change(shoot("1.29.5"), shoot("1.30.2"))).toEqual([]);
  });

  it("forbids a downgrade", () => {
    const errors = change(shoot("1.30.2"), shoot("1.30.1"));
    expect(summary(errors)).toEqual([`Forbidden ${CP}`]);
    expect(errors[0].detail).toContain("downgrade");
    expect(summary(change(shoot("1.30.1"), shoot("1.29.5")))).toEqual([`Forbidden ${CP}`]);
  });

  it("forbids skipping a minor, and changing the major", () => {
    const errors = change(shoot("1.28.1"), shoot("1.30.1"));
    expect(summary(errors)).toEqual([`Forbidden ${CP}`]);
    expect(errors[0].detail).toContain("1.29");
    expect(summary(change(shoot("1.30.2"), shoot("2.0.0")))).toEqual([`Forbidden ${CP}`]);
  });

  it("forbids an expired target", () => {
    const errors = change(shoot("1.29.3"), shoot("1.29.4"));
    expect(summary(errors)).toEqual([`Forbidden ${CP}`]);
    expect(errors[0].detail).toContain("expired since 2024-01-01T00:00:00Z");
  });

  it("allows a target that expires in the future", () => {
    expect(change(shoot("1.28.9"), shoot("1.29.3"))).toEqual([]);
  });

  it("reports an unknown version as NotSupported and an unparsable one as Invalid", () => {
    const errors = change(shoot("1.30.1"), shoot("1.30.9"));
    expect(errors).toMatchObject([{ type: "NotSupported", field: CP, value: "1.30.9" }]);
    expect(errors[0].detail).toContain('"aws"');
    expect(summary(change(shoot("1.30.1"), shoot("1.30.x")))).toEqual([`Invalid ${CP}`]);
  });

  it("does not flag an unchanged expired (or even unknown) version", () => {
    expect(change(shoot("1.28.9"), shoot("1.28.9"))).toEqual([]);
    expect(change(shoot("1.27.0"), shoot("1.27.0"))).toEqual([]);
  });

  it("includes the window validation of the new shoot", () => {
    const next = shoot("1.30.2", [], { begin: "100000+0000", end: "100000+0000" });
    expect(summary(change(shoot("1.30.1"), next))).toEqual(["Invalid spec.maintenance.timeWindow"]);
  });
});

describe("validateShootChange: worker pool Kubernetes versions", () => {
  it("forbids a pool version above the control plane", () => {
    const prev = shoot("1.29.5", [worker("a", undefined, "1.29.5")]);
    const next = shoot("1.29.5", [worker("a", undefined, "1.30.1")]);
    const errors = change(prev, next);
    expect(summary(errors)).toEqual([`Forbidden ${POOL(0)}`]);
    expect(errors[0].detail).toContain('control plane version "1.29.5"');
  });

  it("allows a pool at the new control-plane version when both move", () => {
    const prev = shoot("1.29.5", [worker("a", undefined, "1.29.5")]);
    const next = shoot("1.30.1", [worker("a", undefined, "1.30.1")]);
    expect(change(prev, next)).toEqual([]);
  });

  it("applies the target rules to the pool, using the index in the new shoot", () => {
    const prev = shoot("1.30.2", [worker("a", undefined, "1.30.1"), worker("b", undefined, "1.29.5")]);
    // b: downgrade; c (new pool, from the old control plane 1.30.2): expired 1.29.4; a: unknown.
    const next = shoot("1.30.2", [
      worker("c", undefined, "1.29.4"),
      worker("b", undefined, "1.29.3"),
      worker("a", undefined, "1.30.7"),
    ]);
    expect(summary(change(prev, next))).toEqual([
      `Forbidden ${POOL(0)}`,
      `Forbidden ${POOL(1)}`,
      `NotSupported ${POOL(2)}`,
    ]);
  });

  it("a pool that newly sets a version is compared with the old control plane version", () => {
    const prev = shoot("1.30.1", [worker("a")]);
    expect(summary(change(prev, shoot("1.30.1", [worker("a", undefined, "1.29.5")])))).toEqual([
      `Forbidden ${POOL(0)}`,
    ]);
    expect(change(prev, shoot("1.30.1", [worker("a", undefined, "1.30.1")]))).toEqual([]);
  });

  it("does not flag an unchanged expired pool version", () => {
    const s = shoot("1.29.5", [worker("a", undefined, "1.28.9")]);
    expect(change(s, s)).toEqual([]);
  });
});

describe("validateShootChange: machine images", () => {
  const gl = (version: string) => ({ name: "gardenlinux", version });

  it("allows an update to an offered version", () => {
    expect(
      change(shoot("1.30.1", [worker("a", gl("1443.3.0"))]), shoot("1.30.1", [worker("a", gl("1592.1.0"))])),
    ).toEqual([]);
  });

  it("forbids a downgrade", () => {
    const errors = change(
      shoot("1.30.1", [worker("a", gl("1443.3.0"))]),
      shoot("1.30.1", [worker("a", gl("934.8.0"))]),
    );
    expect(summary(errors)).toEqual([`Forbidden ${IMAGE(0)}`]);
    expect(errors[0].detail).toContain("downgrade");
  });

  it("reports an unknown version or image as NotSupported", () => {
    expect(
      summary(change(shoot("1.30.1", [worker("a", gl("1443.3.0"))]), shoot("1.30.1", [worker("a", gl("1443.9.0"))]))),
    ).toEqual([`NotSupported ${IMAGE(0)}`]);
    expect(
      summary(
        change(
          shoot("1.30.1", [worker("a", gl("1443.3.0"))]),
          shoot("1.30.1", [worker("a", { name: "coreos", version: "1443.3.0" })]),
        ),
      ),
    ).toEqual([`NotSupported ${IMAGE_NAME(0)}`]);
  });

  it("forbids an expired version", () => {
    const errors = change(
      shoot("1.30.1", [worker("a", gl("934.8.0"))]),
      shoot("1.30.1", [worker("a", gl("1443.2.0"))]),
    );
    expect(summary(errors)).toEqual([`Forbidden ${IMAGE(0)}`]);
    expect(errors[0].detail).toContain("expired");
  });

  it("does not flag an unchanged expired image version", () => {
    const s = shoot("1.30.1", [worker("a", gl("1443.2.0"))]);
    expect(change(s, s)).toEqual([]);
  });

  it("switching to another image is not a downgrade", () => {
    expect(
      change(
        shoot("1.30.1", [worker("a", gl("1443.3.0"))]),
        shoot("1.30.1", [worker("a", { name: "ubuntu", version: "1.0.0" })]),
      ),
    ).toEqual([]);
  });

  it("checks a new pool's image, at its index in the new shoot", () => {
    const prev = shoot("1.30.1", [worker("a", gl("1443.3.0"))]);
    const next = shoot("1.30.1", [worker("a", gl("1443.3.0")), worker("b", gl("1443.2.0"))]);
    expect(summary(change(prev, next))).toEqual([`Forbidden ${IMAGE(1)}`]);
  });

  it("reports control-plane, pool and image errors together", () => {
    const prev = shoot("1.29.5", [worker("a", gl("1443.3.0"), "1.29.5")]);
    const next = shoot("1.28.1", [worker("a", gl("934.8.0"), "1.29.4")]);
    expect(summary(change(prev, next))).toEqual([`Forbidden ${CP}`, `Forbidden ${POOL(0)}`, `Forbidden ${IMAGE(0)}`]);
  });
});

describe("validateShootChange: switching a pool to another image", () => {
  const profile: CloudProfile = {
    ...PROFILE,
    spec: {
      ...PROFILE.spec,
      machineTypes: [{ name: "m5.large", architecture: "amd64" }],
      machineImages: [
        ...(PROFILE.spec.machineImages ?? []),
        {
          name: "suse",
          versions: [
            { version: "15.6.0", architectures: ["arm64"] },
            { version: "15.5.0", kubeletVersionConstraint: ">= 1.31" },
            { version: "15.4.0", cri: [{ name: "containerd", containerRuntimes: [{ type: "gvisor" }] }] },
            { version: "15.3.0", cri: [{ name: "docker" }] },
            { version: "15.2.0", expirationDate: PAST },
            { version: "15.1.0" },
          ],
        },
      ],
    },
  };
  const gl = worker("a", { name: "gardenlinux", version: "1592.1.0" });
  const suse = (version: string, changes: Partial<Worker> = {}) =>
    shoot("1.30.1", [{ ...worker("a", { name: "suse", version }), ...changes }]);
  const switchTo = (version: string, changes: Partial<Worker> = {}) =>
    validateShootChange(shoot("1.30.1", [{ ...gl, ...changes }]), suse(version, changes), profile, NOW);

  it("allows an image and version that can run the pool, even an older version number", () => {
    expect(switchTo("15.1.0")).toEqual([]);
    expect(switchTo("15.4.0")).toEqual([]);
  });

  it("refuses an image the profile does not offer, naming the images it does", () => {
    const errors = validateShootChange(
      shoot("1.30.1", [gl]),
      shoot("1.30.1", [worker("a", { name: "flatcar", version: "1.0.0" })]),
      profile,
      NOW,
    );
    expect(summary(errors)).toEqual([`NotSupported ${IMAGE_NAME(0)}`]);
    expect(errors[0].detail).toContain("gardenlinux, ubuntu, suse");
  });

  it("refuses a version of the other image that is not offered or expired", () => {
    expect(summary(switchTo("15.9.0"))).toEqual([`NotSupported ${IMAGE(0)}`]);
    expect(switchTo("15.2.0")[0].detail).toContain("expired");
  });

  it("refuses a version built for another architecture", () => {
    const errors = switchTo("15.6.0");
    expect(summary(errors)).toEqual([`Forbidden ${IMAGE(0)}`]);
    expect(errors[0].detail).toBe(
      'machine image "suse" version "15.6.0" cannot run worker pool "a": it is not built for the pool\'s architecture "amd64" (only arm64)',
    );
    expect(switchTo("15.6.0", { machine: { type: "m5.large", architecture: "arm64" } })).toEqual([]);
  });

  it("refuses a version whose kubelet constraint the pool's kubelet does not meet", () => {
    expect(switchTo("15.5.0")[0].detail).toContain('requires a kubelet version ">= 1.31" and the pool\'s is "1.30.1"');
  });

  it("refuses a version without the pool's container runtime interface or runtimes", () => {
    expect(switchTo("15.3.0")[0].detail).toContain('container runtime interface "containerd"');
    expect(switchTo("15.3.0", { cri: { name: "docker" } })).toEqual([]);
    expect(
      switchTo("15.1.0", { cri: { name: "containerd", containerRuntimes: [{ type: "gvisor" }] } })[0].detail,
    ).toContain('container runtime "gvisor"');
  });

  it("checks another version of the same image as it checks another image", () => {
    const update = (from: string, to: string, changes: Partial<Worker> = {}) =>
      validateShootChange(suse(from, changes), suse(to, changes), profile, NOW);
    const errors = update("15.1.0", "15.6.0");
    expect(summary(errors)).toEqual([`Forbidden ${IMAGE(0)}`]);
    expect(errors[0].detail).toContain('not built for the pool\'s architecture "amd64"');
    expect(update("15.1.0", "15.5.0")[0].detail).toContain('requires a kubelet version ">= 1.31"');
    expect(update("15.1.0", "15.4.0")).toEqual([]);
  });

  it("refuses another image for a pool updated in place", () => {
    const errors = switchTo("15.1.0", { updateStrategy: "AutoInPlaceUpdate" });
    expect(summary(errors)).toEqual([`Forbidden ${IMAGE_NAME(0)}`]);
    expect(errors[0].detail).toContain("in place");
  });
});

describe("validateShootChange: tolerations the garden admitted", () => {
  const withTolerations = (s: Shoot, tolerations: Shoot["spec"]["tolerations"]): Shoot => ({
    ...s,
    spec: { ...s.spec, tolerations },
  });
  // A key this copy of Gardener's label-name rule refuses, as a garden may still have admitted it.
  const ODD = [{ key: "Odd_Key/x" }, { key: "gpu", value: "not a label value" }];

  it("lets a shoot with such tolerations change its maintenance window", () => {
    const before = withTolerations(shoot("1.30.1"), ODD);
    const after = withTolerations(shoot("1.30.1", [], { begin: "010000+0000", end: "020000+0000" }), ODD);
    expect(change(before, after)).toEqual([]);
    // On its own (a create, or the maintenance's dry run), Gardener's rule still applies.
    expect(summary(validateShoot(after))).toEqual([
      "Invalid spec.tolerations[0].key",
      "Invalid spec.tolerations[1].value",
    ]);
  });

  it("checks the format of new tolerations only, and a missing key and duplicates on the changed list", () => {
    const before = withTolerations(shoot("1.30.1"), ODD);
    const after = withTolerations(shoot("1.30.1"), [...ODD, { key: "bad key" }, { key: "" }, { key: "gpu" }]);
    expect(summary(change(before, after))).toEqual([
      "Invalid spec.tolerations[2].key",
      "Required spec.tolerations[3].key",
    ]);
    const dup = withTolerations(shoot("1.30.1"), [{ key: "gpu" }, ...ODD]);
    expect(summary(change(before, dup))).toEqual(["Duplicate spec.tolerations[2]"]);
  });
});

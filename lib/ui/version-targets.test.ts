import { describe, expect, it } from "vitest";
import type { CloudProfile, ExpirableVersion, Worker } from "../gardener/types";
import { isMinorUpdate, kubernetesUpdateTargets, machineImageTargets } from "./version-targets";

const NOW = Date.parse("2026-11-23T09:00:00Z");

const PROFILE: ExpirableVersion[] = [
  { version: "1.34.2", classification: "preview" },
  { version: "1.34.1", classification: "supported" },
  { version: "1.33.6", classification: "supported" },
  { version: "1.33.5", classification: "deprecated", expirationDate: "2027-04-21T09:00:00Z" },
  { version: "1.32.9", classification: "supported", expirationDate: "2027-06-20T09:00:00Z" },
  { version: "1.32.8", classification: "deprecated", expirationDate: "2027-03-22T09:00:00Z" },
  { version: "1.32.7", classification: "deprecated", expirationDate: "2027-01-06T09:00:00Z" },
  { version: "1.31.13", classification: "supported", expirationDate: "2027-01-21T09:00:00Z" },
  { version: "1.31.12", classification: "deprecated", expirationDate: "2026-12-10T09:00:00Z" },
  { version: "1.31.11", classification: "deprecated", expirationDate: "2026-11-10T09:00:00Z" },
  { version: "1.31.10", classification: "deprecated", expirationDate: "2026-11-01T09:00:00Z" },
];

const versions = (list: readonly { version: string }[]) => list.map((t) => t.version);

describe("kubernetesUpdateTargets", () => {
  it("offers newer, non-expired patches of the current minor, newest first", () => {
    const targets = kubernetesUpdateTargets(PROFILE, "1.31.10", NOW);
    // 1.31.11 expired on 10 Nov 2026: it is not offered.
    expect(versions(targets.patch)).toEqual(["1.31.13", "1.31.12"]);
    expect(targets.patch[0]).toEqual({
      version: "1.31.13",
      classification: "supported",
      expiresAt: "2027-01-21T09:00:00.000Z",
      recommended: true,
    });
    expect(targets.patch[1]).toMatchObject({ classification: "deprecated", recommended: false });
  });

  it("offers only the next minor and names the later ones", () => {
    const targets = kubernetesUpdateTargets(PROFILE, "1.31.10", NOW);
    expect(targets.nextMinorLine).toBe("1.32");
    expect(versions(targets.nextMinor)).toEqual(["1.32.9", "1.32.8", "1.32.7"]);
    expect(targets.nextMinor.filter((t) => t.recommended).map((t) => t.version)).toEqual(["1.32.9"]);
    expect(targets.laterLines).toEqual(["1.33", "1.34"]);
  });

  it("keeps preview versions, marked as such, and never recommends them", () => {
    const targets = kubernetesUpdateTargets(PROFILE, "1.33.6", NOW);
    expect(targets.patch).toEqual([]);
    expect(targets.nextMinor.map((t) => [t.version, t.classification, t.recommended])).toEqual([
      ["1.34.2", "preview", false],
      ["1.34.1", "supported", true],
    ]);
    expect(targets.laterLines).toEqual([]);
  });

  it("offers nothing from the newest version, nor anything older", () => {
    const targets = kubernetesUpdateTargets(PROFILE, "1.34.2", NOW);
    expect(targets.patch).toEqual([]);
    expect(targets.nextMinor).toEqual([]);
    expect(targets.nextMinorLine).toBe("1.35");
  });

  it("follows lifecycles: a version not yet available is not offered, one that turns expired later is", () => {
    const profile: ExpirableVersion[] = [
      { version: "1.32.1", lifecycle: [{ classification: "preview", startTime: "2027-01-01T00:00:00Z" }] },
      {
        version: "1.32.0",
        lifecycle: [{ classification: "supported" }, { classification: "expired", startTime: "2027-02-01T00:00:00Z" }],
      },
    ];
    const targets = kubernetesUpdateTargets(profile, "1.31.5", NOW);
    expect(targets.nextMinor).toEqual([
      { version: "1.32.0", classification: "supported", expiresAt: "2027-02-01T00:00:00.000Z", recommended: true },
    ]);
  });

  it("offers nothing for an unreadable current version", () => {
    expect(kubernetesUpdateTargets(PROFILE, "latest", NOW)).toMatchObject({ patch: [], nextMinor: [], laterLines: [] });
  });
});

describe("isMinorUpdate", () => {
  it("tells minor and major updates from patches", () => {
    expect(isMinorUpdate("1.31.10", "1.31.13")).toBe(false);
    expect(isMinorUpdate("1.31.10", "1.32.0")).toBe(true);
    expect(isMinorUpdate("1.31.10", "2.0.0")).toBe(true);
  });
});

describe("machineImageTargets", () => {
  const profile = {
    metadata: { name: "p" },
    spec: {
      kubernetes: { versions: [] },
      machineImages: [
        {
          name: "gardenlinux",
          versions: [
            { version: "1877.4.0", classification: "preview", architectures: ["amd64", "arm64"] },
            { version: "1877.3.0", classification: "supported", architectures: ["amd64", "arm64"] },
            { version: "1877.2.5", classification: "supported", architectures: ["amd64"] },
            {
              version: "1877.2.1",
              classification: "supported",
              kubeletVersionConstraint: ">= 1.33",
              architectures: ["arm64"],
            },
            {
              version: "1877.2.0",
              classification: "deprecated",
              expirationDate: "2026-11-01T00:00:00Z",
              architectures: ["arm64"],
            },
            { version: "1800.0.0", classification: "supported", architectures: ["arm64"] },
          ],
        },
        {
          name: "suse-chost",
          versions: [
            { version: "15.7.0", classification: "preview", architectures: ["arm64"] },
            {
              version: "15.6.1",
              classification: "supported",
              architectures: ["arm64"],
              kubeletVersionConstraint: ">= 1.33",
            },
            { version: "15.6.0", classification: "supported", architectures: ["arm64"] },
            { version: "15.5.0", classification: "supported", architectures: ["amd64"] },
            {
              version: "15.4.0",
              classification: "deprecated",
              expirationDate: "2026-11-01T00:00:00Z",
              architectures: ["arm64"],
            },
          ],
        },
        { name: "ubuntu", versions: [{ version: "24.4.0", classification: "supported", architectures: ["amd64"] }] },
      ],
    },
  } as unknown as CloudProfile;
  const pool = (architecture: string, version = "1800.0.0") =>
    ({
      name: "arm",
      machine: { type: "m", architecture, image: { name: "gardenlinux", version } },
    }) as unknown as Worker;

  it("offers newer, non-expired versions built for the pool's architecture and kubelet", () => {
    const targets = machineImageTargets(profile, pool("arm64"), "1.32.4", NOW)!;
    // 1877.2.5 is amd64 only, 1877.2.1 needs kubelet 1.33, 1877.2.0 expired.
    expect(targets.targets.map((t) => [t.version, t.classification, t.recommended])).toEqual([
      ["1877.4.0", "preview", false],
      ["1877.3.0", "supported", true],
    ]);
    expect(targets).toMatchObject({
      pool: "arm",
      image: "gardenlinux",
      current: "1800.0.0",
      currentClassification: "supported",
    });
    expect(machineImageTargets(profile, pool("arm64"), "1.33.1", NOW)!.targets.map((t) => t.version)).toContain(
      "1877.2.1",
    );
  });

  it("offers nothing for a pool on the newest version or an image the profile does not offer", () => {
    expect(machineImageTargets(profile, pool("amd64", "1877.4.0"), "1.32.4", NOW)!.targets).toEqual([]);
    const unknown = {
      name: "x",
      machine: { type: "m", image: { name: "coreos", version: "1.0.0" } },
    } as unknown as Worker;
    expect(machineImageTargets(profile, unknown, "1.32.4", NOW)).toMatchObject({ image: "coreos", targets: [] });
  });

  it("offers the profile's other images with the versions that can run the pool, even without a newer version", () => {
    const targets = machineImageTargets(profile, pool("arm64", "1877.4.0"), "1.32.4", NOW)!;
    expect(targets.targets).toEqual([]);
    // 15.6.1 needs kubelet 1.33, 15.5.0 is amd64 only, 15.4.0 expired; ubuntu has no arm64 version.
    expect(targets.otherImages.map((o) => [o.image, o.targets.map((t) => [t.version, t.recommended])])).toEqual([
      [
        "suse-chost",
        [
          ["15.7.0", false],
          ["15.6.0", true],
        ],
      ],
    ]);
    expect(machineImageTargets(profile, pool("amd64"), "1.32.4", NOW)!.otherImages).toEqual([
      { image: "suse-chost", targets: [{ version: "15.5.0", classification: "supported", recommended: true }] },
      { image: "ubuntu", targets: [{ version: "24.4.0", classification: "supported", recommended: true }] },
    ]);
  });

  it("offers no other image to a pool updated in place", () => {
    const inPlace = { ...pool("arm64"), updateStrategy: "AutoInPlaceUpdate" } as Worker;
    expect(machineImageTargets(profile, inPlace, "1.32.4", NOW)!.otherImages).toEqual([]);
  });
});

// The API server's check of a changed machine image version (Gardener's shoot validator admission,
// validateMachineImagesConstraints), and how a maintenance run ends when it refuses the update.
import { describe, expect, it } from "vitest";
import { at, profile, shoot, worker } from "../../tests/support/builders.ts";
import type { ExpirableVersion } from "../gardener/types.ts";
import { imageVersionAdmission } from "./image-version-admission.ts";
import { maintain } from "./maintain.ts";

const NOW = at("2026-11-27T22:30:00Z");
const LATER = "2027-01-01T00:00:00Z";
const PAST = "2026-01-01T00:00:00Z";

const gl = (versions: ExpirableVersion[]) => ({ name: "gardenlinux", updateStrategy: "major", versions });
const withImage = (version: string) =>
  shoot("1.31.1", { autoUpdate: { machineImageVersion: true }, workers: [worker("pool", "gardenlinux", version)] });

describe("imageVersionAdmission", () => {
  const p = profile(
    [{ version: "1.31.1" }],
    [
      gl([
        { version: "1.3.0", lifecycle: [{ classification: "supported", startTime: LATER }] },
        { version: "1.2.0" },
        { version: "1.1.0", expirationDate: PAST },
        { version: "1.0.0" },
      ]),
    ],
  );

  it("admits an unchanged image, whatever its classification", () => {
    expect(imageVersionAdmission(withImage("1.3.0"), withImage("1.3.0"), p, NOW)).toBeUndefined();
  });

  it("admits a change to an active version", () => {
    expect(imageVersionAdmission(withImage("1.0.0"), withImage("1.2.0"), p, NOW)).toBeUndefined();
  });

  it("admits an expired version that is not lower than the current one, refuses a lower one", () => {
    expect(imageVersionAdmission(withImage("1.0.0"), withImage("1.1.0"), p, NOW)).toBeUndefined();
    expect(imageVersionAdmission(withImage("1.1.0"), withImage("1.1.0"), p, NOW)).toBeUndefined();
    const refused = imageVersionAdmission(withImage("1.2.0"), withImage("1.1.0"), p, NOW);
    expect(refused).toBe(
      'shoots.core.gardener.cloud "my-shoot" is forbidden: spec.provider.workers[0].machine.image: Invalid value: ' +
        '{"name":"gardenlinux","version":"1.1.0"}: machine image version \'gardenlinux:1.1.0\' is expired, ' +
        "supported machine image versions are: [gardenlinux:1.0.0 gardenlinux:1.2.0]",
    );
  });

  it("refuses a version not yet available, and admits it a moment after its first stage starts", () => {
    expect(imageVersionAdmission(withImage("1.2.0"), withImage("1.3.0"), p, NOW)).toMatch(
      /machine image version 'gardenlinux:1\.3\.0' is expired, supported machine image versions are: \[gardenlinux:1\.0\.0 gardenlinux:1\.2\.0\]$/,
    );
    expect(imageVersionAdmission(withImage("1.2.0"), withImage("1.3.0"), p, Date.parse(LATER))).toMatch(/forbidden/);
    expect(imageVersionAdmission(withImage("1.2.0"), withImage("1.3.0"), p, Date.parse(LATER) + 1)).toBeUndefined();
  });

  it("does not judge a pool the shoot did not have before", () => {
    const before = shoot("1.31.1", { workers: [] });
    expect(imageVersionAdmission(before, withImage("1.3.0"), p, NOW)).toBeUndefined();
  });
});

describe("maintenance against the image admission", () => {
  it("an auto-update to a machine image version not yet available fails and leaves the shoot unchanged", () => {
    const p = profile(
      [{ version: "1.31.2" }, { version: "1.31.1" }],
      [
        gl([
          { version: "1.3.0", lifecycle: [{ classification: "supported", startTime: LATER }] },
          { version: "1.2.0" },
        ]),
      ],
    );
    const s = shoot("1.31.1", {
      autoUpdate: { kubernetesVersion: true, machineImageVersion: true },
      workers: [worker("pool", "gardenlinux", "1.2.0")],
    });
    const out = maintain(s, p, NOW);
    expect(out.rejected).toBe(true);
    expect(out.shoot.spec).toEqual(s.spec);
    expect(out.shoot.status?.lastMaintenance).toEqual({
      description: "Maintenance failed",
      triggeredTime: "2026-11-27T22:30:00Z",
      state: "Failed",
      failureReason:
        'Updates to the Shoot failed to be applied: shoots.core.gardener.cloud "my-shoot" is forbidden: ' +
        'spec.provider.workers[0].machine.image: Invalid value: {"name":"gardenlinux","version":"1.3.0"}: ' +
        "machine image version 'gardenlinux:1.3.0' is expired, supported machine image versions are: [gardenlinux:1.2.0]",
    });
  });

  it("an auto-update to a Kubernetes version not yet available is applied (checked only on create or a new pool)", () => {
    const p = profile([
      { version: "1.31.2", lifecycle: [{ classification: "supported", startTime: LATER }] },
      { version: "1.31.1" },
    ]);
    const out = maintain(shoot("1.31.1", { autoUpdate: { kubernetesVersion: true } }), p, NOW);
    expect(out.rejected).toBe(false);
    expect(out.shoot.spec.kubernetes.version).toBe("1.31.2");
    expect(out.shoot.status?.lastMaintenance?.state).toBe("Succeeded");
  });

  it("a version in preview since a stage without a start is skipped by the auto-update", () => {
    const p = profile([
      {
        version: "1.31.2",
        lifecycle: [
          { classification: "preview", startTime: null as unknown as string },
          { classification: "supported", startTime: LATER },
        ],
      },
      { version: "1.31.1" },
    ]);
    const out = maintain(shoot("1.31.1", { autoUpdate: { kubernetesVersion: true } }), p, NOW);
    expect(out.shoot.spec.kubernetes.version).toBe("1.31.1");
    expect(out.requirePatch).toBe(false);
  });
});

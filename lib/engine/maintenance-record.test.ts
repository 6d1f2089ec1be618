// What one maintenance records for history: the changes, Gardener's lastMaintenance description,
// the state and whether the spec changed.
import { describe, expect, it } from "vitest";
import { at, profile, shoot, worker } from "../../tests/support/builders.ts";
import type { Shoot } from "../gardener/types.ts";
import { maintain, type MaintainOptions } from "./maintain.ts";
import { maintenanceRecord } from "./maintenance-record.ts";

const EXPIRY = "2019-04-13T08:00:00Z";
const NOW = at("2019-04-14T22:30:00Z");

function record(s: Shoot, p: ReturnType<typeof profile>, options?: MaintainOptions) {
  return maintenanceRecord(maintain(s, p, NOW, options), s.spec);
}

describe("maintenanceRecord", () => {
  it("records the forced update of an expired Kubernetes version", () => {
    const r = record(
      shoot("1.10.12"),
      profile([{ version: "1.10.13" }, { version: "1.10.12", expirationDate: EXPIRY }]),
    );
    expect(r.changes).toEqual([
      {
        target: "controlPlane",
        kind: "kubernetes",
        from: "1.10.12",
        to: "1.10.13",
        reason: "Kubernetes version expired - force update required",
        successful: true,
        description: 'Updated Kubernetes version from "1.10.12" to "1.10.13"',
      },
    ]);
    expect(r.state).toBe("Succeeded");
    expect(r.specChanged).toBe(true);
    expect(r).not.toHaveProperty("failureReason");
    expect(r.description).toBe(
      'All maintenance operations successful. Control Plane: Updated Kubernetes version from "1.10.12" to "1.10.13". Reason: Kubernetes version expired - force update required',
    );
  });

  it("records nothing when there is nothing to do", () => {
    const r = record(
      shoot("1.10.13", { workers: [worker("pool-a", "gardenlinux", "934.8.0")] }),
      profile([{ version: "1.10.13" }], [{ name: "gardenlinux", versions: [{ version: "934.8.0" }] }]),
    );
    expect(r).toEqual({
      changes: [],
      description: "No maintenance operations were needed.",
      state: "Succeeded",
      specChanged: false,
    });
  });

  it("records a stuck shoot (expired, nothing higher to go to) as Failed with the reason", () => {
    const r = record(
      shoot("1.24.12"),
      profile([{ version: "1.26.10" }, { version: "1.24.12", expirationDate: EXPIRY }]),
    );
    expect(r.state).toBe("Failed");
    expect(r.specChanged).toBe(false);
    expect(r.changes).toEqual([
      expect.objectContaining({ target: "controlPlane", kind: "kubernetes", from: "1.24.12", successful: false }),
    ]);
    expect(r.changes[0]).not.toHaveProperty("to");
    expect(r.description).toBe(
      "(0/1) maintenance operations successful. Control Plane: Kubernetes version update failed. Reason for update: Kubernetes version expired - force update required",
    );
    expect(r.failureReason).toMatch(
      /^Control Plane: Kubernetes maintenance failure due to: could not determine higher suitable version than "1\.24\.12"/,
    );
  });

  it("records machine image changes with the worker pool as target", () => {
    const gardenlinux = {
      name: "gardenlinux",
      updateStrategy: "minor",
      versions: [{ version: "1096.1.0" }, { version: "934.8.0", expirationDate: EXPIRY }],
    };
    const s = shoot("1.10.13", {
      workers: [worker("pool-a", "gardenlinux", "934.8.0"), worker("pool-b", "gardenlinux", "1096.1.0")],
    });
    const r = record(s, profile([{ version: "1.10.13" }], [gardenlinux]));
    expect(r.changes).toEqual([
      {
        target: "pool-a",
        kind: "machineImage",
        from: "934.8.0",
        to: "1096.1.0",
        reason: "Machine image version expired - force update required (image update strategy: minor)",
        successful: true,
        description: 'Updated machine image "gardenlinux" from "934.8.0" to "1096.1.0"',
      },
    ]);
    expect(r.state).toBe("Succeeded");
    expect(r.specChanged).toBe(true);
    expect(r.description).toContain(
      'Worker pool "pool-a": Updated machine image "gardenlinux" from "934.8.0" to "1096.1.0"',
    );
  });

  it("records a worker pool's Kubernetes version under the pool's name", () => {
    const p = profile([{ version: "1.10.13" }, { version: "1.10.12", expirationDate: EXPIRY }]);
    const s = shoot("1.10.13", {
      workers: [worker("pool-a", "gardenlinux", "934.8.0", { kubernetes: { version: "1.10.12" } })],
    });
    const r = record(s, p);
    expect(r.changes).toEqual([
      expect.objectContaining({
        target: "pool-a",
        kind: "kubernetes",
        from: "1.10.12",
        to: "1.10.13",
        successful: true,
      }),
    ]);
    expect(r.specChanged).toBe(true);
  });

  it("records a rejected update as Failed without a spec change", () => {
    const p = profile([{ version: "1.10.13" }, { version: "1.10.12", expirationDate: EXPIRY }]);
    const r = record(shoot("1.10.12"), p, { dryRun: () => "admission webhook denied the request" });
    expect(r.state).toBe("Failed");
    expect(r.specChanged).toBe(false);
    expect(r.description).toBe("Maintenance failed");
    expect(r.failureReason).toBe("Updates to the Shoot failed to be applied: admission webhook denied the request");
  });

  it("records a shoot whose earlier maintenance failed, now with nothing to do, as Succeeded", () => {
    const s = shoot("1.10.13", {
      status: {
        lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100 },
        lastMaintenance: {
          description: "earlier",
          triggeredTime: "2019-04-13T22:30:00Z",
          state: "Failed",
          failureReason: "earlier failure",
        },
      },
    });
    const r = record(s, profile([{ version: "1.10.13" }]));
    expect(r).toEqual({
      changes: [],
      description: "No maintenance operations were needed.",
      state: "Succeeded",
      specChanged: false,
    });
  });
});

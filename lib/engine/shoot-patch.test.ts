// The patch a user may send: a pool's machine image (its name with a version), applied and audited.
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import { applyShootPatch, changedFields, shootPatchSchema } from "./shoot-patch.ts";

const SHOOT: Shoot = {
  metadata: { name: "s", namespace: "garden-dev" },
  spec: {
    cloudProfileName: "aws",
    kubernetes: { version: "1.30.1" },
    provider: {
      type: "aws",
      workers: [
        { name: "a", machine: { type: "m5.large", image: { name: "gardenlinux", version: "1592.1.0" } } },
        { name: "b", machine: { type: "m5.large", image: { name: "gardenlinux", version: "1592.1.0" } } },
      ],
    },
  },
};

const pools = (...workers: unknown[]) => ({ spec: { provider: { workers } } });

describe("shootPatchSchema: a pool's machine image", () => {
  it("accepts a version, or a name with its version", () => {
    expect(shootPatchSchema.safeParse(pools({ name: "a", machine: { image: { version: "1.0.0" } } })).success).toBe(
      true,
    );
    expect(
      shootPatchSchema.safeParse(pools({ name: "a", machine: { image: { name: "suse", version: "15.1.0" } } })).success,
    ).toBe(true);
  });

  it("refuses a name without a version, and unknown fields", () => {
    expect(shootPatchSchema.safeParse(pools({ name: "a", machine: { image: { name: "suse" } } })).success).toBe(false);
    expect(
      shootPatchSchema.safeParse(pools({ name: "a", machine: { image: { version: "1.0.0", flavor: "x" } } })).success,
    ).toBe(false);
    expect(
      shootPatchSchema.safeParse(pools({ name: "a", machine: { image: { name: "", version: "1" } } })).success,
    ).toBe(false);
  });
});

describe("applyShootPatch and changedFields: another image", () => {
  it("sets the name and the version of the pool named, and records both", () => {
    const patch = shootPatchSchema.parse(pools({ name: "b", machine: { image: { name: "suse", version: "15.1.0" } } }));
    const { shoot } = applyShootPatch(SHOOT, patch);
    expect(shoot?.spec.provider?.workers?.map((w) => w.machine.image)).toEqual([
      { name: "gardenlinux", version: "1592.1.0" },
      { name: "suse", version: "15.1.0" },
    ]);
    expect(changedFields(SHOOT, shoot!)).toEqual([
      { field: "spec.provider.workers[name=b].machine.image.name", before: "gardenlinux", after: "suse" },
      { field: "spec.provider.workers[name=b].machine.image.version", before: "1592.1.0", after: "15.1.0" },
    ]);
  });

  it("keeps the name when only the version is given", () => {
    const patch = shootPatchSchema.parse(pools({ name: "a", machine: { image: { version: "1600.0.0" } } }));
    const { shoot } = applyShootPatch(SHOOT, patch);
    expect(shoot?.spec.provider?.workers?.[0].machine.image).toEqual({ name: "gardenlinux", version: "1600.0.0" });
    expect(changedFields(SHOOT, shoot!).map((c) => c.field)).toEqual([
      "spec.provider.workers[name=a].machine.image.version",
    ]);
  });
});

describe("applyShootPatch and changedFields: spec.tolerations", () => {
  const tolerating: Shoot = {
    ...SHOOT,
    spec: { ...SHOOT.spec, tolerations: [{ key: "dedicated", value: "payments" }] },
  };

  it("replaces the whole list, as a merge patch replaces a list, and audits it as one field", () => {
    const patch = shootPatchSchema.parse({ spec: { tolerations: [{ key: "gpu" }, { key: "dedicated", value: "x" }] } });
    const { shoot } = applyShootPatch(tolerating, patch);
    expect(shoot?.spec.tolerations).toEqual([{ key: "gpu" }, { key: "dedicated", value: "x" }]);
    expect(changedFields(tolerating, shoot!)).toEqual([
      {
        field: "spec.tolerations",
        before: [{ key: "dedicated", value: "payments" }],
        after: [{ key: "gpu" }, { key: "dedicated", value: "x" }],
      },
    ]);
  });

  it("removes them with null or an empty list, and sees the same list as no change", () => {
    for (const tolerations of [null, []]) {
      const { shoot } = applyShootPatch(tolerating, shootPatchSchema.parse({ spec: { tolerations } }));
      expect(shoot?.spec.tolerations).toBeUndefined();
      expect(changedFields(tolerating, shoot!).map((c) => [c.field, c.after])).toEqual([
        ["spec.tolerations", undefined],
      ]);
    }
    const same = applyShootPatch(
      tolerating,
      shootPatchSchema.parse({ spec: { tolerations: [{ key: "dedicated", value: "payments" }] } }),
    );
    expect(changedFields(tolerating, same.shoot!)).toEqual([]);
  });

  it("takes only key and value", () => {
    expect(shootPatchSchema.safeParse({ spec: { tolerations: [{ key: "a", effect: "NoSchedule" }] } }).success).toBe(
      false,
    );
    expect(shootPatchSchema.safeParse({ spec: { tolerations: [{ value: "a" }] } }).success).toBe(false);
  });
});

describe("applyShootPatch and changedFields: spec.hibernation.schedules", () => {
  const schedules = [{ start: "0 19 * * 1-5", end: "0 7 * * 1-5", location: "Europe/Berlin" }];

  it("replaces the list, keeps enabled, audits the list, and removes it with null or []", () => {
    const hibernated: Shoot = { ...SHOOT, spec: { ...SHOOT.spec, hibernation: { enabled: true } } };
    const { shoot } = applyShootPatch(hibernated, shootPatchSchema.parse({ spec: { hibernation: { schedules } } }));
    expect(shoot?.spec.hibernation).toEqual({ enabled: true, schedules });
    expect(changedFields(hibernated, shoot!)).toEqual([
      { field: "spec.hibernation.schedules", before: undefined, after: schedules },
    ]);
    for (const none of [null, []]) {
      const removed = applyShootPatch(shoot!, shootPatchSchema.parse({ spec: { hibernation: { schedules: none } } }));
      expect(removed.shoot?.spec.hibernation).toEqual({ enabled: true });
    }
  });

  it("leaves the crons to the shoot's validation (422), refusing only unknown fields and non-strings (400)", () => {
    expect(shootPatchSchema.safeParse({ spec: { hibernation: { schedules: [{ start: "nonsense" }] } } }).success).toBe(
      true,
    );
    expect(shootPatchSchema.safeParse({ spec: { hibernation: { schedules: [{ begin: "0 1 * * *" }] } } }).success).toBe(
      false,
    );
    expect(shootPatchSchema.safeParse({ spec: { hibernation: { schedules: [{ start: 5 }] } } }).success).toBe(false);
  });
});

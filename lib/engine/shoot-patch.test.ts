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

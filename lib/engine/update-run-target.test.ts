import { describe, expect, it } from "vitest";
import { at, profile, shoot, worker } from "../../tests/support/builders.ts";
import {
  kubernetesTargetForm,
  newestPatchOf,
  profilesOfferImage,
  profilesOfferKubernetes,
  targetChangeFor,
} from "./update-run-target.ts";

const NOW = at("2026-12-01T00:00:00Z");
const expired = [{ classification: "expired", startTime: "2026-01-01T00:00:00Z" }];
const preview = [{ classification: "preview", startTime: "2026-01-01T00:00:00Z" }];

const cloud = profile(
  [
    { version: "1.31.4" },
    { version: "1.31.9" },
    { version: "1.32.1" },
    { version: "1.32.3" },
    { version: "1.32.5", lifecycle: preview },
    { version: "1.33.0", lifecycle: expired },
    { version: "1.33.2" },
  ],
  [
    {
      name: "gardenlinux",
      versions: [{ version: "1592.1.0" }, { version: "1592.4.0" }, { version: "1443.10.0", lifecycle: expired }],
    },
    { name: "ubuntu", versions: [{ version: "22.4.0" }] },
  ],
);

describe("kubernetesTargetForm", () => {
  it("tells an exact version, a minor and latest-patch apart, and nothing else", () => {
    expect(kubernetesTargetForm("1.33")).toEqual({ form: "minor", major: 1, minor: 33 });
    expect(kubernetesTargetForm("1.33.4")).toMatchObject({ form: "exact" });
    expect(kubernetesTargetForm("latest-patch")).toEqual({ form: "latest-patch" });
    expect(kubernetesTargetForm("1")).toBeUndefined();
    expect(kubernetesTargetForm("latest")).toBeUndefined();
    expect(kubernetesTargetForm("1.33.4-rc.1")).toBeUndefined();
  });
});

describe("newestPatchOf", () => {
  it("takes the newest supported or deprecated patch, never a preview or an expired one", () => {
    const versions = cloud.spec.kubernetes.versions;
    expect(newestPatchOf(versions, 1, 32, NOW)).toBe("1.32.3");
    expect(newestPatchOf(versions, 1, 33, NOW)).toBe("1.33.2");
    expect(newestPatchOf(versions, 1, 34, NOW)).toBeUndefined();
  });
});

describe("profilesOffer*", () => {
  it("answers whether some profile offers the target (the request's 422)", () => {
    expect(profilesOfferKubernetes([cloud], "1.33", NOW)).toBe(true);
    expect(profilesOfferKubernetes([cloud], "1.32.3", NOW)).toBe(true);
    expect(profilesOfferKubernetes([cloud], "1.34", NOW)).toBe(false);
    expect(profilesOfferKubernetes([cloud], "1.32.4", NOW)).toBe(false);
    expect(profilesOfferKubernetes([cloud], "latest-patch", NOW)).toBe(true);
    expect(profilesOfferKubernetes([cloud], "bogus", NOW)).toBe(false);
    expect(profilesOfferImage([cloud], "gardenlinux", "1592.4.0")).toBe(true);
    expect(profilesOfferImage([cloud], "gardenlinux", "9.9.9")).toBe(false);
    expect(profilesOfferImage([cloud], "suse", "1592.4.0")).toBe(false);
  });
});

describe("targetChangeFor", () => {
  it("maintain: always maintain now (the garden's rules decide when it is sent)", () => {
    expect(targetChangeFor(shoot("1.31.4"), cloud, { action: "maintain" }, NOW)).toEqual({ kind: "maintain" });
  });

  it("a minor: the newest usable patch of it, as a patch of spec.kubernetes.version with its change", () => {
    const change = targetChangeFor(shoot("1.31.9"), cloud, { kubernetes: "1.32" }, NOW);
    expect(change).toEqual({
      kind: "patch",
      patch: { spec: { kubernetes: { version: "1.32.3" } } },
      changes: [{ field: "spec.kubernetes.version", before: "1.31.9", after: "1.32.3" }],
    });
  });

  it("an exact version the profile offers", () => {
    const change = targetChangeFor(shoot("1.32.1"), cloud, { kubernetes: "1.32.3" }, NOW);
    expect(change).toMatchObject({ kind: "patch", patch: { spec: { kubernetes: { version: "1.32.3" } } } });
  });

  it("latest-patch: the newest patch of the shoot's own minor", () => {
    expect(targetChangeFor(shoot("1.31.4"), cloud, { kubernetes: "latest-patch" }, NOW)).toMatchObject({
      kind: "patch",
      patch: { spec: { kubernetes: { version: "1.31.9" } } },
    });
    expect(targetChangeFor(shoot("1.31.9"), cloud, { kubernetes: "latest-patch" }, NOW)).toEqual({
      kind: "unchanged",
      reason: "Kubernetes is 1.31.9 already.",
    });
  });

  it("never downgrades: a shoot on a newer version is unchanged", () => {
    const change = targetChangeFor(shoot("1.33.2"), cloud, { kubernetes: "1.32" }, NOW);
    expect(change).toMatchObject({ kind: "unchanged" });
    expect((change as { reason: string }).reason).toContain("never downgrades");
  });

  it("refuses what a user's PATCH would be refused: a skipped minor, with the validation's errors", () => {
    const change = targetChangeFor(shoot("1.31.9"), cloud, { kubernetes: "1.33" }, NOW);
    expect(change.kind).toBe("refused");
    expect(change.kind === "refused" && change.errors?.[0]?.field).toBe("spec.kubernetes.version");
  });

  it("refuses a version the shoot's profile does not offer, or an expired one", () => {
    expect(targetChangeFor(shoot("1.31.9"), cloud, { kubernetes: "1.34" }, NOW)).toMatchObject({
      kind: "refused",
      reason: 'The cloud profile "test-profile" offers no usable 1.34 version.',
    });
    expect(targetChangeFor(shoot("1.32.3"), cloud, { kubernetes: "1.33.0" }, NOW).kind).toBe("refused");
  });

  it("refuses any version change when the shoot's profile is missing", () => {
    expect(targetChangeFor(shoot("1.31.9"), undefined, { kubernetes: "1.32" }, NOW)).toMatchObject({
      kind: "refused",
      reason: 'The shoot\'s cloud profile "test-profile" does not exist.',
    });
  });

  it("a machine image: the pools that run it and are behind, by name; others are left alone", () => {
    const s = shoot("1.31.9", {
      workers: [
        worker("a", "gardenlinux", "1592.1.0"),
        worker("b", "ubuntu", "22.4.0"),
        worker("c", "gardenlinux", "1592.4.0"),
      ],
    });
    const change = targetChangeFor(s, cloud, { machineImage: { name: "gardenlinux", version: "1592.4.0" } }, NOW);
    expect(change).toEqual({
      kind: "patch",
      patch: {
        spec: {
          provider: { workers: [{ name: "a", machine: { image: { name: "gardenlinux", version: "1592.4.0" } } }] },
        },
      },
      changes: [
        { field: "spec.provider.workers[name=a].machine.image.version", before: "1592.1.0", after: "1592.4.0" },
      ],
    });
  });

  it("a machine image no pool runs, or every pool runs already, is unchanged", () => {
    const s = shoot("1.31.9", { workers: [worker("a", "ubuntu", "22.4.0")] });
    expect(targetChangeFor(s, cloud, { machineImage: { name: "gardenlinux", version: "1592.4.0" } }, NOW)).toEqual({
      kind: "unchanged",
      reason: "No worker pool runs gardenlinux.",
    });
    const current = shoot("1.31.9", { workers: [worker("a", "gardenlinux", "1592.4.0")] });
    expect(
      targetChangeFor(current, cloud, { machineImage: { name: "gardenlinux", version: "1592.1.0" } }, NOW).kind,
    ).toBe("unchanged");
  });

  it("refuses an image version the profile does not offer, or an expired one", () => {
    const s = shoot("1.31.9", { workers: [worker("a", "gardenlinux", "1443.1.0")] });
    expect(targetChangeFor(s, cloud, { machineImage: { name: "gardenlinux", version: "1600.0.0" } }, NOW).kind).toBe(
      "refused",
    );
    expect(targetChangeFor(s, cloud, { machineImage: { name: "gardenlinux", version: "1443.10.0" } }, NOW).kind).toBe(
      "refused",
    );
  });
});

import { describe, expect, it } from "vitest";
import { profileKeyOf, profileReferenceOf, resolvedNamespacedProfile } from "./profile-reference.ts";
import type { NamespacedCloudProfile, Shoot } from "./types.ts";

const shoot = (spec: Partial<Shoot["spec"]>): Shoot => ({
  metadata: { name: "s", namespace: "garden-a" },
  spec: { kubernetes: { version: "1.34.1" }, ...spec },
});

describe("profileReferenceOf", () => {
  it("reads spec.cloudProfile before the older cloudProfileName, as Gardener does", () => {
    expect(profileReferenceOf(shoot({ cloudProfileName: "aws" }))).toEqual({ kind: "CloudProfile", name: "aws" });
    expect(profileReferenceOf(shoot({ cloudProfile: { name: "aws" }, cloudProfileName: "old" }))).toEqual({
      kind: "CloudProfile",
      name: "aws",
    });
    const namespaced = shoot({
      cloudProfile: { kind: "NamespacedCloudProfile", name: "aws" },
      cloudProfileName: "aws",
    });
    expect(profileReferenceOf(namespaced)).toEqual({
      kind: "NamespacedCloudProfile",
      name: "aws",
      namespace: "garden-a",
    });
    expect(profileKeyOf(namespaced)).toBe("garden-a/aws");
    expect(profileKeyOf(shoot({ cloudProfileName: "aws" }))).toBe("aws");
  });

  it("names no profile for none, or for a kind Gardener does not know", () => {
    expect(profileReferenceOf(shoot({}))).toBeUndefined();
    expect(profileReferenceOf(shoot({ cloudProfile: { kind: "Other", name: "aws" } }))).toBeUndefined();
    expect(profileKeyOf(shoot({}))).toBe("");
  });
});

describe("resolvedNamespacedProfile", () => {
  const profile: NamespacedCloudProfile = {
    metadata: { name: "aws-long", namespace: "garden-a" },
    spec: { parent: { kind: "CloudProfile", name: "aws" } },
  };

  it("is the merged spec Gardener wrote, with the parent named", () => {
    const spec = { kubernetes: { versions: [{ version: "1.34.1" }] } };
    expect(resolvedNamespacedProfile({ ...profile, status: { cloudProfileSpec: spec } })).toEqual({
      apiVersion: "core.gardener.cloud/v1beta1",
      kind: "NamespacedCloudProfile",
      metadata: profile.metadata,
      spec,
      parent: { kind: "CloudProfile", name: "aws" },
    });
  });

  it("is nothing before Gardener wrote the status", () => {
    expect(resolvedNamespacedProfile(profile)).toBeUndefined();
    expect(resolvedNamespacedProfile({ ...profile, status: {} })).toBeUndefined();
  });
});

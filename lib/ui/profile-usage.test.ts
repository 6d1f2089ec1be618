import { describe, expect, it } from "vitest";
import type { CloudProfile } from "../gardener/types.ts";
import { imageKey, profileOverview, profileUsage, shootsOn } from "./profile-usage.ts";

const DAY = 86_400_000;
const now = Date.parse("2026-11-23T09:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();

const profile: CloudProfile = {
  metadata: { name: "aws" },
  spec: {
    type: "aws",
    kubernetes: {
      versions: [
        { version: "1.34.2", classification: "preview" },
        { version: "1.34.1", classification: "supported" },
        { version: "1.31.10", classification: "deprecated", expirationDate: iso(now + 4 * DAY) },
        { version: "1.31.9", classification: "deprecated", expirationDate: iso(now - 12 * DAY) },
        { version: "1.30.14", classification: "deprecated", expirationDate: iso(now + 31 * DAY) },
      ],
    },
    machineImages: [
      {
        name: "gardenlinux",
        updateStrategy: "minor",
        versions: [{ version: "1592.1.0", expirationDate: iso(now + 5 * DAY) }, { version: "1877.3.0" }],
      },
      { name: "ubuntu", versions: [{ version: "20.4.12", expirationDate: iso(now + 30 * DAY) }] },
    ],
  },
};

describe("profileOverview", () => {
  it("counts Kubernetes versions per classification now, and the versions of every image", () => {
    const o = profileOverview(profile, now);
    expect(o).toMatchObject({
      name: "aws",
      providerType: "aws",
      kubernetesVersions: 5,
      machineImages: 2,
      machineImageVersions: 3,
    });
    expect(o.kubernetesByClassification).toEqual({
      preview: 1,
      supported: 1,
      deprecated: 2,
      expired: 1,
      unavailable: 0,
    });
  });

  it("lists the versions expiring within the horizon, soonest first, and counts the expired ones apart", () => {
    const o = profileOverview(profile, now);
    expect(o.expiringSoon).toEqual([
      { what: "Kubernetes", version: "1.31.10", expiresAt: now + 4 * DAY },
      { what: "gardenlinux", version: "1592.1.0", expiresAt: now + 5 * DAY },
      { what: "ubuntu", version: "20.4.12", expiresAt: now + 30 * DAY },
    ]);
    expect(o.expired).toBe(1);
    expect(profileOverview(profile, now, 7).expiringSoon.map((e) => e.version)).toEqual(["1.31.10", "1592.1.0"]);
  });
});

describe("profileUsage", () => {
  const rows = [
    {
      kubernetes: { version: "1.31.10" },
      workers: [
        { image: { name: "gardenlinux", version: "1592.1.0" } },
        { image: { name: "gardenlinux", version: "1592.1.0" } },
      ],
    },
    { kubernetes: { version: "1.31.10" }, workers: [{ image: { name: "ubuntu", version: "20.4.12" } }] },
    {
      kubernetes: { version: "1.34.1" },
      workers: [{ image: { name: "GardenLinux", version: "1877.3.0" } }, { image: { name: "gardenlinux" } }],
    },
  ];

  it("counts control planes per Kubernetes version and pools and shoots per image version", () => {
    const u = profileUsage(rows);
    expect(u.shoots).toBe(3);
    expect(Object.fromEntries(u.kubernetes)).toEqual({ "1.31.10": 2, "1.34.1": 1 });
    expect(u.images.get(imageKey("gardenlinux", "1592.1.0"))).toBe(2);
    expect(u.imageShoots.get(imageKey("gardenlinux", "1592.1.0"))).toBe(1);
    // Image names are matched case-insensitively, as the maintenance controller does.
    expect(u.images.get(imageKey("gardenlinux", "1877.3.0"))).toBe(1);
    expect(shootsOn(u, ["1.31.13", "1.31.10", "1.31.9"])).toBe(2);
  });

  it("counts a Kubernetes version used only by a pool, and each shoot once", () => {
    const u = profileUsage([
      // The control plane on 1.31.10, a pool held back on 1.30.14.
      {
        kubernetes: { version: "1.31.10" },
        workers: [{ kubernetes: { version: "1.30.14" } }, { kubernetes: { version: "1.30.14" } }],
      },
      // A pool on the same minor line as its control plane.
      { kubernetes: { version: "1.31.10" }, workers: [{ kubernetes: { version: "1.31.9" } }] },
      // A pool naming the control plane's own version.
      { kubernetes: { version: "1.34.1" }, workers: [{ kubernetes: { version: "1.34.1" } }] },
    ]);
    expect(Object.fromEntries(u.kubernetes)).toEqual({ "1.31.10": 2, "1.30.14": 1, "1.31.9": 1, "1.34.1": 1 });
    expect(Object.fromEntries(u.kubernetesPools)).toEqual({ "1.30.14": 2, "1.31.9": 1, "1.34.1": 1 });
    expect(shootsOn(u, ["1.30.14"])).toBe(1);
    // The 1.31 line: two shoots, though the second uses two of its patches.
    expect(shootsOn(u, ["1.31.10", "1.31.9"])).toBe(2);
  });

  it("counts a machine image version used only by one pool of a shoot", () => {
    const u = profileUsage([
      {
        kubernetes: { version: "1.31.10" },
        workers: [
          { image: { name: "gardenlinux", version: "1877.3.0" } },
          { image: { name: "ubuntu", version: "20.4.12" } },
        ],
      },
    ]);
    expect(u.imageShoots.get(imageKey("ubuntu", "20.4.12"))).toBe(1);
    expect(u.images.get(imageKey("ubuntu", "20.4.12"))).toBe(1);
  });
});

import { describe, expect, it } from "vitest";
import type { CloudProfile, NamespacedCloudProfile } from "../gardener/types.ts";
import { namespacedOverrides } from "./namespaced-profile.ts";

const NOW = Date.parse("2026-11-27T00:00:00Z");
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

const parent: CloudProfile = {
  metadata: { name: "aws" },
  spec: {
    kubernetes: {
      versions: [
        { version: "1.31.4", classification: "deprecated", expirationDate: iso(NOW + 10 * DAY) },
        { version: "1.32.1", classification: "supported" },
      ],
    },
    machineImages: [{ name: "gardenlinux", versions: [{ version: "1592.4.0", expirationDate: iso(NOW + 5 * DAY) }] }],
  },
};

const namespaced = (resolved: boolean): NamespacedCloudProfile => ({
  metadata: { name: "aws-long", namespace: "garden-a" },
  spec: {
    parent: { kind: "CloudProfile", name: "aws" },
    kubernetes: { versions: [{ version: "1.31.4", expirationDate: iso(NOW + 100 * DAY) }, { version: "1.33.0" }] },
    machineImages: [{ name: "gardenlinux", versions: [{ version: "1592.4.0", expirationDate: iso(NOW + 2 * DAY) }] }],
  },
  ...(resolved
    ? {
        status: {
          cloudProfileSpec: {
            kubernetes: {
              versions: [
                { version: "1.31.4", classification: "deprecated", expirationDate: iso(NOW + 100 * DAY) },
                { version: "1.32.1", classification: "supported" },
                { version: "1.33.0", classification: "preview" },
              ],
            },
          },
        },
      }
    : {}),
});

describe("namespacedOverrides", () => {
  it("sets each version the profile names against its parent, with the merged classification", () => {
    expect(namespacedOverrides(namespaced(true), parent, NOW)).toEqual([
      {
        what: "Kubernetes",
        version: "1.31.4",
        parent: { classification: "deprecated", expiresAt: NOW + 10 * DAY },
        own: { classification: "deprecated", expiresAt: NOW + 100 * DAY },
        change: "extended",
        days: 90,
      },
      { what: "Kubernetes", version: "1.33.0", own: { classification: "preview" }, change: "added" },
      {
        what: "gardenlinux",
        version: "1592.4.0",
        parent: { classification: "supported", expiresAt: NOW + 5 * DAY },
        own: { classification: "supported", expiresAt: NOW + 2 * DAY },
        change: "shortened",
        days: -3,
      },
    ]);
  });

  it("reads the spec while Gardener has not resolved the profile, and needs no parent", () => {
    const rows = namespacedOverrides(namespaced(false), undefined, NOW);
    expect(rows.map((r) => [r.version, r.change, r.own.classification])).toEqual([
      ["1.31.4", "added", "supported"],
      ["1.33.0", "added", "supported"],
      ["1592.4.0", "added", "supported"],
    ]);
  });
});

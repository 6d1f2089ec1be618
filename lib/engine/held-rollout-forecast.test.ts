// The forecast counts a rollout held by confineSpecUpdateRollout as an update in the next window.
import { describe, expect, it } from "vitest";
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { forecastHorizon } from "./forecast.ts";
import { HELD_ROLLOUT_REASON } from "./held-rollout-forecast.ts";
import { specVersions } from "./running-versions.ts";

const DAY = 86_400_000;
const NOW = Date.parse("2026-11-24T15:00:00Z");

const profile = {
  metadata: { name: "aws" },
  spec: {
    type: "aws",
    kubernetes: { versions: [{ version: "1.33.6" }, { version: "1.32.7" }] },
    machineImages: [{ name: "gardenlinux", versions: [{ version: "1877.3.0" }, { version: "1592.4.0" }] }],
  },
} as unknown as CloudProfile;

function shoot(version: string, image: string, confine = true): Shoot {
  return {
    metadata: { name: "stream-ingest-eu", namespace: "garden-data", uid: "u" },
    spec: {
      cloudProfileName: "aws",
      kubernetes: { version },
      maintenance: {
        confineSpecUpdateRollout: confine,
        timeWindow: { begin: "020000+0000", end: "030000+0000" },
        autoUpdate: { kubernetesVersion: false, machineImageVersion: false },
      },
      provider: {
        type: "aws",
        workers: [{ name: "worker", machine: { type: "m5.large", image: { name: "gardenlinux", version: image } } }],
      },
    },
  };
}

const ran = specVersions(shoot("1.32.7", "1592.4.0"), "2026-09-01T02:10:00Z");
const profiles = new Map([["aws", profile]]);

describe("the forecast of a held rollout", () => {
  it("lists each held version as an update in the next window, from what runs to what is asked", () => {
    const asked = shoot("1.33.6", "1877.3.0");
    const items = forecastHorizon([asked], profiles, NOW, NOW + 30 * DAY, () => ran).until(NOW + 30 * DAY).items;
    expect(items.map((i) => [i.target, i.worker, i.kind, i.from, i.to, i.held, i.stuck, i.reason])).toEqual([
      ["controlPlane", undefined, "kubernetes", "1.32.7", "1.33.6", true, false, HELD_ROLLOUT_REASON],
      ["worker", "worker", "machineImage", "1592.4.0", "1877.3.0", true, false, HELD_ROLLOUT_REASON],
    ]);
    expect(items[0].window.begin).toBe("2026-11-25T02:00:00Z");
    expect(items[0].message).toContain("Kubernetes 1.32.7 → 1.33.6 in the window of 2026-11-25 02:00 UTC");
  });

  it("has nothing held when the shoot runs what it asks, rolls out at once, is deleted, or is not known", () => {
    const horizon = (s: Shoot, running = ran) =>
      forecastHorizon([s], profiles, NOW, NOW + 30 * DAY, () => running).until(NOW + 30 * DAY).items;
    expect(horizon(shoot("1.32.7", "1592.4.0"))).toEqual([]);
    expect(horizon(shoot("1.33.6", "1592.4.0", false))).toEqual([]);
    const deleting = shoot("1.33.6", "1592.4.0");
    deleting.metadata.deletionTimestamp = "2026-11-24T14:00:00Z";
    expect(horizon(deleting)).toEqual([]);
    expect(
      forecastHorizon([shoot("1.33.6", "1592.4.0")], profiles, NOW, NOW + 30 * DAY).until(NOW + 30 * DAY).items,
    ).toEqual([]);
  });

  it("leaves a held rollout out of a horizon that ends before the window", () => {
    const items = forecastHorizon([shoot("1.33.6", "1592.4.0")], profiles, NOW, NOW + DAY, () => ran).until(
      NOW + 3_600_000,
    ).items;
    expect(items).toEqual([]);
  });
});

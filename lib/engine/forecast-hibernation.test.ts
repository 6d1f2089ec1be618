// The forecast's mark on updates that land while hibernation schedules keep the shoot asleep.
import { describe, expect, it } from "vitest";
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { forecast } from "./forecast.ts";
import { shootForecastFacts } from "./forecast-facts.ts";

const AWS: CloudProfile = {
  metadata: { name: "aws" },
  spec: {
    type: "aws",
    kubernetes: { versions: [{ version: "1.31.4" }, { version: "1.30.5", expirationDate: "2026-12-01T00:00:00Z" }] },
  },
};

function shoot(name: string, schedules?: { start?: string; end?: string; location?: string }[]): Shoot {
  return {
    metadata: { name, namespace: "garden-dev", uid: `uid-${name}` },
    spec: {
      cloudProfileName: "aws",
      kubernetes: { version: "1.30.5" },
      provider: { type: "aws", workers: [] },
      maintenance: {
        // 03:00-04:00 UTC: inside a night's hibernation from 19:00 to 07:00 UTC.
        timeWindow: { begin: "030000+0000", end: "040000+0000" },
        autoUpdate: { kubernetesVersion: false, machineImageVersion: false },
      },
      ...(schedules ? { hibernation: { schedules } } : {}),
    },
    status: { lastOperation: { type: "Reconcile", state: "Succeeded" } },
  };
}

const from = Date.parse("2026-11-28T00:00:00Z");
const to = Date.parse("2026-12-10T00:00:00Z");
const profiles = new Map([["aws", AWS]]);

describe("forecast: whileHibernated", () => {
  it("marks an update at a moment the schedules keep the shoot hibernated, and only then", () => {
    const asleep = shoot("night", [{ start: "0 19 * * *", end: "0 7 * * *" }]);
    const awake = shoot("day", [{ start: "0 12 * * *", end: "0 13 * * *" }]);
    const plain = shoot("plain");
    const items = forecast([asleep, awake, plain], profiles, from, to).items;
    const marks = items.map((i) => [i.name, i.to, i.whileHibernated]);
    expect(marks).toHaveLength(3);
    expect(marks).toEqual(
      expect.arrayContaining([
        ["night", "1.31.4", true],
        ["day", "1.31.4", undefined],
        ["plain", "1.31.4", undefined],
      ]),
    );
  });

  it("stores the same items as the engine answers", () => {
    const asleep = shoot("night", [{ start: "0 19 * * *", end: "0 7 * * *" }]);
    const engine = forecast([asleep], profiles, from, to).items;
    const stored = shootForecastFacts(asleep, AWS, undefined, from).items.map((i) => i.item);
    expect(stored).toEqual(engine);
  });
});

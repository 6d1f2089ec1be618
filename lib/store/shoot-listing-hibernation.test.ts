// The fleet row's hibernation: only for shoots with schedules, the next moments from the moment
// it is built, and a stored row valid only until the next moment (so a page rebuilds it then).
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import { listingItem, listingValidity } from "./shoot-listing.ts";
import { summarize } from "./shoot-summary.ts";

function shoot(hibernation?: Shoot["spec"]["hibernation"]): Shoot {
  return {
    metadata: { name: "s", namespace: "garden-dev", uid: "u" },
    spec: { kubernetes: { version: "1.31.4" }, ...(hibernation ? { hibernation } : {}) },
    status: {},
  };
}

const now = Date.parse("2026-11-27T12:00:00Z");
const input = (s: Shoot) => ({
  summary: summarize(s),
  resourceVersion: 1,
  earliestExpiry: null,
  earliestExpiryVersion: null,
});

describe("the fleet row's hibernation", () => {
  it("has the next hibernate and wake moments of a shoot with schedules", () => {
    const s = shoot({
      enabled: false,
      schedules: [{ start: "0 19 * * 1-5", end: "0 7 * * 1-5", location: "Europe/Berlin" }],
    });
    expect(listingItem(input(s), undefined, now).hibernation).toEqual({
      enabled: false,
      hibernateAt: "2026-11-27T18:00:00.000Z",
      wakeAt: "2026-11-30T06:00:00.000Z",
    });
    expect(listingValidity(input(s), undefined, now).until).toBe(Date.parse("2026-11-27T18:00:00Z"));
  });

  it("is absent without schedules, and the row's validity is as before", () => {
    const s = shoot({ enabled: true });
    expect(listingItem(input(s), undefined, now)).not.toHaveProperty("hibernation");
    expect(listingValidity(input(s), undefined, now)).toEqual({ from: -Infinity, until: Infinity });
  });
});

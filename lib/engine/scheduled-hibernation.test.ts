// Gardener's shoot hibernation controller at a moment: what it sets, what it leaves alone.
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import { scheduledHibernation } from "./scheduled-hibernation.ts";

const NIGHTS = [{ start: "0 19 * * *", end: "0 7 * * *", location: "Europe/Berlin" }];

function shoot(enabled: boolean | undefined, extra: Partial<Shoot["status"]> = {}): Shoot {
  return {
    metadata: { name: "s", namespace: "garden-dev", generation: 2 },
    spec: {
      kubernetes: { version: "1.31.4" },
      hibernation: { ...(enabled !== undefined ? { enabled } : {}), schedules: NIGHTS },
    },
    status: { observedGeneration: 2, lastOperation: { type: "Reconcile", state: "Succeeded" }, ...extra },
  };
}

// 19:00 CET = 18:00 UTC.
const evening = Date.parse("2026-11-27T18:00:30Z");

describe("scheduledHibernation", () => {
  it("hibernates at the start moment, records the trigger time, and names the wake moment next", () => {
    const d = scheduledHibernation(shoot(undefined), evening);
    expect(d.shoot?.spec.hibernation).toEqual({ enabled: true, schedules: NIGHTS });
    expect(d.shoot?.status?.lastHibernationTriggerTime).toBe("2026-11-27T18:00:30.000Z");
    expect(d.next?.toISOString()).toBe("2026-11-28T06:00:00.000Z");
  });

  it("wakes at the end moment", () => {
    const d = scheduledHibernation(shoot(true), Date.parse("2026-11-28T06:00:00Z"));
    expect(d.shoot?.spec.hibernation?.enabled).toBe(false);
    expect(d.next?.toISOString()).toBe("2026-11-28T18:00:00.000Z");
  });

  it("leaves a shoot already as the schedules want it, a Failed one, one being deleted, and a refused one", () => {
    expect(scheduledHibernation(shoot(true), evening)).toMatchObject({
      skipped: expect.any(String),
      next: expect.any(Date),
    });
    const failed = shoot(false, { lastOperation: { type: "Reconcile", state: "Failed" } });
    expect(scheduledHibernation(failed, evening).shoot).toBeUndefined();
    const deleting = shoot(false);
    deleting.metadata.deletionTimestamp = "2026-11-27T17:00:00Z";
    expect(scheduledHibernation(deleting, evening)).toEqual({ skipped: "the shoot is being deleted" });
    const impossible = shoot(false, {
      constraints: [{ type: "HibernationPossible", status: "False", message: "webhooks block it" }],
    });
    const refused = scheduledHibernation(impossible, evening);
    expect(refused.shoot).toBeUndefined();
    expect(refused.skipped).toContain("'HibernationPossible' constraint is 'False'");
    expect(refused.next?.toISOString()).toBe("2026-11-28T06:00:00.000Z");
  });

  it("has no next moment without valid schedules", () => {
    const invalid = shoot(false);
    invalid.spec.hibernation = { schedules: [{ start: "nonsense" }] };
    expect(scheduledHibernation(invalid, evening)).toEqual({ skipped: "the hibernation schedules are invalid" });
  });
});

import { describe, expect, it } from "vitest";
import { healthSummary } from "./status.ts";

const allTrue = [{ status: "True" }, { status: "True" }];

describe("healthSummary", () => {
  it("says every condition is True and the last operation succeeded only when both hold", () => {
    expect(
      healthSummary("healthy", { conditions: allTrue, lastOperation: { type: "Reconcile", state: "Succeeded" } }),
    ).toBe("Every condition is True and the last operation succeeded.");
  });

  it("says an operation is in progress beside a running one, not that it succeeded", () => {
    const s = healthSummary("healthy", {
      conditions: allTrue,
      lastOperation: { type: "Reconcile", state: "Processing", progress: 45 },
    });
    expect(s).toBe("Every condition is True. The Reconcile operation is in progress (45%).");
    expect(s).not.toMatch(/succeeded/);
  });

  it("says no condition has been reported when there are none", () => {
    const s = healthSummary("healthy", {
      conditions: [],
      lastOperation: { type: "Create", state: "Processing", progress: 10 },
    });
    expect(s).toBe("The gardenlet has not reported any condition yet. The Create operation is in progress (10%).");
    expect(s).not.toMatch(/Every condition/);
    expect(healthSummary("healthy", {})).toBe(
      "The gardenlet has not reported any condition yet. No operation has run yet.",
    );
  });

  it("counts the conditions that are not True and names a failed operation", () => {
    expect(
      healthSummary("unhealthy", {
        conditions: [{ status: "True" }, { status: "False" }, { status: "Unknown" }],
        lastOperation: { type: "Reconcile", state: "Failed" },
      }),
    ).toBe("2 of 3 conditions are not True. The last Reconcile operation is Failed.");
  });
});

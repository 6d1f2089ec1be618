import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import { unhealthyCauses, unhealthySince } from "./notification-unhealthy-since.ts";
import { shootStatusLabel } from "./status-label.ts";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 3, minute)).toISOString();

describe("when a shoot turned unhealthy", () => {
  it("is the earliest failing condition's transition, not a healthy one's", () => {
    const status: Shoot["status"] = {
      lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100, lastUpdateTime: at(1) },
      conditions: [
        { type: "APIServerAvailable", status: "True", lastTransitionTime: at(0) },
        { type: "EveryNodeReady", status: "False", lastTransitionTime: at(20) },
        { type: "SystemComponentsHealthy", status: "False", lastTransitionTime: at(10) },
        { type: "ControlPlaneHealthy", status: "Progressing", lastTransitionTime: at(5) },
      ],
    };
    expect(shootStatusLabel({ status })).toBe("unhealthy");
    expect(unhealthySince(status)).toBe(Date.parse(at(10)));
    expect(unhealthyCauses(status).map((c) => c.cause)).toEqual([
      "condition SystemComponentsHealthy False",
      "condition EveryNodeReady False",
    ]);
  });

  it("is a failed last operation's time, and a last error's while one is processing", () => {
    expect(
      unhealthySince({ lastOperation: { type: "Reconcile", state: "Failed", progress: 80, lastUpdateTime: at(7) } }),
    ).toBe(Date.parse(at(7)));
    expect(
      unhealthySince({
        lastOperation: { type: "Reconcile", state: "Processing", progress: 30, lastUpdateTime: at(9) },
        lastErrors: [{ description: "quota", lastUpdateTime: at(4) }],
      }),
    ).toBe(Date.parse(at(4)));
  });

  it("is a creation's last error, and nothing for a healthy shoot", () => {
    expect(
      unhealthySince({
        lastOperation: { type: "Create", state: "Error", progress: 10, lastUpdateTime: at(3) },
        lastErrors: [{ description: "no capacity" }],
      }),
    ).toBe(Date.parse(at(3)));
    expect(unhealthySince({ lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100 } })).toBeUndefined();
  });
});

// The history's maintenance runs as the engine's recorded runs; the audit events are left out.
import { describe, expect, it } from "vitest";
import { updateRisk } from "../engine/update-risk.ts";
import type { ShootHistoryAnswer } from "./api-types.ts";
import { recordedRuns } from "./recorded-runs.ts";

const REASON = 'Updates to the Shoot failed to be applied: admission webhook "p" denied the request: no';
const maintenance = (at: string, state: "Succeeded" | "Failed") => ({
  type: "maintenance" as const,
  id: at,
  namespace: "garden-dev",
  name: "a",
  trigger: "window" as const,
  state,
  at,
  changes: [],
  createdAt: at,
  ...(state === "Failed" ? { failureReason: REASON } : {}),
});

describe("recordedRuns", () => {
  it("keeps the maintenance runs with their time and reason, so the risk counts them", () => {
    const items = [
      maintenance("2026-11-23T22:00:00Z", "Failed"),
      { type: "audit", id: "1", at: "2026-11-23T12:00:00Z", actor: "x", action: "shoot.update" },
      maintenance("2026-11-22T22:00:00Z", "Failed"),
      maintenance("2026-11-21T22:00:00Z", "Succeeded"),
    ] as unknown as ShootHistoryAnswer["items"];
    const runs = recordedRuns(items);
    expect(runs).toEqual([
      { state: "Failed", startedAt: "2026-11-23T22:00:00Z", failureReason: REASON },
      { state: "Failed", startedAt: "2026-11-22T22:00:00Z", failureReason: REASON },
      { state: "Succeeded", startedAt: "2026-11-21T22:00:00Z" },
    ]);
    const shoot = {
      metadata: { name: "a" },
      spec: { kubernetes: { version: "1.30.11" } },
      status: {
        lastMaintenance: {
          description: "Maintenance failed",
          triggeredTime: "",
          state: "Failed",
          failureReason: REASON,
        },
      },
    };
    expect(updateRisk(shoot, runs)?.short).toBe("webhook denied (2×)");
  });
});

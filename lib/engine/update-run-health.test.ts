import { describe, expect, it } from "vitest";
import { shoot } from "../../tests/support/builders.ts";
import type { Shoot } from "../gardener/types.ts";
import { shootReadiness } from "./update-run-health.ts";

const reconciled = (extra: (s: Shoot) => void = () => {}): Shoot => {
  const s = shoot("1.31.4");
  s.metadata.generation = 3;
  s.status = { observedGeneration: 3, lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100 } };
  extra(s);
  return s;
};

describe("shootReadiness (what an update run's health gate reads)", () => {
  it("ready: healthy, last operation Succeeded, its spec reconciled, no maintenance pending", () => {
    expect(shootReadiness(reconciled())).toEqual({ ready: true });
  });

  it("not while the run's change is not reconciled: the old operation's success says nothing yet", () => {
    expect(shootReadiness(reconciled((s) => (s.metadata.generation = 4)))).toEqual({
      ready: false,
      reason: "its change is not reconciled yet",
    });
  });

  it("not while maintenance asked for is pending, nor while an operation runs or failed", () => {
    expect(
      shootReadiness(reconciled((s) => (s.metadata.annotations = { "gardener.cloud/operation": "maintain" }))).reason,
    ).toBe("maintenance is still pending");
    expect(
      shootReadiness(
        reconciled((s) => (s.status!.lastOperation = { type: "Reconcile", state: "Processing", progress: 40 })),
      ).reason,
    ).toBe("last operation Reconcile Processing");
    expect(
      shootReadiness(
        reconciled((s) => (s.status!.lastOperation = { type: "Reconcile", state: "Failed", progress: 40 })),
      ).reason,
    ).toBe("last operation Reconcile Failed");
  });

  it("not when a condition is unhealthy, the shoot is being deleted, or gone", () => {
    const unhealthy = reconciled((s) => {
      s.status!.conditions = [{ type: "EveryNodeReady", status: "False", lastTransitionTime: "2026-11-01T00:00:00Z" }];
    });
    expect(shootReadiness(unhealthy)).toEqual({ ready: false, reason: "status unhealthy" });
    expect(shootReadiness(reconciled((s) => (s.metadata.deletionTimestamp = "2026-11-01T00:00:00Z"))).reason).toBe(
      "being deleted",
    );
    expect(shootReadiness(undefined)).toEqual({ ready: false, reason: "the shoot no longer exists" });
  });
});

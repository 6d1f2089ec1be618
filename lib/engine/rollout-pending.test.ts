// Rollout pending: spec changes confineSpecUpdateRollout holds until the window. Gardener does not
// raise the generation for them (strategy.go, mustIncreaseGenerationForSpecChanges), so the
// simulated gardenlet notes the spec it rolled out instead.
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import { ANNOTATION_RECONCILED_SPEC, rolloutPending, specFingerprint } from "./rollout-pending.ts";

function shoot(confine: boolean, version: string, reconciledVersion?: string): Shoot {
  const s: Shoot = {
    metadata: { name: "s", namespace: "garden-dev" },
    spec: { kubernetes: { version }, maintenance: { confineSpecUpdateRollout: confine } },
  };
  if (reconciledVersion !== undefined) {
    const reconciled = { ...s.spec, kubernetes: { version: reconciledVersion } };
    s.metadata.annotations = { [ANNOTATION_RECONCILED_SPEC]: specFingerprint(reconciled) };
  }
  return s;
}

describe("rolloutPending", () => {
  it("holds for a confined shoot whose spec differs from the one last rolled out", () => {
    expect(rolloutPending(shoot(true, "1.31.4", "1.31.2"))).toBe(true);
    expect(rolloutPending(shoot(true, "1.31.4", "1.31.4"))).toBe(false);
    expect(rolloutPending(shoot(false, "1.31.4", "1.31.2"))).toBe(false);
    expect(rolloutPending(shoot(true, "1.31.4"))).toBe(false);
  });

  it("does not depend on the order of fields", () => {
    const a = { kubernetes: { version: "1" }, region: "x" } as Shoot["spec"];
    const b = { region: "x", kubernetes: { version: "1" }, hibernation: undefined } as Shoot["spec"];
    expect(specFingerprint(a)).toBe(specFingerprint(b));
  });
});

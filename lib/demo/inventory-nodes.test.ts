// The demo's worker nodes: a few demo shoots hold their rolls (a node-critical component that never
// becomes ready), some pools update in place; hand-made shoots never hold by chance.
import { describe, expect, it } from "vitest";
import { currentNodeRoll, rollPoolsOf } from "../engine/simulated-nodes.ts";
import { criticalComponentFaultFor, inventoryFor } from "./inventory.ts";
import { generateLandscape } from "./landscape.ts";

const NOW = Date.parse("2025-11-15T10:30:00Z");

describe("the demo's nodes", () => {
  const landscape = generateLandscape({ now: NOW, shoots: 600, seed: 42 });

  it("gives a few demo shoots a node-critical component that never becomes ready, of both kinds", () => {
    const faults = landscape.shoots.map((s) => inventoryFor(s, NOW).criticalComponentFault).filter((f) => f);
    expect(faults.length).toBeGreaterThan(5);
    expect(faults.length).toBeLessThan(60);
    expect(new Set(faults.map((f) => f!.component))).toEqual(new Set(["csi-driver-node", "cni"]));
  });

  it("never holds a shoot the demo did not make", () => {
    for (const s of landscape.shoots) {
      const { gardener: _gardener, ...status } = s.status ?? {};
      expect(criticalComponentFaultFor({ ...s, status })).toBeUndefined();
    }
  });

  it("has in-place pools, and every pool's nodes follow from the spec without storing any", () => {
    const strategies = landscape.shoots.flatMap((s) => rollPoolsOf(s).map((p) => p.updateStrategy));
    expect(strategies).toContain("AutoInPlaceUpdate");
    const awake = landscape.shoots.find(
      (s) => !s.status?.hibernated && s.status?.lastOperation?.state === "Succeeded",
    )!;
    const nodes = currentNodeRoll(awake, undefined, undefined).nodes;
    const minimum = (awake.spec.provider?.workers ?? []).reduce((sum, w) => sum + (w.minimum ?? 0), 0);
    expect(nodes).toHaveLength(minimum);
  });
});

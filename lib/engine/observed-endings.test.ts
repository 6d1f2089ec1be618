// How a live garden's shoot ends a migration Almanac recorded: Restore Succeeded on the destination,
// a live migration's LiveMigrate Succeeded likewise, a Failed operation of either kind.
import { describe, expect, it } from "vitest";
import { shoot as buildShoot } from "../../tests/support/builders.ts";
import { startMigration } from "./migration-flow.ts";
import { observedMigrationEnd } from "./observed-endings.ts";

const NOW = Date.parse("2026-11-27T08:00:00Z");
const started = { ...startMigration("seed-a", "seed-b", NOW - 60_000), live: true };
const withOp = (type: string, state: string, seed: string) => {
  const s = buildShoot("1.31.2");
  s.spec.seedName = "seed-b";
  s.status = { ...s.status, seedName: seed, lastOperation: { type, state } };
  return s;
};

describe("observedMigrationEnd", () => {
  it("ends a live migration when its LiveMigrate operation succeeded on the destination", () => {
    expect(observedMigrationEnd(started, withOp("LiveMigrate", "Succeeded", "seed-b"), NOW)).toMatchObject({
      state: "Succeeded",
      finishedAt: NOW,
      live: true,
    });
    expect(observedMigrationEnd(started, withOp("LiveMigrate", "Processing", "seed-a"), NOW)).toBeUndefined();
    expect(observedMigrationEnd(started, withOp("LiveMigrate", "Failed", "seed-a"), NOW)).toMatchObject({
      state: "Failed",
    });
  });

  it("ends a classic one on Restore Succeeded, and not on a Reconcile", () => {
    const classic = startMigration("seed-a", "seed-b", NOW - 60_000);
    expect(observedMigrationEnd(classic, withOp("Restore", "Succeeded", "seed-b"), NOW)).toMatchObject({
      state: "Succeeded",
    });
    expect(observedMigrationEnd(classic, withOp("Reconcile", "Succeeded", "seed-b"), NOW)).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import type { MigrationStep, MigrationView } from "./api-types.ts";
import { currentStepIndex, migrationActive, stepState, stepsDone, stepTitle } from "./migration-steps.ts";

const step = (name: MigrationStep["name"], extra: Partial<MigrationStep> = {}): MigrationStep => ({
  name,
  outcome: null,
  message: null,
  attempts: 0,
  ...extra,
});
const steps = (current: Partial<MigrationStep>) => [
  step("WaitForDestinationReady", { outcome: "Succeeded", attempts: 1, startedAt: "t", endedAt: "t" }),
  step("MigrateExtensionResources", current),
  step("PersistShootState"),
];
const view = (state: MigrationView["state"], current: Partial<MigrationStep>) => ({ state, steps: steps(current) });

describe("stepState", () => {
  it("marks finished steps done, the current one running and the rest waiting", () => {
    const m = view("Processing", { attempts: 1, startedAt: "t" });
    expect(m.steps.map((s, i) => stepState(s, i, m))).toEqual(["done", "running", "waiting"]);
    expect(currentStepIndex(m)).toBe(1);
  });

  it("shows an erroring step as retrying, also while its next attempt runs with the old outcome", () => {
    const erroring = view("Error", {
      attempts: 1,
      startedAt: "t",
      endedAt: "t",
      outcome: "Error",
      message: "etcd busy",
    });
    expect(stepState(erroring.steps[1], 1, erroring)).toBe("retrying");
    const again = view("Processing", { attempts: 2, startedAt: "t", endedAt: "t", outcome: "Error" });
    expect(stepState(again.steps[1], 1, again)).toBe("running");
  });

  it("shows the step that failed for good as failed", () => {
    const failed = view("Failed", { attempts: 7, outcome: "Error" });
    expect(failed.steps.map((s, i) => stepState(s, i, failed))).toEqual(["done", "failed", "waiting"]);
  });
});

describe("helpers", () => {
  it("titles steps with the engine's descriptions", () => {
    expect(stepTitle("CreateETCDSnapshot")).toBe("Creating ETCD Snapshot");
    expect(stepTitle("SomethingNew")).toBe("SomethingNew");
  });

  it("counts done steps and polls only while a migration runs or retries", () => {
    expect(stepsDone(view("Processing", {}))).toEqual({ done: 1, total: 3 });
    expect([
      migrationActive({ state: "Processing" }),
      migrationActive({ state: "Error" }),
      migrationActive({ state: "Succeeded" }),
      migrationActive(null),
    ]).toEqual([true, true, false, false]);
  });
});

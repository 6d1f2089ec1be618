import { describe, expect, it } from "vitest";
import {
  currentStepIndex,
  isActiveMigration,
  migrationDuration,
  splitMigrations,
  stepDescription,
  stepPhase,
  stepsSucceeded,
} from "./migration-progress.ts";

const step = (name: string, outcome: string | null) => ({ name, outcome });
const m = (id: string, state: string, startedAt: string, finishedAt?: string, outcomes: (string | null)[] = []) => ({
  id,
  state,
  startedAt,
  finishedAt,
  steps: ["WaitForDestinationReady", "MigrateExtensionResources", "PersistShootState"].map((n, i) =>
    step(n, outcomes[i] ?? null),
  ),
});

describe("migration progress", () => {
  it("counts Processing and Error as running, Succeeded and Failed as finished", () => {
    expect(
      ["Processing", "Error", "Failed", "Succeeded"].map((s) => isActiveMigration(m("x", s, "2026-11-23T09:00:00Z"))),
    ).toEqual([true, true, false, false]);
  });

  it("shows running ones newest first, then finished ones by when they finished", () => {
    const items = [
      m("old-done", "Succeeded", "2026-11-20T09:00:00Z", "2026-11-23T08:00:00Z"),
      m("running-1", "Processing", "2026-11-23T08:00:00Z"),
      m("failed", "Failed", "2026-11-22T09:00:00Z", "2026-11-22T21:00:00Z"),
      m("running-2", "Error", "2026-11-23T09:00:00Z"),
    ];
    const { active, finished } = splitMigrations(items);
    expect(active.map((x) => x.id)).toEqual(["running-2", "running-1"]);
    expect(finished.map((x) => x.id)).toEqual(["old-done", "failed"]);
  });

  it("finds the step running or next, and how many succeeded", () => {
    const running = m("r", "Processing", "2026-11-23T09:00:00Z", undefined, ["Succeeded", "Error"]);
    expect(currentStepIndex(running)).toBe(1);
    expect(stepsSucceeded(running)).toBe(1);
    expect(
      currentStepIndex(m("d", "Succeeded", "2026-11-23T09:00:00Z", undefined, ["Succeeded", "Succeeded", "Succeeded"])),
    ).toBe(-1);
  });

  it("describes steps in the flow's words", () => {
    expect(stepDescription("CreateETCDSnapshot")).toBe("Creating ETCD Snapshot");
    expect(stepPhase("CopyEtcdBackups")).toBe("Restore");
    expect(stepDescription("Unknown")).toBe("Unknown");
  });

  it("measures how long a migration ran, or has been running", () => {
    const now = Date.parse("2026-11-23T10:00:00Z");
    expect(migrationDuration(m("a", "Processing", "2026-11-23T09:00:00Z"), now)).toBe(3_600_000);
    expect(migrationDuration(m("b", "Succeeded", "2026-11-23T09:00:00Z", "2026-11-23T09:00:30Z"), now)).toBe(30_000);
  });
});

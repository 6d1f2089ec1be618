import { describe, expect, it } from "vitest";
import type { UpdateRunAnswer } from "../api/update-runs.ts";
import {
  changeText,
  durationText,
  itemCounts,
  momentText,
  itemStateMeta,
  stageStateMeta,
  runActions,
  runProgress,
  stageWaitText,
  targetShort,
  targetText,
} from "./update-run-text.ts";

type Stage = UpdateRunAnswer["stages"][number];
const NOW = Date.parse("2026-11-27T13:00:00Z");

const stage = (over: Partial<Stage> = {}): Stage => ({
  name: "canary",
  when: "now",
  soakSeconds: 0,
  approval: false,
  state: "Pending",
  items: [],
  ...over,
});

describe("targetText", () => {
  it("says each target in words, and briefly for a table", () => {
    expect(targetText({ action: "maintain" })).toMatch(/^Maintain now/);
    expect(targetText({ kubernetes: "1.33" })).toBe("Kubernetes 1.33 (its latest patch)");
    expect(targetText({ kubernetes: "1.33.4" })).toBe("Kubernetes 1.33.4");
    expect(targetText({ kubernetes: "latest-patch" })).toBe("Kubernetes: the latest patch of each cluster's minor");
    expect(targetText({ machineImage: { name: "gardenlinux", version: "1592.3" } })).toBe(
      "Machine image gardenlinux 1592.3",
    );
    expect(targetShort({ machineImage: { name: "gardenlinux", version: "1592.3" } })).toBe("gardenlinux 1592.3");
    expect(targetShort({ kubernetes: "1.33" })).toBe("Kubernetes 1.33");
  });
});

describe("durationText", () => {
  it("says a soak or a gate in its two largest units", () => {
    expect(durationText(0)).toBe("none");
    expect(durationText(45)).toBe("45 s");
    expect(durationText(600)).toBe("10 min");
    expect(durationText(5400)).toBe("1 h 30 min");
    expect(durationText(7 * 86_400)).toBe("7 d");
    expect(durationText(2 * 86_400 + 4 * 3600)).toBe("2 d 4 h");
  });
});

describe("momentText", () => {
  it("says local time and UTC side by side, the day only when it is not today", () => {
    expect(momentText("2026-11-27T13:05:00Z", NOW, "Europe/Berlin")).toBe("14:05 (13:05 UTC)");
    expect(momentText("2026-12-01T13:05:00Z", NOW, "Europe/Berlin")).toBe("Tue 1 Dec, 14:05 (1 Dec, 13:05 UTC)");
    // Another day locally, the same day in UTC.
    expect(momentText("2026-11-27T23:30:00Z", NOW, "Europe/Berlin")).toBe("Sat 28 Nov, 00:30 (23:30 UTC)");
  });
});

describe("stageWaitText", () => {
  const running = { state: "Running" as const, stages: [] };
  it("names the clusters that hold the health gate first", () => {
    const holding = [
      { namespace: "garden-a", name: "one", reason: "Unhealthy" },
      { namespace: "garden-a", name: "two", reason: "last operation Failed" },
    ];
    expect(stageWaitText(stage({ state: "Gating", holding }), { state: "Paused", stages: [] }, NOW)).toBe(
      "Health gate: 2 clusters hold it: garden-a/one (Unhealthy), garden-a/two (last operation Failed).",
    );
    const many = Array.from({ length: 5 }, (_, i) => ({ namespace: "ns", name: `s${i}`, reason: "Unhealthy" }));
    expect(stageWaitText(stage({ state: "Gating", holding: many }), running, NOW)).toMatch(/and 2 more\.$/);
  });
  it("says a stage waits for approval while the run does", () => {
    const waiting = stage({ name: "prod", approval: true, state: "Pending" });
    const run = { state: "WaitingForApproval" as const, stages: [stage({ state: "Succeeded" }), waiting] };
    expect(stageWaitText(waiting, run, NOW)).toBe("Waiting for approval before it starts.");
    expect(stageWaitText(run.stages[0]!, run, NOW)).toBeUndefined();
  });
  it("says until when a stage soaks, in local time and UTC", () => {
    const soaking = stage({ state: "Soaking", soakUntil: "2026-11-27T13:05:00Z" });
    expect(stageWaitText(soaking, running, NOW, "Europe/Berlin")).toBe("Soaking until 14:05 (13:05 UTC).");
    expect(stageWaitText(soaking, running, Date.parse("2026-11-27T13:06:00Z"))).toBeUndefined();
  });
  it("says when the next maintenance window of a window stage comes", () => {
    const items = [
      { namespace: "ns", name: "a", state: "Pending", dueAt: "2026-11-27T22:00:00Z" },
      { namespace: "ns", name: "b", state: "Pending", dueAt: "2026-11-27T21:00:00Z" },
      { namespace: "ns", name: "c", state: "Succeeded", dueAt: "2026-11-27T12:00:00Z" },
    ] as const;
    expect(stageWaitText(stage({ when: "window", state: "Pending", items }), running, NOW, "UTC")).toBeUndefined();
    expect(stageWaitText(stage({ when: "window", state: "Acting", items }), running, NOW, "UTC")).toBe(
      "Waiting for 2 clusters' maintenance windows: the next at 21:00 (21:00 UTC).",
    );
  });
  it("says nothing once the run or the stage has ended", () => {
    const holding = [{ namespace: "ns", name: "a", reason: "Unhealthy" }];
    expect(stageWaitText(stage({ holding }), { state: "Cancelled", stages: [] }, NOW)).toBeUndefined();
    expect(stageWaitText(stage({ state: "Succeeded", holding }), running, NOW)).toBeUndefined();
  });
});

describe("runActions", () => {
  it("allows approve only while the run waits for approval, resume only while paused", () => {
    expect(runActions("WaitingForApproval").approve.enabled).toBe(true);
    expect(runActions("Running").approve).toEqual({
      enabled: false,
      reason: "Nothing waits for approval: the run is running.",
    });
    expect(runActions("Paused").resume.enabled).toBe(true);
    expect(runActions("Paused").pause.reason).toBe("The run is already paused.");
    expect(runActions("Running").resume.enabled).toBe(false);
    expect(runActions("Pending").cancel.enabled).toBe(true);
  });
  it("allows nothing once the run has ended, and says so", () => {
    for (const state of ["Succeeded", "Failed", "Cancelled"] as const) {
      const actions = runActions(state);
      for (const action of Object.values(actions)) expect(action.enabled).toBe(false);
      expect(actions.cancel.reason).toMatch(/^The run has ended/);
    }
  });
});

describe("runProgress and itemCounts", () => {
  it("counts the clusters done with of all, and the stages done", () => {
    const run = {
      stages: [
        stage({
          state: "Succeeded",
          items: [
            { namespace: "ns", name: "a", state: "Succeeded" },
            { namespace: "ns", name: "b", state: "Refused" },
          ],
        }),
        stage({
          state: "Acting",
          items: [
            { namespace: "ns", name: "c", state: "Acting" },
            { namespace: "ns", name: "d", state: "Pending" },
          ],
        }),
      ],
    };
    expect(runProgress(run)).toEqual({ done: 2, total: 4, stagesDone: 1, failed: 1 });
    expect(itemCounts(run.stages[1]!.items)).toEqual([
      { state: "Acting", count: 1 },
      { state: "Pending", count: 1 },
    ]);
  });
});

describe("stageStateMeta and itemStateMeta", () => {
  it("reads known states and says unknown ones in words", () => {
    expect(itemStateMeta("Acting").word).toBe("Updating");
    expect(stageStateMeta("WaitingForApproval").tone).toBe("violet");
    expect(stageStateMeta("Pending").word).toBe("Not begun");
    expect(stageStateMeta("InWindow")).toEqual({ word: "In window", tone: "grey", icon: "clock" });
  });
});

describe("changeText", () => {
  it("says a change's field as people say it, before and after", () => {
    expect(changeText({ field: "spec.kubernetes.version", before: "1.32.5", after: "1.33.2" })).toBe(
      "Kubernetes version 1.32.5 → 1.33.2",
    );
    expect(
      changeText({ field: "spec.provider.workers[pool-a].machine.image.version", before: "1443.10", after: "1592.3" }),
    ).toBe("worker pool-a: image version 1443.10 → 1592.3");
    expect(changeText({ field: "spec.maintenance.autoUpdate", before: null, after: { a: true } })).toBe(
      'maintenance.autoUpdate none → {"a":true}',
    );
  });
});

// What runs vs what is asked, in the words every page uses.
import { describe, expect, it } from "vitest";
import {
  describeRolloutChange,
  rolloutChangeOf,
  rolloutWhenText,
  type VersionRollout,
} from "./version-rollout-text.ts";

const rollout: VersionRollout = {
  runningSince: "2026-09-01T02:10:00Z",
  when: "window",
  changes: [
    { target: "controlPlane", kind: "kubernetes", subject: "Kubernetes", running: "1.32.7", asked: "1.33.6" },
    { target: "worker", kind: "machineImage", subject: "gardenlinux", running: "1592.4.0", asked: "1877.3.0" },
  ],
};

describe("version rollout words", () => {
  it("names each lane's running and asked version", () => {
    expect(rollout.changes.map(describeRolloutChange)).toEqual([
      "Control plane: Kubernetes 1.32.7 → 1.33.6",
      'Pool "worker": machine image gardenlinux 1592.4.0 → 1877.3.0',
    ]);
    expect(rolloutChangeOf(rollout, "worker", "kubernetes")).toBeUndefined();
    expect(rolloutChangeOf(null, "controlPlane", "kubernetes")).toBeUndefined();
  });

  it("says when the asked version runs: the next window with its time in UTC too, or the reconcile", () => {
    expect(rolloutWhenText(rollout, "2026-11-25T02:00:00Z")).toMatch(
      /^in the next window \(.+ local · 25 Nov, 02:00 UTC\)$/,
    );
    expect(rolloutWhenText(rollout)).toBe("in the next maintenance window");
    expect(rolloutWhenText({ when: "reconcile" }, "2026-11-25T02:00:00Z")).toBe("(its reconcile rolls it out)");
  });
});

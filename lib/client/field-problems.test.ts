import { describe, expect, it } from "vitest";
import { isUnder, placeFieldProblems } from "./field-problems.ts";

const problem = (field: string, detail = `${field} is wrong`) => ({ field, type: "Invalid", detail });

describe("isUnder", () => {
  it("takes the path itself, its members and its items, not a longer name that only starts alike", () => {
    expect(isUnder("spec.kubernetes.version", "spec.kubernetes.version")).toBe(true);
    expect(isUnder("spec.maintenance.timeWindow.begin", "spec.maintenance.timeWindow")).toBe(true);
    expect(isUnder("spec.provider.workers[1].machine.image", "spec.provider.workers[1]")).toBe(true);
    expect(isUnder("spec.provider.workers[10]", "spec.provider.workers[1]")).toBe(false);
    expect(isUnder("spec.kubernetes.versionX", "spec.kubernetes.version")).toBe(false);
  });
});

describe("placeFieldProblems", () => {
  // The whole window before its begin: the order the form lists its fields in does not matter.
  const maintenance = {
    window: "spec.maintenance.timeWindow",
    begin: "spec.maintenance.timeWindow.begin",
    confine: "spec.maintenance.confineSpecUpdateRollout",
  };

  it("places a problem at the field with the longest path that contains it, and only there", () => {
    const { messages } = placeFieldProblems(
      [problem("spec.maintenance.timeWindow.begin", "begin is late")],
      maintenance,
    );
    expect(messages).toEqual({ begin: "begin is late" });
  });

  it("places a problem of a part no field stands for at the field of the whole", () => {
    const { messages } = placeFieldProblems([problem("spec.maintenance.timeWindow.end", "too short")], maintenance);
    expect(messages).toEqual({ window: "too short" });
  });

  it("keeps the first problem of a field, in the server's order", () => {
    const { messages } = placeFieldProblems(
      [
        problem("spec.maintenance.confineSpecUpdateRollout", "first"),
        problem("spec.maintenance.confineSpecUpdateRollout", "second"),
      ],
      maintenance,
    );
    expect(messages.confine).toBe("first");
  });

  it("hands back what no field claims, for the form's summary", () => {
    const placed = placeFieldProblems([problem("metadata.resourceVersion"), problem("spec.kubernetes.version")], {
      version: "spec.kubernetes.version",
    });
    expect(placed.messages).toEqual({ version: "spec.kubernetes.version is wrong" });
    expect(placed.unplaced.map((p) => p.field)).toEqual(["metadata.resourceVersion"]);
  });

  it("tells pools apart by their index", () => {
    const { messages } = placeFieldProblems([problem("spec.provider.workers[1].machine.image.version", "expired")], {
      a: "spec.provider.workers[0]",
      b: "spec.provider.workers[1]",
    });
    expect(messages).toEqual({ b: "expired" });
  });
});

import { describe, expect, it } from "vitest";
import { changeText, isMinorUpdate, kindText, shortReason, stuckExplanation, targetText } from "./forecast-text.ts";

const item = {
  target: "worker" as const,
  worker: "pool-a",
  kind: "machineImage" as const,
  from: "1592.1.0",
  to: "1592.9.0",
  reason: "",
  stuck: false,
};

describe("forecast text", () => {
  it("names what moves and how", () => {
    expect(targetText(item)).toBe("Pool pool-a");
    expect(targetText({ ...item, target: "controlPlane" })).toBe("Control plane");
    expect(kindText(item)).toBe("Machine image");
    expect(changeText(item)).toBe("1592.1.0 → 1592.9.0");
    expect(changeText({ ...item, to: undefined, stuck: true })).toBe("1592.1.0 → no version (stuck)");
  });

  it("shortens the controller's reasons", () => {
    expect(shortReason("Kubernetes version expired - force update required")).toBe("Expired");
    expect(shortReason("Machine image version expired - force update required (image update strategy: minor)")).toBe(
      "Expired (image strategy minor)",
    );
    expect(shortReason("Version does not exist in CloudProfile")).toBe("Not in the cloud profile");
    expect(shortReason("something else")).toBe("something else");
  });

  it("tells minor updates from patch updates", () => {
    const k = { ...item, kind: "kubernetes" as const, target: "controlPlane" as const };
    expect(isMinorUpdate({ ...k, from: "1.30.14", to: "1.31.13" })).toBe(true);
    expect(isMinorUpdate({ ...k, from: "1.30.11", to: "1.30.14" })).toBe(false);
    expect(isMinorUpdate({ ...k, from: "1.30.14", to: undefined })).toBe(false);
    expect(isMinorUpdate(item)).toBe(false);
  });
});

describe("stuckExplanation", () => {
  const message =
    "Control plane cannot leave Kubernetes 1.24.12 in the window: it must be updated, so the cluster will be stuck.";
  it("spells out why a stuck item is stuck, with the controller's error, for the row itself", () => {
    const lines = stuckExplanation({
      stuck: true,
      message,
      error: 'could not determine higher suitable version than "1.24.12"',
    });
    expect(lines[0]).toBe(message);
    expect(lines[1]).toMatch(/^Maintenance fails in this window/);
    expect(lines[2]).toBe(
      'The maintenance controller reports: could not determine higher suitable version than "1.24.12"',
    );
  });

  it("says nothing twice and nothing for an item that updates", () => {
    expect(stuckExplanation({ stuck: true, message })).toHaveLength(2);
    expect(stuckExplanation({ stuck: true, message, error: "will be stuck" })).toHaveLength(2);
    expect(stuckExplanation({ stuck: false, message: "moves" })).toEqual([]);
  });
});

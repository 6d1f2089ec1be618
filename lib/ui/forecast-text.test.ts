import { describe, expect, it } from "vitest";
import { changeText, isMinorUpdate, kindText, shortReason, targetText } from "./forecast-text.ts";

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

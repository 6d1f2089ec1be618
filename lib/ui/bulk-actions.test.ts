import { describe, expect, it } from "vitest";
import type { BulkActionItem } from "../api/bulk-actions.ts";
import { bulkAllowance, bulkParams, DEFAULT_PARAMS, gardenerClock, outcomeOrder } from "./bulk-actions.ts";

describe("bulk action parameters", () => {
  it("write a UTC time as Gardener's clock, and leave what is not a time as typed for the server to name", () => {
    expect(gardenerClock("22:00")).toBe("220000+0000");
    expect(gardenerClock("07:30")).toBe("073000+0000");
    expect(gardenerClock("24:00")).toBeUndefined();
    expect(bulkParams("set-window", { ...DEFAULT_PARAMS, windowBegin: "01:00", windowEnd: "" })).toEqual({
      begin: "010000+0000",
      end: "",
    });
  });

  it("send only the auto-update flags that are set, and none for the actions without parameters", () => {
    expect(
      bulkParams("set-auto-update", { ...DEFAULT_PARAMS, kubernetesVersion: "off", machineImageVersion: "keep" }),
    ).toEqual({ kubernetesVersion: false });
    expect(
      bulkParams("set-auto-update", { ...DEFAULT_PARAMS, kubernetesVersion: "keep", machineImageVersion: "on" }),
    ).toEqual({ machineImageVersion: true });
    expect(bulkParams("set-confine-rollout", { ...DEFAULT_PARAMS, confine: false })).toEqual({
      confineSpecUpdateRollout: false,
    });
    expect(bulkParams("maintain", DEFAULT_PARAMS)).toBeUndefined();
    expect(bulkParams("wake", DEFAULT_PARAMS)).toBeUndefined();
  });
});

describe("who may start a bulk action", () => {
  it("an operator somewhere may; a viewer is told why not; unknown while /me loads", () => {
    expect(bulkAllowance([{ role: "operator", scope: "analytics" }], false).allowed).toBe(true);
    expect(bulkAllowance([{ role: "viewer", scope: "analytics" }], false)).toEqual({
      allowed: false,
      known: true,
      reason: "Your role viewer on project analytics does not allow changing clusters; bulk actions need operator.",
    });
    expect(bulkAllowance([], false).reason).toBe(
      "You have no role that allows changing clusters; bulk actions need operator.",
    );
    expect(bulkAllowance(undefined, false)).toEqual({ allowed: false, known: false });
    expect(bulkAllowance(undefined, true)).toEqual({ allowed: true, known: false });
  });
});

describe("a bulk action's outcome", () => {
  it("lists failures first, then refusals, then the rest, by name within", () => {
    const item = (name: string, state: BulkActionItem["state"]): BulkActionItem => ({
      namespace: "garden-x",
      name,
      state,
      changes: [],
    });
    expect(
      outcomeOrder([item("a", "Succeeded"), item("b", "Refused"), item("d", "Failed"), item("c", "Failed")]).map(
        (i) => i.name,
      ),
    ).toEqual(["c", "d", "b", "a"]);
  });
});

import { describe, expect, it } from "vitest";
import { actionMeta } from "./audit-format.ts";

describe("actionMeta", () => {
  it("words a known action, and an unknown one as itself", () => {
    expect(actionMeta("shoot.migrate")).toEqual({ word: "Migration started", tone: "blue" });
    expect(actionMeta("something.new")).toEqual({ word: "something.new", tone: "grey" });
  });

  it("says when a live garden's answer to a change was never seen", () => {
    expect(actionMeta("shoot.update.outcome-unknown")).toEqual({
      word: "Spec changed (outcome unknown)",
      tone: "amber",
    });
  });
});

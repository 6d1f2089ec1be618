import { describe, expect, it } from "vitest";
import { satisfiesConstraint } from "./machine-image-maintenance.ts";

describe("kubeletVersionConstraint (Masterminds syntax)", () => {
  it.each([
    ["1.27.3", ">= 1.26", true],
    ["1.25.9", ">= 1.26", false],
    ["1.27.3", ">= 1.26, < 1.28", true],
    ["1.28.0", ">= 1.26, < 1.28", false],
    ["1.27.0", "=> 1.26", true],
    ["1.29.0", "=< 1.28", false],
    ["1.27.0", "!=1.26.0", true],
    ["1.26.0", "!=1.26.0", false],
    ["1.24.1", "< 1.25 || >= 1.30", true],
    ["1.27.1", "< 1.25 || >= 1.30", false],
    ["1.27.9", "~1.27", true],
    ["1.27.0", "not a constraint", false],
  ])("%s satisfies %j: %s", (version, constraint, expected) => {
    expect(satisfiesConstraint(version, constraint)).toBe(expected);
  });
});

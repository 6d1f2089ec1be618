import { describe, expect, it } from "vitest";
import { canonicalVersion, compareVersions, normalizeVersionString, parseVersion } from "./version.ts";

describe("parseVersion (loose semver as Gardener)", () => {
  it.each([
    ["1", [1, 0, 0]],
    ["1.7", [1, 7, 0]],
    ["1.11.09", [1, 11, 9]],
    ["v1.2.3", [1, 2, 3]],
    ["15.3.20220818", [15, 3, 20220818]],
  ])("parses %s", (text, [major, minor, patch]) => {
    const v = parseVersion(text);
    expect([v.major, v.minor, v.patch]).toEqual([major, minor, patch]);
    expect(v.original).toBe(text);
  });

  it.each(["1.213123xx", "", "1.2.3.4", "a.b.c", "1.2.3-01"])("rejects %j", (text) => {
    expect(() => parseVersion(text)).toThrow();
  });

  it("orders prereleases below their release and ignores metadata", () => {
    expect(compareVersions(parseVersion("1.0.0-inplace"), parseVersion("1.0.0"))).toBe(-1);
    expect(compareVersions(parseVersion("1.0.0+abc"), parseVersion("1.0.0"))).toBe(0);
    expect(compareVersions(parseVersion("1.0.0-alpha.2"), parseVersion("1.0.0-alpha.10"))).toBe(-1);
    expect(compareVersions(parseVersion("1.0.0-alpha"), parseVersion("1.0.0-1"))).toBe(1);
    expect(compareVersions(parseVersion("1.10.0"), parseVersion("1.9.9"))).toBe(1);
  });

  it("prints the canonical form", () => {
    expect(canonicalVersion(parseVersion("v1.11.09"))).toBe("1.11.9");
    expect(canonicalVersion(parseVersion("2"))).toBe("2.0.0");
  });

  it("normalises by dropping every v and cutting at - + ~", () => {
    expect(normalizeVersionString("v1.2.3-rc.1+meta")).toBe("1.2.3");
    expect(normalizeVersionString("1.2.3~x")).toBe("1.2.3");
  });
});

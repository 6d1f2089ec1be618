import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-next.ts";

describe("where sign-in goes afterwards", () => {
  it("keeps a path of this site, with its query", () => {
    expect(safeNext("/namespaces/garden-dev/shoots/a?tab=history#x")).toBe(
      "/namespaces/garden-dev/shoots/a?tab=history#x",
    );
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/..//evil.example",
    "/.//evil.example",
    "/%2e%2e//evil.example",
    "/%2E%2E//evil.example",
    "/../\\evil.example",
    "/./\\evil.example",
    "/a/../..//evil.example",
    "https://evil.example",
    "evil",
  ])("never leaves the site: %j", (next) => {
    expect(safeNext(next)).toBe("/shoots");
  });

  it("keeps only paths that resolve to themselves", () => {
    for (const next of ["/shoots", "/namespaces/a/shoots/b?x=1", "/a/../b", "/%2e%2e//x", "/..//x"]) {
      const kept = safeNext(next);
      expect(safeNext(kept)).toBe(kept);
      expect(kept).toMatch(/^\/(?![/\\])/);
    }
  });

  it("goes to the fleet without a next", () => {
    expect(safeNext(undefined)).toBe("/shoots");
  });
});

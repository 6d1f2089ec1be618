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
    "https://evil.example",
    "evil",
  ])("never leaves the site: %j", (next) => {
    expect(safeNext(next)).toBe("/shoots");
  });

  it("goes to the fleet without a next", () => {
    expect(safeNext(undefined)).toBe("/shoots");
  });
});

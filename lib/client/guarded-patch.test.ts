import { describe, expect, it } from "vitest";
import { guardedPatch, recheckConflict, samePlainData } from "./guarded-patch.ts";

describe("recheckConflict", () => {
  // A Kubernetes update from 1.30.11 to 1.30.14, refused with a 409.
  const update = { base: "1.30.11", wanted: "1.30.14" };

  it("sends the change again when its part is as the user saw it (only status or other settings moved)", () => {
    expect(recheckConflict(update, "1.30.11")).toBe("retry");
  });

  it("reports the change as made when someone else made the same one", () => {
    expect(recheckConflict(update, "1.30.14")).toBe("applied");
  });

  it("gives the user the current shoot when someone decided differently", () => {
    expect(recheckConflict(update, "1.30.12")).toBe("superseded");
    expect(recheckConflict(update, "1.31.2")).toBe("superseded");
  });

  it("judges several pools together: one of them moved elsewhere supersedes the whole change", () => {
    const images = { base: ["1592.1.0", "934.8.0"], wanted: ["1592.2.0", "934.9.0"] };
    expect(recheckConflict(images, ["1592.1.0", "934.8.0"])).toBe("retry");
    expect(recheckConflict(images, ["1592.2.0", "934.9.0"])).toBe("applied");
    expect(recheckConflict(images, ["1592.2.0", "934.8.0"])).toBe("superseded");
  });

  it("never takes a change as made without the part it leaves", () => {
    expect(recheckConflict({ base: { confine: false } }, { confine: true })).toBe("superseded");
    expect(recheckConflict({ base: { confine: false } }, { confine: false })).toBe("retry");
  });

  it("compares with the caller's notion of the same (e.g. one window written in two offsets)", () => {
    const minutes = (w: string) => Number(w.slice(0, 2)) * 60 + Number(w.slice(2, 4)) - Number(w.slice(7, 9)) * 60;
    const sameWindow = (a: string, b: string) => minutes(a) === minutes(b);
    const change = { base: "030000+0200", wanted: "040000+0200", same: sameWindow };
    expect(recheckConflict(change, "010000+0000")).toBe("retry");
    expect(recheckConflict(change, "020000+0000")).toBe("applied");
    expect(recheckConflict(change, "050000+0000")).toBe("superseded");
  });
});

describe("guardedPatch", () => {
  it("carries the resourceVersion the change was made on", () => {
    expect(guardedPatch("42", { kubernetes: { version: "1.30.14" } })).toEqual({
      metadata: { resourceVersion: "42" },
      spec: { kubernetes: { version: "1.30.14" } },
    });
  });

  it("is unguarded without one", () => {
    expect(guardedPatch(undefined, { kubernetes: { version: "1.30.14" } })).toEqual({
      spec: { kubernetes: { version: "1.30.14" } },
    });
  });
});

describe("samePlainData", () => {
  it("compares objects by their values, whatever the key order, a missing key as undefined", () => {
    expect(samePlainData({ a: 1, b: [1, { c: "x" }] }, { b: [1, { c: "x" }], a: 1 })).toBe(true);
    expect(samePlainData({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(samePlainData({ a: 1 }, { a: 2 })).toBe(false);
  });

  it("tells arrays from objects and keeps array order", () => {
    expect(samePlainData([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(samePlainData([1, 2], [2, 1])).toBe(false);
    expect(samePlainData([undefined], [])).toBe(false);
    expect(samePlainData(null, {})).toBe(false);
  });
});

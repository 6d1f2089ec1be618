import { describe, expect, it } from "vitest";
import { isDataError, objectFault, objectKeyText } from "./garden-object-faults.ts";

const shoot = { kind: "Shoot", namespaced: true };
const seed = { kind: "Seed", namespaced: false };

describe("what the mirror cannot take from the garden", () => {
  it("takes an object of its kind with a name (and namespace), kind or no kind", () => {
    expect(objectFault({ kind: "Shoot", metadata: { name: "a", namespace: "garden-x" } }, shoot)).toBeUndefined();
    expect(objectFault({ metadata: { name: "a" }, spec: { x: ["é", "😀"] } }, seed)).toBeUndefined();
  });

  it.each([
    [{ kind: "Seed", metadata: { name: "a", namespace: "n" } }, shoot, "unknown-kind"],
    [{ metadata: { namespace: "n" } }, shoot, "no-name"],
    [{ metadata: { name: "a" } }, shoot, "no-name"],
    [{ metadata: { name: "" } }, seed, "no-name"],
    [null, seed, "no-name"],
    [{ metadata: { name: "a", labels: { x: "nul\u0000" } } }, seed, "unwritable-text"],
    [{ metadata: { name: "a", annotations: { "k\u0000": "v" } } }, seed, "unwritable-text"],
    [{ metadata: { name: "a" }, spec: { list: ["half \ud800 a pair"] } }, seed, "unwritable-text"],
  ])("refuses %j as a %j: %s", (object, shape, reason) => {
    expect(objectFault(object, shape)).toBe(reason);
  });

  it("names objects by namespace/name, or ? for what has no name", () => {
    expect(objectKeyText({ metadata: { namespace: "n", name: "a" } })).toBe("n/a");
    expect(objectKeyText({ metadata: { name: "a" } })).toBe("a");
    expect(objectKeyText({ metadata: { namespace: "n" } })).toBe("n/?");
    expect(objectKeyText(undefined)).toBe("?");
  });

  it("tells a write refused for its data from a database that is unavailable", () => {
    const adapterError = (code: string) => ({
      code: "P2010",
      meta: { driverAdapterError: { cause: { originalCode: code } } },
    });
    expect(isDataError(adapterError("22P05"))).toBe(true);
    expect(isDataError({ code: "22P02" })).toBe(true);
    expect(isDataError(new TypeError("Cannot read properties of undefined"))).toBe(true);
    expect(isDataError(adapterError("57P01"))).toBe(false); // the server shut down
    expect(isDataError({ code: "ECONNREFUSED" })).toBe(false);
    expect(isDataError({ code: "P1001" })).toBe(false);
    expect(isDataError(new Error("This process no longer holds the garden lease"))).toBe(false);
  });
});

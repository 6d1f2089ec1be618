import { describe, expect, it } from "vitest";
import { allows, allowsSomewhere, isRole, roleFor, roleOn, type Binding } from "./roles.ts";

const viewerEverywhere: Binding[] = [{ role: "viewer", scope: "*" }];
const operatorOnDev: Binding[] = [{ role: "operator", scope: "dev" }];

describe("allows", () => {
  it("lets each role do what the roles below it do", () => {
    const admin: Binding[] = [{ role: "admin", scope: "*" }];
    expect(["read", "operate", "administer"].map((p) => allows(admin, p as never, "dev"))).toEqual([true, true, true]);
    expect(allows(viewerEverywhere, "read", "dev")).toBe(true);
    expect(allows(viewerEverywhere, "operate", "dev")).toBe(false);
  });

  it("applies a project's role to that project only, and never landscape-wide", () => {
    expect(allows(operatorOnDev, "operate", "dev")).toBe(true);
    expect(allows(operatorOnDev, "operate", "prod")).toBe(false);
    expect(allows(operatorOnDev, "read")).toBe(false);
  });

  it("allows nothing without bindings", () => {
    expect(allows([], "read", "dev")).toBe(false);
  });
});

describe("roleOn, roleFor, isRole", () => {
  it("answers the strongest role that applies", () => {
    const both: Binding[] = [...viewerEverywhere, ...operatorOnDev];
    expect(roleOn(both, "dev")).toBe("operator");
    expect(roleOn(both, "prod")).toBe("viewer");
    expect(roleOn(operatorOnDev)).toBeUndefined();
  });

  it("names the role a permission needs", () => {
    expect([roleFor("read"), roleFor("operate"), roleFor("administer")]).toEqual(["viewer", "operator", "admin"]);
    expect(isRole("operator")).toBe(true);
    expect(isRole("owner")).toBe(false);
  });
});

describe("allowsSomewhere", () => {
  it("holds for a role on any project or on the landscape, and only up to that role", () => {
    expect(allowsSomewhere([{ role: "viewer", scope: "dev" }], "read")).toBe(true);
    expect(allowsSomewhere([{ role: "viewer", scope: "dev" }], "operate")).toBe(false);
    expect(allowsSomewhere([{ role: "operator", scope: "*" }], "operate")).toBe(true);
    expect(allowsSomewhere([], "read")).toBe(false);
  });
});

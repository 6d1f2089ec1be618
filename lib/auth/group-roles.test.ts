import { describe, expect, it } from "vitest";
import { parseSetting } from "../config/load-config.ts";
import { SETTINGS } from "../config/settings.ts";
import { bindingsOfGroups, personBindings } from "./group-roles.ts";

const parseGroupRoles = (text: string | undefined) => parseSetting(SETTINGS.signIn.groupRoles, text);

describe("ALMANAC_GROUP_ROLES", () => {
  it("reads landscape and project roles, one per line or separated by semicolons", () => {
    expect(parseGroupRoles("landscape-admins=admin; team-a=operator:project-a\n  auditors = viewer  ")).toEqual([
      { group: "landscape-admins", role: "admin", scope: "*" },
      { group: "team-a", role: "operator", scope: "project-a" },
      { group: "auditors", role: "viewer", scope: "*" },
    ]);
  });

  it("splits at the last '=' so LDAP groups keep theirs", () => {
    expect(parseGroupRoles("cn=ops,ou=teams=operator")).toEqual([
      { group: "cn=ops,ou=teams", role: "operator", scope: "*" },
    ]);
  });

  it("is empty when unset or blank", () => {
    expect(parseGroupRoles(undefined)).toEqual([]);
    expect(parseGroupRoles(" ;\n ")).toEqual([]);
  });

  it.each([
    ["team-a", 'entry "team-a": it must read group=role'],
    ["=admin", 'entry "=admin": it must read group=role'],
    ["team-a=owner", '"owner" is not a role (viewer, operator, admin)'],
    ["team-a=viewer:Project_A", '"viewer:Project_A" does not name a project'],
    ["team-a=viewer:a:b", '"viewer:a:b" does not name a project'],
  ])("refuses %j, naming the entry and the fault", (text, message) => {
    expect(() => parseGroupRoles(text)).toThrow(message);
  });

  it("grants the bindings of the groups a person is in, and no others", () => {
    const mapping = parseGroupRoles("admins=admin; team-a=operator:a; team-b=viewer:b");
    expect(bindingsOfGroups(["team-a", "unrelated"], mapping)).toEqual([{ role: "operator", scope: "a" }]);
    expect(bindingsOfGroups([], mapping)).toEqual([]);
  });

  it("grants the strongest role per scope when several groups name one", () => {
    const mapping = parseGroupRoles("readers=viewer; ops=admin; team-a=operator:a; a-readers=viewer:a");
    expect(bindingsOfGroups(["readers", "ops", "a-readers", "team-a"], mapping)).toEqual([
      { role: "admin", scope: "*" },
      { role: "operator", scope: "a" },
    ]);
  });

  it("adds a person's group roles to their stored ones, each once, dropping unknown stored roles", () => {
    expect(
      personBindings(
        [
          { role: "operator", scope: "*" },
          { role: "owner", scope: "b" },
        ],
        ["ops", "team-a"],
        parseGroupRoles("ops=operator; team-a=viewer:a"),
      ),
    ).toEqual([
      { role: "operator", scope: "*" },
      { role: "viewer", scope: "a" },
    ]);
  });
});

import { describe, expect, it } from "vitest";
import type { MeBinding } from "../api/me.ts";
import {
  ALLOWED,
  allowance,
  NOT_KNOWN,
  NOT_YET_KNOWN,
  offersProject,
  projectOfNamespace,
  readableProjects,
  refusal,
} from "./permissions.ts";

describe("projectOfNamespace", () => {
  it("finds the project by the namespace /me names for it", () => {
    const bindings: MeBinding[] = [
      { role: "viewer", scope: "*" },
      { role: "operator", scope: "prod", namespace: "garden-prod" },
    ];
    expect(projectOfNamespace(bindings, "garden-prod")).toBe("prod");
    expect(projectOfNamespace(bindings, "garden-dev")).toBeUndefined();
  });
});

describe("refusal", () => {
  it("names the role, where it was granted, and the role needed", () => {
    expect(refusal([{ role: "viewer", scope: "dev" }], "operate", "dev")).toBe(
      "Your role viewer on project dev does not allow this; it needs operator.",
    );
    expect(refusal([{ role: "operator", scope: "*" }], "administer", "dev")).toBe(
      "Your role operator on the whole landscape does not allow this; it needs admin.",
    );
  });

  it("names the strongest role that applies, the project's own among equals", () => {
    const bindings: MeBinding[] = [
      { role: "viewer", scope: "*" },
      { role: "viewer", scope: "dev" },
      { role: "admin", scope: "prod" },
    ];
    expect(refusal(bindings, "operate", "dev")).toBe(
      "Your role viewer on project dev does not allow this; it needs operator.",
    );
  });

  it("says when no role applies", () => {
    expect(refusal([{ role: "admin", scope: "prod" }], "read", "dev")).toBe(
      "You have no role on project dev; this needs viewer.",
    );
    expect(refusal([{ role: "admin", scope: "prod" }], "operate")).toBe(
      "You have no role on the whole landscape or on this cluster's project; it needs operator.",
    );
  });

  it("is undefined when the role reaches", () => {
    expect(refusal([{ role: "operator", scope: "dev" }], "operate", "dev")).toBeUndefined();
  });
});

describe("allowance", () => {
  it("is not yet known while /me loads (disabled, without a reason)", () => {
    expect(allowance(undefined, false, "operate", "garden-dev")).toEqual(NOT_YET_KNOWN);
    expect(NOT_YET_KNOWN.allowed).toBe(false);
  });

  it("leaves the decision to the server when /me failed (enabled, not known)", () => {
    expect(allowance(undefined, true, "operate", "garden-dev")).toEqual(NOT_KNOWN);
    expect(NOT_KNOWN.allowed).toBe(true);
  });

  it("allows by a landscape-wide role anywhere", () => {
    expect(allowance([{ role: "operator", scope: "*" }], false, "operate", "garden-any")).toEqual(ALLOWED);
  });

  it("allows by the role on the shoot's project, and says why not elsewhere", () => {
    const bindings: MeBinding[] = [{ role: "operator", scope: "dev", namespace: "garden-dev" }];
    expect(allowance(bindings, false, "operate", "garden-dev")).toEqual(ALLOWED);
    expect(allowance(bindings, false, "administer", "garden-dev")).toEqual({
      allowed: false,
      known: true,
      reason: "Your role operator on project dev does not allow this; it needs admin.",
    });
    expect(allowance(bindings, false, "read", "garden-prod")).toEqual({
      allowed: false,
      known: true,
      reason: "You have no role on the whole landscape or on this cluster's project; it needs viewer.",
    });
  });

  it("counts only landscape-wide roles in a namespace of a project without a role", () => {
    const bindings: MeBinding[] = [
      { role: "viewer", scope: "*" },
      { role: "admin", scope: "dev", namespace: "garden-dev" },
    ];
    expect(allowance(bindings, false, "operate", "garden-prod").reason).toBe(
      "Your role viewer on the whole landscape does not allow this; it needs operator.",
    );
  });
});

describe("readableProjects", () => {
  it("is everything with a landscape-wide role, whatever else is held", () => {
    expect(readableProjects([{ role: "viewer", scope: "*" }])).toBe("all");
    expect(
      readableProjects([
        { role: "admin", scope: "dev", namespace: "garden-dev" },
        { role: "viewer", scope: "*" },
      ]),
    ).toBe("all");
  });

  it("is each project held a role on, once, by name, with its namespace when known", () => {
    const bindings: MeBinding[] = [
      { role: "viewer", scope: "prod", namespace: "garden-prod" },
      { role: "operator", scope: "dev", namespace: "garden-dev" },
      { role: "admin", scope: "prod", namespace: "garden-prod" },
      { role: "viewer", scope: "gone" },
    ];
    expect(readableProjects(bindings)).toEqual([
      { project: "dev", namespace: "garden-dev" },
      { project: "gone" },
      { project: "prod", namespace: "garden-prod" },
    ]);
  });

  it("is nothing without a role", () => {
    expect(readableProjects([])).toEqual([]);
  });
});

describe("offersProject", () => {
  it("offers every project until the roles are known, and with a landscape-wide role", () => {
    expect(offersProject(undefined, "prod")).toBe(true);
    expect(offersProject("all", "prod")).toBe(true);
  });

  it("offers a project-scoped caller their own projects only", () => {
    const readable = readableProjects([{ role: "viewer", scope: "dev", namespace: "garden-dev" }]);
    expect(offersProject(readable, "dev")).toBe(true);
    expect(offersProject(readable, "prod")).toBe(false);
  });
});

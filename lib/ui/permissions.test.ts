import { describe, expect, it } from "vitest";
import type { Binding } from "../api/roles.ts";
import type { Project } from "../gardener/types.ts";
import { ALLOWED, allowance, NOT_KNOWN, NOT_YET_KNOWN, projectOfNamespace, refusal } from "./permissions.ts";

const project = (name: string, namespace: string): Project => ({ metadata: { name }, spec: { namespace } });
const projects = [project("dev", "garden-dev"), project("prod", "garden-prod")];
const known = (bindings: Binding[]) => ({ bindings, meFailed: false, projects, projectsFailed: false });

describe("projectOfNamespace", () => {
  it("finds the project by its namespace, as the server does", () => {
    expect(projectOfNamespace(projects, "garden-prod")).toBe("prod");
    expect(projectOfNamespace(projects, "garden-nobody")).toBeUndefined();
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
    const bindings: Binding[] = [
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
    expect(refusal([{ role: "admin", scope: "prod" }], "operate")).toMatch(/^You have no role on the whole landscape/);
  });

  it("is undefined when the role reaches", () => {
    expect(refusal([{ role: "operator", scope: "dev" }], "operate", "dev")).toBeUndefined();
  });
});

describe("allowance", () => {
  it("is not yet known while /me loads (disabled, without a reason)", () => {
    const loading = { bindings: undefined, meFailed: false, projects: undefined, projectsFailed: false };
    expect(allowance(loading, "operate", "garden-dev")).toEqual(NOT_YET_KNOWN);
    expect(NOT_YET_KNOWN.allowed).toBe(false);
  });

  it("leaves the decision to the server when /me failed (enabled, not known)", () => {
    const failed = { bindings: undefined, meFailed: true, projects, projectsFailed: false };
    expect(allowance(failed, "operate", "garden-dev")).toEqual(NOT_KNOWN);
    expect(NOT_KNOWN.allowed).toBe(true);
  });

  it("needs no project list for a landscape-wide role that reaches", () => {
    const sources = { bindings: [{ role: "operator", scope: "*" }] as Binding[], meFailed: false };
    expect(allowance({ ...sources, projects: undefined, projectsFailed: false }, "operate", "garden-dev")).toEqual(
      ALLOWED,
    );
  });

  it("waits for the project list when only a project's role could reach", () => {
    const sources = { bindings: [{ role: "operator", scope: "dev" }] as Binding[], meFailed: false };
    expect(allowance({ ...sources, projects: undefined, projectsFailed: false }, "operate", "garden-dev")).toEqual(
      NOT_YET_KNOWN,
    );
    expect(allowance({ ...sources, projects: undefined, projectsFailed: true }, "operate", "garden-dev")).toEqual(
      NOT_KNOWN,
    );
  });

  it("allows by the role on the shoot's project, and says why not elsewhere", () => {
    const bindings: Binding[] = [{ role: "operator", scope: "dev" }];
    expect(allowance(known(bindings), "operate", "garden-dev")).toEqual(ALLOWED);
    expect(allowance(known(bindings), "administer", "garden-dev")).toEqual({
      allowed: false,
      known: true,
      reason: "Your role operator on project dev does not allow this; it needs admin.",
    });
    expect(allowance(known(bindings), "read", "garden-prod")).toEqual({
      allowed: false,
      known: true,
      reason: "You have no role on project prod; this needs viewer.",
    });
  });

  it("applies only landscape-wide roles to a namespace of no project", () => {
    const bindings: Binding[] = [
      { role: "viewer", scope: "*" },
      { role: "admin", scope: "dev" },
    ];
    expect(allowance(known(bindings), "operate", "garden-nobody").reason).toBe(
      "Your role viewer on the whole landscape does not allow this; it needs operator.",
    );
  });
});

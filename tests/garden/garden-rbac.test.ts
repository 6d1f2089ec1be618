// The ClusterRoles docs/operator/live-garden.md tells operators to apply grant every call Almanac makes to a
// live garden, each in its own file: the read-only one always, the admin token's writes and
// impersonation only where chosen. The read-only one grants nothing that writes or impersonates.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import {
  ADMIN_TOKEN_ACCESS,
  IMPERSONATION_ACCESS,
  REQUIRED_ACCESS,
  type RequiredAccess,
} from "../../lib/garden/kubernetes/required-access.ts";

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

const documentsOf = (file: string): any[] => parseAllDocuments(readFileSync(file, "utf8")).map((d) => d.toJS());

const FILES = {
  "deploy/garden-rbac.yaml": REQUIRED_ACCESS,
  "deploy/garden-rbac-admin-token.yaml": ADMIN_TOKEN_ACCESS,
  "deploy/garden-rbac-impersonation.yaml": IMPERSONATION_ACCESS,
} satisfies Record<string, readonly RequiredAccess[]>;

const rulesOf = (file: string): Rule[] => documentsOf(file).find((d) => d.kind === "ClusterRole").rules;

const grants = (rules: Rule[], group: string, resource: string, verb: string) =>
  rules.some(
    (r) =>
      (r.apiGroups.includes(group) || r.apiGroups.includes("*")) &&
      (r.resources.includes(resource) || r.resources.includes("*")) &&
      (r.verbs.includes(verb) || r.verbs.includes("*")),
  );

describe.each(Object.entries(FILES))("%s", (file, access) => {
  it("grants everything Almanac asks of the garden for what it is for", () => {
    const rules = rulesOf(file);
    const missing = access.flatMap((need) =>
      need.verbs.filter((verb) => !grants(rules, need.group, need.resource, verb)).map((v) => `${v} ${need.resource}`),
    );
    expect(missing).toEqual([]);
  });

  it("never lets Almanac's own identity request viewer kubeconfigs (a shoot's nodes are read as the person)", () => {
    const rules = rulesOf(file);
    expect(grants(rules, "core.gardener.cloud", "shoots/viewerkubeconfig", "create")).toBe(false);
    expect(rules.flatMap((r) => r.resources).filter((r) => r.startsWith("*/") || r === "shoots/*")).toEqual([]);
  });

  it("binds its own ClusterRole to the ServiceAccount almanac/almanac (the Deployment's, deploy/kubernetes)", () => {
    const documents = documentsOf(file);
    const role = documents.find((d) => d.kind === "ClusterRole");
    const binding = documents.find((d) => d.kind === "ClusterRoleBinding");
    expect(binding.roleRef).toEqual({
      apiGroup: "rbac.authorization.k8s.io",
      kind: "ClusterRole",
      name: role.metadata.name,
    });
    expect(binding.subjects).toEqual([{ kind: "ServiceAccount", name: "almanac", namespace: "almanac" }]);
  });
});

describe("the read-only ClusterRole (deploy/garden-rbac.yaml)", () => {
  const rules = rulesOf("deploy/garden-rbac.yaml");

  it("reads only: no write verb on any resource, no impersonation, no wildcard", () => {
    const verbs = new Set(rules.flatMap((r) => r.verbs));
    expect([...verbs].sort()).toEqual(["create", "get", "list", "watch"]);
    // create only for the access reviews it posts.
    expect(rules.filter((r) => r.verbs.includes("create")).flatMap((r) => r.resources)).toEqual([
      "subjectaccessreviews",
    ]);
    expect(rules.flatMap((r) => [...r.apiGroups, ...r.resources, ...r.verbs])).not.toContain("*");
    for (const need of [...ADMIN_TOKEN_ACCESS, ...IMPERSONATION_ACCESS])
      for (const verb of need.verbs)
        expect(grants(rules, need.group, need.resource, verb), `${verb} ${need.resource}`).toBe(false);
  });

  it("makes the ServiceAccount it binds, in its namespace", () => {
    const documents = documentsOf("deploy/garden-rbac.yaml");
    expect(documents.find((d) => d.kind === "ServiceAccount").metadata).toEqual({
      name: "almanac",
      namespace: "almanac",
    });
    expect(documents.find((d) => d.kind === "Namespace").metadata).toEqual({ name: "almanac" });
  });
});

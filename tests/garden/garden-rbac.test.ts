// The ClusterRole the README tells operators to apply grants every call Almanac makes to a live garden.
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { parseAllDocuments } from "yaml";
import { REQUIRED_ACCESS } from "../../lib/garden/kubernetes/required-access.ts";

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

const documents = parseAllDocuments(readFileSync("deploy/garden-rbac.yaml", "utf8")).map((d) => d.toJS());
const role = documents.find((d) => d.kind === "ClusterRole");

const grants = (group: string, resource: string, verb: string) =>
  (role.rules as Rule[]).some(
    (r) =>
      (r.apiGroups.includes(group) || r.apiGroups.includes("*")) &&
      (r.resources.includes(resource) || r.resources.includes("*")) &&
      (r.verbs.includes(verb) || r.verbs.includes("*")),
  );

test("the ClusterRole grants everything Almanac asks of the garden", () => {
  const missing = REQUIRED_ACCESS.flatMap((need) =>
    need.verbs.filter((verb) => !grants(need.group, need.resource, verb)).map((verb) => `${verb} ${need.resource}`),
  );
  expect(missing).toEqual([]);
});

test("it is bound to the service account an in-cluster Almanac runs as", () => {
  const binding = documents.find((d) => d.kind === "ClusterRoleBinding");
  expect(binding.roleRef).toEqual({
    apiGroup: "rbac.authorization.k8s.io",
    kind: "ClusterRole",
    name: role.metadata.name,
  });
  expect(documents.find((d) => d.kind === "ServiceAccount").metadata).toEqual(
    binding.subjects[0] && {
      name: binding.subjects[0].name,
      namespace: binding.subjects[0].namespace,
    },
  );
});

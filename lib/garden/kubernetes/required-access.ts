// Every kind of call Almanac makes to a live garden as its own identity, so the ClusterRole in
// deploy/garden-rbac.yaml can be checked against it (tests/garden/garden-rbac.test.ts).
export interface RequiredAccess {
  readonly group: string;
  readonly resource: string;
  readonly verbs: readonly string[];
  readonly why: string;
}

export const REQUIRED_ACCESS: readonly RequiredAccess[] = [
  {
    group: "core.gardener.cloud",
    resource: "cloudprofiles",
    verbs: ["list", "watch"],
    why: "the mirror follows the cloud profiles",
  },
  {
    group: "core.gardener.cloud",
    resource: "namespacedcloudprofiles",
    verbs: ["list", "watch"],
    why: "the mirror follows the namespaced cloud profiles (of every project)",
  },
  { group: "core.gardener.cloud", resource: "seeds", verbs: ["list", "watch"], why: "the mirror follows the seeds" },
  {
    group: "core.gardener.cloud",
    resource: "projects",
    verbs: ["list", "watch"],
    why: "the mirror follows the projects",
  },
  {
    group: "core.gardener.cloud",
    resource: "shoots",
    verbs: ["list", "watch", "patch", "delete"],
    why: "the mirror follows the shoots; the admin token changes and deletes them as Almanac",
  },
  {
    group: "core.gardener.cloud",
    resource: "shoots/binding",
    verbs: ["patch"],
    why: "a control-plane migration sets spec.seedName through the binding subresource",
  },
  { group: "", resource: "users", verbs: ["impersonate"], why: "changes are made as the signed-in person" },
  { group: "", resource: "groups", verbs: ["impersonate"], why: "with the person's groups" },
  {
    group: "authorization.k8s.io",
    resource: "subjectaccessreviews",
    verbs: ["create"],
    why: "to learn which namespaces a person may read",
  },
];

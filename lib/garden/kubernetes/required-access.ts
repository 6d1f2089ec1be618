// Every kind of call Almanac makes to a live garden as its own identity, by what needs it, so the
// ClusterRoles in deploy/ can be checked against them (tests/garden/garden-rbac.test.ts): what it
// always needs (read-only, deploy/garden-rbac.yaml), what the admin token's changes need
// (deploy/garden-rbac-admin-token.yaml) and what impersonation needs
// (deploy/garden-rbac-impersonation.yaml). A person's own token needs nothing of Almanac's.
export interface RequiredAccess {
  readonly group: string;
  readonly resource: string;
  readonly verbs: readonly string[];
  readonly why: string;
}

const GARDENER = "core.gardener.cloud";

/** Always: the mirror, the access reviews, reading a shoot again after a conflict. */
export const REQUIRED_ACCESS: readonly RequiredAccess[] = [
  {
    group: GARDENER,
    resource: "cloudprofiles",
    verbs: ["list", "watch"],
    why: "the mirror follows the cloud profiles",
  },
  {
    group: GARDENER,
    resource: "namespacedcloudprofiles",
    verbs: ["list", "watch"],
    why: "the mirror follows the namespaced cloud profiles",
  },
  { group: GARDENER, resource: "seeds", verbs: ["list", "watch"], why: "the mirror follows the seeds" },
  { group: GARDENER, resource: "projects", verbs: ["list", "watch"], why: "the mirror follows the projects" },
  {
    group: GARDENER,
    resource: "shoots",
    verbs: ["get", "list", "watch"],
    why: "the mirror follows the shoots, and reads one again when a change met a newer version",
  },
  {
    group: "authorization.k8s.io",
    resource: "subjectaccessreviews",
    verbs: ["create"],
    why: "to learn which namespaces a person may read",
  },
];

/** Only when the admin token makes changes: it acts as Almanac's own identity. */
export const ADMIN_TOKEN_ACCESS: readonly RequiredAccess[] = [
  {
    group: GARDENER,
    resource: "shoots",
    verbs: ["patch", "delete"],
    why: "the admin token changes and deletes shoots as Almanac",
  },
  {
    group: GARDENER,
    resource: "shoots/binding",
    verbs: ["patch"],
    why: "the admin token's control-plane migration sets spec.seedName through the binding subresource",
  },
];

/** Only with ALMANAC_GARDEN_IDENTITY=impersonation. */
export const IMPERSONATION_ACCESS: readonly RequiredAccess[] = [
  { group: "", resource: "users", verbs: ["impersonate"], why: "changes are made as the signed-in person" },
  { group: "", resource: "groups", verbs: ["impersonate"], why: "with the person's groups" },
];

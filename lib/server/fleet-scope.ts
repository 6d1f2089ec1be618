// What of the fleet a caller may see in the fleet-wide lists (shoots, tiles, forecast, audit log,
// migrations): everything with a landscape-wide role, else the namespaces of the projects they
// hold a role on; on a live garden only those of them its RBAC lets the caller list shoots in
// (lib/auth/readable-namespaces.ts). The lists narrow their queries to it in SQL, so pages, cursors and totals
// count only what is shown. A filter that names a namespace or project outside it is refused
// (403) rather than answered empty: an empty answer would say "nothing there" when the truth is
// "not yours to see", and the refusal names what is missing.
import { allows, LANDSCAPE } from "../api/roles.ts";
import { projectOfNamespace } from "../auth/project-of-namespace.ts";
import type { Principal } from "../auth/principal.ts";
import type { Db } from "../db/client.ts";
import type { GardenAccess } from "../auth/garden-access.ts";
import { notAllowed, notReadableInGarden } from "../auth/access-refusal.ts";
import { refusalByRole } from "../auth/authorize.ts";
import { findProject } from "../store/projects.ts";
import { readable } from "../auth/readable-namespaces.ts";

export interface FleetScope {
  readonly principal: Principal;
  /** "all", or the readable namespaces, sorted (an empty list reads nothing). */
  readonly namespaces: "all" | readonly string[];
  /** Whether the garden's RBAC took namespaces away from what the roles allow. */
  readonly narrowedByGarden?: boolean;
}

export async function fleetScope(db: Db, principal: Principal, access: GardenAccess): Promise<FleetScope> {
  const { namespaces, narrowedByGarden } = await readable(db, principal, access);
  return { principal, namespaces: namespaces === "all" ? "all" : [...namespaces].sort(), narrowedByGarden };
}

/** The namespaces a query must be narrowed to; undefined for the whole landscape (unnarrowed). */
export const scopedNamespaces = (scope: Pick<FleetScope, "namespaces">): readonly string[] | undefined =>
  scope.namespaces === "all" ? undefined : scope.namespaces;

/**
 * Tells scopes apart in a cache key: "*" for the whole landscape, else the readable namespaces
 * and the projects held a role on (the answer depends on the first, a refusal also on the
 * second: a role on a project without a namespace reads no shoot, yet may filter on it; and
 * whether the roles reach the whole landscape, which only a garden narrowing a landscape-wide
 * reader leaves with a list). Names are DNS labels, so none of "*", "," and "|" can occur in one.
 */
export function scopeKey(scope: FleetScope): string {
  if (scope.namespaces === "all") return "*";
  const projects = new Set(scope.principal.bindings.filter((b) => b.scope !== LANDSCAPE).map((b) => b.scope));
  const landscape = allows(scope.principal.bindings, "read") ? "|*" : "";
  return `${scope.namespaces.join(",")}|${[...projects].sort().join(",")}${landscape}`;
}

/**
 * Refuses (403) a filter on a namespace or a project the caller may not read: by the roles (naming
 * the role needed), else by the garden (naming what its RBAC checked).
 */
export async function refuseUnreadable(
  db: Db,
  scope: FleetScope,
  filter: { readonly namespace?: string; readonly project?: string },
): Promise<void> {
  const { namespaces, principal } = scope;
  if (namespaces === "all") return;
  if (filter.project !== undefined) {
    const byRole = refusalByRole(principal, "read", filter.project);
    if (byRole) throw byRole;
    if (scope.narrowedByGarden) {
      const namespace = (await findProject(db, filter.project))?.spec.namespace;
      if (namespace !== undefined && !namespaces.includes(namespace)) throw notReadableInGarden(principal, namespace);
    }
  }
  if (filter.namespace !== undefined && !namespaces.includes(filter.namespace)) {
    const project = await projectOfNamespace(db, filter.namespace);
    // When the roles allow it, the garden is what refuses.
    if (scope.narrowedByGarden && allows(principal.bindings, "read", project))
      throw notReadableInGarden(principal, filter.namespace);
    throw notAllowed(principal, "read", project, filter.namespace);
  }
}

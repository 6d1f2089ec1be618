// What of the fleet a caller may see in the fleet-wide lists (shoots, tiles, forecast, audit log,
// migrations): everything with a landscape-wide role, else the namespaces of the projects they
// hold a role on. The lists narrow their queries to it in SQL, so pages, cursors and totals
// count only what is shown. A filter that names a namespace or project outside it is refused
// (403) rather than answered empty: an empty answer would say "nothing there" when the truth is
// "not yours to see", and the refusal names what is missing.
import { allows, LANDSCAPE } from "../api/roles.ts";
import { projectOfNamespace } from "../auth/project-of-namespace.ts";
import type { Principal } from "../auth/principal.ts";
import type { Db } from "../db/client.ts";
import { notAllowed } from "../http/route.ts";
import { readableNamespaces } from "./readable-namespaces.ts";

export interface FleetScope {
  readonly principal: Principal;
  /** "all", or the readable namespaces, sorted (an empty list reads nothing). */
  readonly namespaces: "all" | readonly string[];
}

export async function fleetScope(db: Db, principal: Principal): Promise<FleetScope> {
  const readable = await readableNamespaces(db, principal);
  return { principal, namespaces: readable === "all" ? "all" : [...readable].sort() };
}

/** The namespaces a query must be narrowed to; undefined for the whole landscape (unnarrowed). */
export const scopedNamespaces = (scope: Pick<FleetScope, "namespaces">): readonly string[] | undefined =>
  scope.namespaces === "all" ? undefined : scope.namespaces;

/**
 * Tells scopes apart in a cache key: "*" for the whole landscape, else the readable namespaces
 * and the projects held a role on (the answer depends on the first, a refusal also on the
 * second: a role on a project without a namespace reads no shoot, yet may filter on it). Names
 * are DNS labels, so none of "*", "," and "|" can occur in one.
 */
export function scopeKey(scope: FleetScope): string {
  if (scope.namespaces === "all") return "*";
  const projects = new Set(scope.principal.bindings.filter((b) => b.scope !== LANDSCAPE).map((b) => b.scope));
  return `${scope.namespaces.join(",")}|${[...projects].sort().join(",")}`;
}

/** Refuses (403) a filter on a namespace or a project the caller may not read. */
export async function refuseUnreadable(
  db: Db,
  scope: FleetScope,
  filter: { readonly namespace?: string; readonly project?: string },
): Promise<void> {
  if (scope.namespaces === "all") return;
  const { principal } = scope;
  if (filter.project !== undefined && !allows(principal.bindings, "read", filter.project))
    throw notAllowed(principal, "read", filter.project);
  if (filter.namespace !== undefined && !scope.namespaces.includes(filter.namespace))
    throw notAllowed(principal, "read", await projectOfNamespace(db, filter.namespace), filter.namespace);
}

// Whether the person (or token) who made an update run may still change a shoot: the run acts as
// its maker, so a role removed, an account deleted or a token revoked after the run was made stops
// it acting on the projects no longer allowed (each such shoot Refused, named), as a request of
// theirs would be refused now. The roles are looked up again at each step of the run (and each
// job of a bulk action, which acts as its maker the same way).
import { allows, type Binding, isRole, LANDSCAPE } from "../auth/roles.ts";
import { personBindings } from "../auth/group-roles.ts";
import type { GardenIdentity } from "../auth/garden-identity.ts";
import type { Db } from "../db/client.ts";
import { makerGrants } from "../store/update-runs.ts";

/**
 * The maker's bindings now (none when they are gone). A person's groups: those stored at their
 * last company sign-in; a trusted proxy's person has none stored (the groups come with each
 * request), so the groups the run recorded from the request that made it stand in.
 */
export async function makerBindings(
  db: Db,
  actor: string,
  identity: GardenIdentity,
  now: number,
): Promise<readonly Binding[]> {
  if (actor === "admin-token") return [{ role: "admin", scope: LANDSCAPE }];
  const grants = await makerGrants(db, actor, new Date(now));
  if (!grants) return [];
  if (grants.kind === "token") return isRole(grants.role) ? [{ role: grants.role, scope: grants.scope }] : [];
  const recorded = identity.kind === "person" ? identity.groups : [];
  return personBindings(grants.bindings, grants.groups.length > 0 ? grants.groups : recorded);
}

/** The words refusing the shoot of `project` to the maker, or undefined when they may still change it. */
export function makerRefusal(
  actor: string,
  bindings: readonly Binding[],
  project: string | undefined,
  what: "run" | "action" = "run",
): string | undefined {
  if (allows(bindings, "operate", project)) return undefined;
  return `${actor}, who made the ${what}, no longer holds the operator role on project ${project ?? "(none)"}: not acted on.`;
}

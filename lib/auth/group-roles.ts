// ALMANAC_GROUP_ROLES: roles that come with a group of the company's identity (an OIDC groups
// claim, or a trusted proxy's group header), so an operator grants a team once instead of person by
// person. One entry per line or separated by ";", each `group=role` (the whole landscape) or
// `group=role:project` (read by lib/config/group-role.ts).
import { type Binding, isRole, ROLES } from "../api/roles.ts";
import { config } from "../config/load-config.ts";
import type { GroupRole } from "../config/group-role.ts";

/** The configured mapping (ALMANAC_GROUP_ROLES, checked at start by lib/config). */
export const groupRoles = (): readonly GroupRole[] => config().signIn.groupRoles;

/** The bindings that `groups` bring with them under `mapping`: the strongest role per scope. */
export function bindingsOfGroups(groups: readonly string[], mapping: readonly GroupRole[] = groupRoles()): Binding[] {
  const held = new Set(groups);
  const strongest = new Map<string, Binding["role"]>();
  for (const { group, role, scope } of mapping) {
    const had = strongest.get(scope);
    if (held.has(group) && (had === undefined || ROLES.indexOf(role) > ROLES.indexOf(had))) strongest.set(scope, role);
  }
  return [...strongest].map(([scope, role]) => ({ role, scope }));
}

/**
 * A person's bindings: those stored for them (roles an admin granted; a stored row with an unknown
 * role counts for nothing) and those their groups bring, each role and scope once.
 */
export function personBindings(
  stored: readonly { readonly role: string; readonly scope: string }[],
  groups: readonly string[],
  mapping: readonly GroupRole[] = groupRoles(),
): Binding[] {
  const bindings = new Map<string, Binding>();
  for (const b of [...stored, ...bindingsOfGroups(groups, mapping)]) {
    if (isRole(b.role)) bindings.set(`${b.role}\u0000${b.scope}`, { role: b.role, scope: b.scope });
  }
  return [...bindings.values()];
}

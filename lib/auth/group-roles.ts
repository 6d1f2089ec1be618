// ALMANAC_GROUP_ROLES: roles that come with a group of the company's identity (an OIDC groups
// claim, or a trusted proxy's group header), so an operator grants a team once instead of person by
// person. One entry per line or separated by ";", each `group=role` (the whole landscape) or
// `group=role:project`. The last "=" splits, so an LDAP group such as "cn=ops,ou=teams" works.
// Read on every request, so a changed mapping applies at the next request after a restart.
import { type Binding, isRole, LANDSCAPE, ROLES } from "../api/roles.ts";

export interface GroupRole extends Binding {
  readonly group: string;
}

const PROJECT = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The mapping in `text`; throws an error naming the entry and what is wrong with it. */
export function parseGroupRoles(text: string | undefined): GroupRole[] {
  if (!text?.trim()) return [];
  return text
    .split(/[;\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      const split = entry.lastIndexOf("=");
      const group = entry.slice(0, split).trim();
      const [role, project, ...rest] = entry
        .slice(split + 1)
        .trim()
        .split(":");
      const fault =
        split <= 0 || group === ""
          ? "it must read group=role or group=role:project"
          : !isRole(role)
            ? `"${role}" is not a role (${ROLES.join(", ")})`
            : rest.length > 0 || (project !== undefined && !PROJECT.test(project))
              ? `"${entry.slice(split + 1).trim()}" does not name a project after the role`
              : undefined;
      if (fault !== undefined || !isRole(role)) throw new Error(`ALMANAC_GROUP_ROLES entry "${entry}": ${fault}.`);
      return { group, role, scope: project ?? LANDSCAPE };
    });
}

/** The configured mapping (ALMANAC_GROUP_ROLES); throws when it is malformed. */
export const groupRoles = (): GroupRole[] => parseGroupRoles(process.env.ALMANAC_GROUP_ROLES);

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
): Binding[] {
  const bindings = new Map<string, Binding>();
  for (const b of [...stored, ...bindingsOfGroups(groups)]) {
    if (isRole(b.role)) bindings.set(`${b.role}\u0000${b.scope}`, { role: b.role, scope: b.scope });
  }
  return [...bindings.values()];
}

// One entry of ALMANAC_GROUP_ROLES: `group=role` (the whole landscape) or `group=role:project`.
// The last "=" splits, so an LDAP group such as "cn=ops,ou=teams" works.
import { type Binding, isRole, LANDSCAPE, ROLES } from "../api/roles.ts";

export interface GroupRole extends Binding {
  readonly group: string;
}

const PROJECT = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The entry's group and binding; throws an Error saying what is wrong with it. */
export function parseGroupRole(entry: string): GroupRole {
  const split = entry.lastIndexOf("=");
  const group = entry.slice(0, split).trim();
  const binding = entry.slice(split + 1).trim();
  const [role, project, ...rest] = binding.split(":");
  if (split <= 0 || group === "") throw new Error("it must read group=role or group=role:project");
  if (!isRole(role)) throw new Error(`"${role}" is not a role (${ROLES.join(", ")})`);
  if (rest.length > 0 || (project !== undefined && !PROJECT.test(project)))
    throw new Error(`"${binding}" does not name a project after the role`);
  return { group, role, scope: project ?? LANDSCAPE };
}

// The words of an access refusal: what the caller holds and what is needed, or what the garden's
// RBAC checked. Said alike by authorize() and by the fleet-wide lists that refuse a filter.
import { forbidden } from "../api/refusal.ts";
import { SHOOT_READ } from "./garden-access.ts";
import { tokenGardenUser } from "./garden-identity.ts";
import type { Principal } from "./principal.ts";
import { type Permission, roleFor, roleOn } from "./roles.ts";

/**
 * The refusal of a caller whose role does not reach: what they hold on `project` (or the whole
 * landscape) and what is needed. `namespace`, when the request named one, is said too, so a
 * filter on a namespace that is not the caller's names both it and its project.
 */
export function notAllowed(
  principal: Principal,
  permission: Permission,
  project: string | undefined,
  namespace?: string,
) {
  const role = roleOn(principal.bindings, project);
  const where = project ? `on project ${project}` : "on the whole landscape";
  const which =
    namespace === undefined ? "" : project ? ` (namespace ${namespace})` : ` (namespace ${namespace} is in no project)`;
  return forbidden(
    `${principal.kind === "user" ? "You have" : `The token "${principal.name}" has`} ${
      role ? `the role ${role}` : "no role"
    } ${where}${which}; this needs ${roleFor(permission)}.`,
  );
}

/**
 * The refusal of a caller whose roles allow reading `namespace` but whose garden (a live garden's
 * RBAC) does not let them list shoots there: what the garden checked, so its admins know what to
 * grant.
 */
export function notReadableInGarden(principal: Principal, namespace: string) {
  const who =
    principal.kind === "user"
      ? "you"
      : principal.kind === "token"
        ? `the token "${principal.name}" (garden user ${tokenGardenUser(principal.name)})`
        : "Almanac";
  const { verb, resource, group } = SHOOT_READ;
  return forbidden(
    `The garden does not let ${who} ${verb} ${resource} in namespace ${namespace} (Kubernetes RBAC: verb ${verb}, resource ${resource}.${group}).`,
    { extensions: { rbac: { verb, group, resource, namespace } } },
  );
}

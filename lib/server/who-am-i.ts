// GET /api/v1/me: the caller as the pages need to know them, with the namespace of each project
// they hold a role on, so a page can tell what they may do to a shoot without reading the project
// list (which needs a role on the whole landscape).
import type { MeAnswer } from "../api/me.ts";
import { LANDSCAPE } from "../api/roles.ts";
import { actorOf, type Principal } from "../auth/principal.ts";
import type { Db } from "../db/client.ts";
import { listProjects } from "../store/projects.ts";

export async function whoAmI(db: Db, principal: Principal): Promise<MeAnswer> {
  const projectBound = principal.bindings.some((b) => b.scope !== LANDSCAPE);
  const namespaces = new Map(
    (projectBound ? await listProjects(db) : []).map((p) => [p.metadata.name, p.spec.namespace] as const),
  );
  return {
    kind: principal.kind,
    name: principal.name,
    ...(principal.kind === "user"
      ? { email: principal.email, groups: principal.groups, via: principal.via ?? "session" }
      : {}),
    actor: actorOf(principal),
    bindings: principal.bindings.map((b) => {
      const namespace = b.scope === LANDSCAPE ? undefined : namespaces.get(b.scope);
      return namespace ? { role: b.role, scope: b.scope, namespace } : { role: b.role, scope: b.scope };
    }),
  };
}

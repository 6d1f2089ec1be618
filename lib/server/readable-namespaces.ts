// The namespaces a caller may read: every one with a role on the whole landscape, else those of
// the projects they hold a role on (for the event stream, which must not name other projects'
// shoots).
import { allows, LANDSCAPE } from "../api/roles.ts";
import type { Principal } from "../auth/principal.ts";
import type { Db } from "../db/client.ts";
import { listProjects } from "../store/projects.ts";

export async function readableNamespaces(db: Db, principal: Principal): Promise<"all" | ReadonlySet<string>> {
  if (allows(principal.bindings, "read")) return "all";
  const projects = new Set(
    principal.bindings.filter((b) => b.scope !== LANDSCAPE && allows([b], "read", b.scope)).map((b) => b.scope),
  );
  const namespaces = (await listProjects(db)).filter((p) => projects.has(p.metadata.name)).map((p) => p.spec.namespace);
  return new Set(namespaces.filter((n): n is string => typeof n === "string"));
}

// Authorization in one place: whether a principal may do what a request, a page or the event
// stream needs. Almanac's roles first (lib/api/roles.ts's table: on the project of the namespace
// asked about, on any project, or on the whole landscape), then, for a namespace, the garden's own
// leave to read there (a live garden's RBAC; the simulated garden lets everyone, at once). The
// answer is an outcome, never HTTP: the route wrapper (lib/http/route.ts) answers a refusal as
// its code says, the pages render what it allows.
import type { Refusal } from "../api/refusal.ts";
import { db } from "../db/client.ts";
import { notAllowed, notReadableInGarden } from "./access-refusal.ts";
import { type GardenAccess, GardenUnavailableError } from "./garden-access.ts";
import { gardenIdentityOf } from "./garden-identity.ts";
import type { Principal } from "./principal.ts";
import { projectOfNamespace } from "./project-of-namespace.ts";
import { allows, allowsSomewhere, type Permission } from "./roles.ts";

/**
 * What is needed. `need` is the permission ("signed-in": anyone signed in, whatever their roles),
 * checked on the project of `namespace` when one is given (a shoot's routes and page; the garden
 * is then asked too), on any project with `anyProject` (the landscape's configuration, which
 * every project's pages read, and the fleet-wide lists, which then answer only what the caller
 * may read: readable-namespaces.ts), else on the whole landscape.
 */
export interface Need {
  readonly need: Permission | "signed-in";
  readonly namespace?: string;
  readonly anyProject?: boolean;
}

export type Authorization =
  | { readonly ok: true; /** The project of `namespace`, when it is in one. */ readonly project?: string }
  | { readonly ok: false; readonly refusal: Refusal };

/** The project a namespace belongs to (the mirror's projects; injected by tests). */
export type ProjectOf = (namespace: string) => Promise<string | undefined> | string | undefined;

const mirroredProject: ProjectOf = (namespace) => projectOfNamespace(db(), namespace);

/** Whether `principal` may do what `need` says; the refusal says why not. */
export async function authorize(
  principal: Principal,
  { need, namespace, anyProject }: Need,
  gardenAccess: GardenAccess,
  projectOf: ProjectOf = mirroredProject,
): Promise<Authorization> {
  if (need === "signed-in") return { ok: true };
  if (anyProject) {
    return allowsSomewhere(principal.bindings, need)
      ? { ok: true }
      : { ok: false, refusal: notAllowed(principal, need, undefined) };
  }
  const project = namespace ? await projectOf(namespace) : undefined;
  const byRole = refusalByRole(principal, need, project);
  if (byRole) return { ok: false, refusal: byRole };
  if (namespace) {
    try {
      if (!(await gardenAccess.mayRead(gardenIdentityOf(principal), namespace)))
        return { ok: false, refusal: notReadableInGarden(principal, namespace) };
    } catch (error) {
      // The garden could not say: a read fails closed (unavailable), never shows all.
      if (error instanceof GardenUnavailableError) return { ok: false, refusal: error };
      throw error;
    }
  }
  return { ok: true, project };
}

/**
 * The refusal when the roles do not allow `permission` on `project` (undefined: the whole
 * landscape); undefined when they do. For a further permission a request turns out to need (a
 * PATCH that also deletes), once authorize() has found the project.
 */
export function refusalByRole(principal: Principal, permission: Permission, project?: string): Refusal | undefined {
  return allows(principal.bindings, permission, project) ? undefined : notAllowed(principal, permission, project);
}

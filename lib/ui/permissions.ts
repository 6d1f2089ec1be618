// What the caller may do to a shoot, as the pages say it up front: the same rules the server
// applies (lib/api/roles.ts, from GET /api/v1/me's bindings), and the sentence a disabled control
// shows when the role does not reach.
import type { Project } from "../gardener/types.ts";
import { allows, type Binding, LANDSCAPE, type Permission, roleFor, type Role, ROLES } from "../api/roles.ts";

export type { Permission } from "../api/roles.ts";

/**
 * What a control may do. `known` is false while /me (or, when it matters, the project list) is
 * loading, or when it failed: loading, the control is disabled without a reason; failed, it is
 * enabled (the server still refuses what the role does not allow, and the page says once that it
 * could not learn the role).
 */
export interface Allowance {
  readonly allowed: boolean;
  readonly known: boolean;
  /** Why not, when known and not allowed. */
  readonly reason?: string;
}

export const ALLOWED: Allowance = { allowed: true, known: true };
export const NOT_YET_KNOWN: Allowance = { allowed: false, known: false };
export const NOT_KNOWN: Allowance = { allowed: true, known: false };

/** The project whose namespace is `namespace` (as the server finds it), if any. */
export const projectOfNamespace = (projects: readonly Project[], namespace: string): string | undefined =>
  projects.find((p) => p.spec.namespace === namespace)?.metadata.name;

const rank = (role: Role) => ROLES.indexOf(role);

/**
 * Why the bindings do not allow `permission` on `project` (undefined: landscape-wide only), in
 * the words a disabled control shows; undefined when they allow it. The role named is the
 * strongest that applies, with where it was granted.
 */
export function refusal(bindings: readonly Binding[], permission: Permission, project?: string): string | undefined {
  if (allows(bindings, permission, project)) return undefined;
  const needed = roleFor(permission);
  const applying = bindings.filter((b) => b.scope === LANDSCAPE || (project !== undefined && b.scope === project));
  // The strongest role; between equals, the project's own binding names the place more exactly.
  const best = applying.reduce<Binding | undefined>(
    (a, b) =>
      a === undefined || rank(b.role) > rank(a.role) || (rank(b.role) === rank(a.role) && b.scope !== LANDSCAPE)
        ? b
        : a,
    undefined,
  );
  if (!best) {
    return project === undefined
      ? `You have no role on the whole landscape, and this cluster belongs to no project; it needs ${needed}.`
      : `You have no role on project ${project}; this needs ${needed}.`;
  }
  const where = best.scope === LANDSCAPE ? "the whole landscape" : `project ${best.scope}`;
  return `Your role ${best.role} on ${where} does not allow this; it needs ${needed}.`;
}

/** What is known so far: each part is undefined while loading, or failed. */
export interface PermissionSources {
  readonly bindings: readonly Binding[] | undefined;
  readonly meFailed: boolean;
  readonly projects: readonly Project[] | undefined;
  readonly projectsFailed: boolean;
}

/** Whether the caller may do `permission` on a shoot in `namespace`, from what is known so far. */
export function allowance(sources: PermissionSources, permission: Permission, namespace: string): Allowance {
  const { bindings } = sources;
  if (!bindings) return sources.meFailed ? NOT_KNOWN : NOT_YET_KNOWN;
  // A landscape-wide role that reaches needs no project; nor does having no role that reaches
  // anywhere, except to name the project in the reason.
  if (allows(bindings, permission)) return ALLOWED;
  if (!sources.projects) return sources.projectsFailed ? NOT_KNOWN : NOT_YET_KNOWN;
  const project = projectOfNamespace(sources.projects, namespace);
  const reason = refusal(bindings, permission, project);
  return reason === undefined ? ALLOWED : { allowed: false, known: true, reason };
}

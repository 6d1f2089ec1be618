// What the caller may do to a shoot, as the pages say it up front: the same rules the server
// applies (lib/api/roles.ts) to GET /api/v1/me's bindings, and the sentence a disabled control
// shows when the role does not reach; and which projects the fleet-wide pages show them. A
// shoot's project is the one whose namespace is the shoot's; /me names the namespace of each
// project the caller holds a role on, which is all the rules need (a project the caller has no
// role on only lets landscape-wide roles count).
import type { MeBinding } from "../api/me.ts";
import { allows, type Binding, LANDSCAPE, type Permission, roleFor, type Role, ROLES } from "../api/roles.ts";

export type { Permission } from "../api/roles.ts";

/**
 * What a control may do. `known` is false while /me is loading, or when it failed: loading, the
 * control is disabled without a reason; failed, it is enabled (the server still refuses what the
 * role does not allow, and the page says once that it could not learn the role).
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

/** The project of `namespace` among those the caller holds a role on, if any. */
export const projectOfNamespace = (bindings: readonly MeBinding[], namespace: string): string | undefined =>
  bindings.find((b) => b.scope !== LANDSCAPE && b.namespace === namespace)?.scope;

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
      ? `You have no role on the whole landscape or on this cluster's project; it needs ${needed}.`
      : `You have no role on project ${project}; this needs ${needed}.`;
  }
  const where = best.scope === LANDSCAPE ? "the whole landscape" : `project ${best.scope}`;
  return `Your role ${best.role} on ${where} does not allow this; it needs ${needed}.`;
}

/**
 * Whether the caller may do `permission` on a shoot in `namespace`: `bindings` from /me,
 * undefined while it loads or when it failed (`failed`).
 */
export function allowance(
  bindings: readonly MeBinding[] | undefined,
  failed: boolean,
  permission: Permission,
  namespace: string,
): Allowance {
  if (!bindings) return failed ? NOT_KNOWN : NOT_YET_KNOWN;
  const reason = refusal(bindings, permission, projectOfNamespace(bindings, namespace));
  return reason === undefined ? ALLOWED : { allowed: false, known: true, reason };
}

/** A project whose shoots the caller may read, with its namespace when /me knows it. */
export interface ReadableProject {
  readonly project: string;
  readonly namespace?: string;
}

/**
 * What the fleet-wide pages (fleet, forecast, migrations, audit log) show the caller, as the
 * server narrows them: "all" with a landscape-wide role, else the projects they hold a role on,
 * by name (their filters offer only these, since the server refuses the others).
 */
export function readableProjects(bindings: readonly MeBinding[]): "all" | readonly ReadableProject[] {
  if (allows(bindings, "read")) return "all";
  // A project may be named by several bindings (viewer and operator): once is enough.
  const projects = new Map<string, ReadableProject>();
  for (const b of bindings) {
    if (b.scope === LANDSCAPE || projects.has(b.scope) || !allows([b], "read", b.scope)) continue;
    projects.set(b.scope, b.namespace ? { project: b.scope, namespace: b.namespace } : { project: b.scope });
  }
  return [...projects.values()].sort((a, b) => a.project.localeCompare(b.project));
}

/**
 * Whether a page's project filter offers `project`: every project while the caller's roles are
 * not known (undefined) or reach the whole landscape, else only their own.
 */
export const offersProject = (readable: "all" | readonly ReadableProject[] | undefined, project: string): boolean =>
  readable === undefined || readable === "all" || readable.some((r) => r.project === project);

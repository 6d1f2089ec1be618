// Who may do what. Three roles, each including the one below: a viewer reads; an operator also
// edits maintenance windows, auto-update flags and versions, asks for maintenance now, retries
// and hibernates; an admin also migrates and deletes clusters and manages accounts and tokens.
// A role is granted on the whole landscape (scope "*") or on one project. Pure, so the server's
// checks (lib/auth, lib/http) and the pages' (lib/ui/permissions.ts) share one definition.
export const ROLES = ["viewer", "operator", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** What a request needs: reading, operating clusters, or administering. */
export type Permission = "read" | "operate" | "administer";

export const LANDSCAPE = "*";

export interface Binding {
  readonly role: Role;
  /** "*" for the whole landscape, else a project's name. */
  readonly scope: string;
}

const NEEDED: Record<Permission, Role> = { read: "viewer", operate: "operator", administer: "admin" };
const rank = (role: Role) => ROLES.indexOf(role);

export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

/** The role a permission needs at least. */
export const roleFor = (permission: Permission): Role => NEEDED[permission];

/**
 * Whether the bindings allow `permission` on `project` (a shoot's project), or landscape-wide
 * when `project` is undefined (fleet-wide reads, accounts, tokens).
 */
export function allows(bindings: readonly Binding[], permission: Permission, project?: string): boolean {
  const needed = rank(NEEDED[permission]);
  return bindings.some(
    (b) => rank(b.role) >= needed && (b.scope === LANDSCAPE || (project !== undefined && b.scope === project)),
  );
}

/** The strongest role among the bindings that apply to `project` (landscape-wide ones always do). */
export function roleOn(bindings: readonly Binding[], project?: string): Role | undefined {
  const applying = bindings.filter((b) => b.scope === LANDSCAPE || b.scope === project);
  return applying.reduce<Role | undefined>(
    (best, b) => (best === undefined || rank(b.role) > rank(best) ? b.role : best),
    undefined,
  );
}

/** Whether the bindings allow `permission` somewhere: on the landscape or on any project. */
export function allowsSomewhere(bindings: readonly Binding[], permission: Permission): boolean {
  return bindings.some((b) => allows([b], permission, b.scope === LANDSCAPE ? undefined : b.scope));
}

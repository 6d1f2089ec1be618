// Who may do what. Three roles, each including the one below (PERMISSIONS says what each
// allows), granted on the whole landscape (scope "*") or on one project. Pure, so the server's
// checks (lib/auth/authorize.ts) and the pages' (lib/ui/permissions.ts) share one definition.
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

/**
 * The one table of who may do what: each permission, the least role it needs and what it
 * covers. A role granted on a project covers that project's shoots; one on the whole landscape
 * covers every shoot and what belongs to no project (accounts, tokens, jobs, /metrics).
 * docs/authorization.md prints it (lib/auth/role-table.ts; a test keeps the two alike).
 */
export const PERMISSIONS: Readonly<Record<Permission, { readonly role: Role; readonly covers: string }>> = {
  read: {
    role: "viewer",
    covers:
      "read shoots (each one, its maintenance plan, history, migration, deletion, calendar), the fleet lists, tiles, forecast, audit log and their exports, the event stream, and the landscape's configuration (cloud profiles, seeds, projects)",
  },
  operate: {
    role: "operator",
    covers:
      "change a shoot's maintenance window, auto-update flags and versions, hibernate and wake it, ask for maintenance now, reconcile and retry",
  },
  administer: {
    role: "admin",
    covers:
      "migrate and delete shoots and set their other annotations; on the whole landscape also: accounts and their roles, API tokens, failed jobs, /metrics",
  },
};

const NEEDED = (permission: Permission): Role => PERMISSIONS[permission].role;
const rank = (role: Role) => ROLES.indexOf(role);

export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

/** The role a permission needs at least. */
export const roleFor = (permission: Permission): Role => NEEDED(permission);

/**
 * Whether the bindings allow `permission` on `project` (a shoot's project), or landscape-wide
 * when `project` is undefined (fleet-wide reads, accounts, tokens).
 */
export function allows(bindings: readonly Binding[], permission: Permission, project?: string): boolean {
  const needed = rank(NEEDED(permission));
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

// What the account and token use cases share: their JSON shapes, the scopes a role may be granted
// on, and role changes as audit field changes (one per scope: `role[*]`, `role[<project>]`).
import type { AccountJson, ApiRole, RoleBindingJson } from "../api/accounts.ts";
import type { FieldChange } from "../api/audit.ts";
import type { ApiTokenJson } from "../api/tokens.ts";
import { bindingsOfGroups } from "../auth/group-roles.ts";
import { isRole, LANDSCAPE, type Role } from "../auth/roles.ts";
import type { Queryable } from "../db/client.ts";
import type { FieldProblem } from "../api/problem.ts";
import { unprocessable } from "../api/refusal.ts";
import type { StoredAccount } from "../store/accounts.ts";
import type { StoredToken } from "../store/api-tokens.ts";
import { projectExists } from "../store/projects.ts";
import type { StoredBinding } from "../store/role-bindings.ts";

// The contract's role names are the roles of lib/auth: a change on either side fails here.
const _sameRoles: [Role, ApiRole] = ["viewer" as ApiRole, "viewer" as Role];

export const bindingsJson = (bindings: readonly StoredBinding[]): RoleBindingJson[] =>
  bindings.flatMap((b) => (isRole(b.role) ? [{ role: b.role, scope: b.scope }] : []));

export const accountJson = (account: StoredAccount): AccountJson => ({
  id: account.id,
  name: account.name,
  email: account.email,
  created: account.createdAt.toISOString(),
  bindings: bindingsJson(account.bindings),
  groups: account.groups,
  groupBindings: bindingsOfGroups(account.groups),
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const tokenJson = (token: StoredToken): ApiTokenJson => ({
  id: token.id,
  name: token.name,
  role: isRole(token.role) ? token.role : "viewer",
  scope: token.scope,
  createdBy: token.createdBy,
  created: token.createdAt.toISOString(),
  expires: iso(token.expiresAt),
  lastUsed: iso(token.lastUsedAt),
  revoked: iso(token.revokedAt),
});

export const isLandscapeAdmin = (bindings: readonly StoredBinding[]) =>
  bindings.some((b) => b.role === "admin" && b.scope === LANDSCAPE);

/**
 * Refuses (422, beside each field) scopes that are neither "*" nor an existing project. `field`
 * names the field of the i-th scope; scopes in `known` pass unchecked (a role kept on a project
 * that has since gone away).
 */
export async function requireScopes(
  db: Queryable,
  scopes: readonly string[],
  field: (index: number) => string,
  known: ReadonlySet<string> = new Set(),
): Promise<void> {
  const problems: FieldProblem[] = [];
  for (const [index, scope] of scopes.entries()) {
    if (scope === LANDSCAPE || known.has(scope) || (await projectExists(db, scope))) continue;
    problems.push({
      field: field(index),
      type: "NotFound",
      detail: `there is no project "${scope}"; use "*" for the whole landscape or an existing project's name`,
    });
  }
  if (problems.length > 0) {
    throw unprocessable(
      problems.length === 1 ? problems[0].detail.replace(/^there/, "There") + "." : "Some scopes name no project.",
      problems,
    );
  }
}

/** One change per scope whose role differs: `role[<scope>]` from the old role to the new (null: none). */
export function roleChanges(before: readonly StoredBinding[], after: readonly StoredBinding[]): FieldChange[] {
  const was = new Map(before.map((b) => [b.scope, b.role]));
  const now = new Map(after.map((b) => [b.scope, b.role]));
  const scopes = [...new Set([...was.keys(), ...now.keys()])].sort();
  return scopes
    .filter((scope) => was.get(scope) !== now.get(scope))
    .map((scope) => ({ field: `role[${scope}]`, before: was.get(scope) ?? null, after: now.get(scope) ?? null }));
}

/** A unique constraint refused the row (PostgreSQL 23505, Prisma P2002), anywhere in the causes. */
export function isUniqueViolation(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 4) return false;
  const e = error as { code?: unknown; meta?: { driverAdapterError?: unknown; code?: unknown }; cause?: unknown };
  if (e.code === "P2002" || e.code === "23505" || e.meta?.code === "23505") return true;
  return isUniqueViolation(e.cause, depth + 1) || isUniqueViolation(e.meta?.driverAdapterError, depth + 1);
}

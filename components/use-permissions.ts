"use client";

// What the caller may do to the shoots of one namespace: read, operate (edit maintenance, update
// versions, maintain now, retry, hibernate), administer (migrate, delete). From GET /api/v1/me,
// read once per tab, and the project list (a role granted on a project covers the namespace
// whose project it is), through the same rules the server applies (lib/ui/permissions.ts).
// While either loads, an allowance is not yet known (the control stays disabled, without a
// reason); if /me fails, controls stay enabled and the server judges.
import { useQuery } from "@tanstack/react-query";
import { allows } from "@/lib/api/roles";
import { MINUTE_MS } from "@/lib/engine/time-units";
import { allowance, type Allowance, type Permission } from "@/lib/ui/permissions";
import { meQuery, projectsQuery } from "@/lib/ui/queries";

export interface Permissions {
  readonly read: Allowance;
  readonly operate: Allowance;
  readonly administer: Allowance;
  /** Why the caller's roles are not known (GET /api/v1/me failed), once for the page to say. */
  readonly error: unknown;
}

export function usePermissions(namespace: string): Permissions {
  const me = useQuery(meQuery);
  const bindings = me.data?.bindings;
  // The project list only matters when no landscape-wide role already answers everything.
  const projects = useQuery({
    ...projectsQuery,
    staleTime: 10 * MINUTE_MS,
    enabled: bindings !== undefined && !allows(bindings, "administer"),
  });
  const sources = {
    bindings,
    meFailed: me.data === undefined && me.isError,
    projects: projects.data?.items,
    projectsFailed: projects.data === undefined && projects.isError,
  };
  const judge = (permission: Permission) => allowance(sources, permission, namespace);
  return {
    read: judge("read"),
    operate: judge("operate"),
    administer: judge("administer"),
    error: me.data === undefined ? (me.error ?? projects.error) : projects.data === undefined ? projects.error : null,
  };
}

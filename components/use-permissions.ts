"use client";

// What the caller may do to the shoots of one namespace: read, operate (edit maintenance, update
// versions, maintain now, retry, hibernate), administer (migrate, delete). From GET /api/v1/me,
// read once per tab (the lifecycle page comes with it), through the same rules the server
// applies (lib/ui/permissions.ts). While /me loads, an allowance is not yet known (the control
// stays disabled, without a reason); if it fails, controls stay enabled and the server judges.
import { useQuery } from "@tanstack/react-query";
import { allowance, type Allowance } from "@/lib/ui/permissions";
import { meQuery } from "@/lib/client/queries";

export interface Permissions {
  readonly read: Allowance;
  readonly operate: Allowance;
  readonly administer: Allowance;
  /** Why the caller's roles are not known (GET /api/v1/me failed), for the page to say once. */
  readonly error: unknown;
}

export function usePermissions(namespace: string): Permissions {
  const me = useQuery(meQuery);
  const bindings = me.data?.bindings;
  const failed = bindings === undefined && me.isError;
  return {
    read: allowance(bindings, failed, "read", namespace),
    operate: allowance(bindings, failed, "operate", namespace),
    administer: allowance(bindings, failed, "administer", namespace),
    error: failed ? me.error : null,
  };
}

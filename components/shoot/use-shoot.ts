"use client";

// The lifecycle page's data: the Shoot itself (its resourceVersion guards every edit) and the
// parts read from their own endpoints. Every key starts with ["shoot", namespace, name], so a
// live event for this shoot refreshes all of them.
import { useQuery } from "@tanstack/react-query";
import { type ShootPartOperation, shootPartQuery, shootQuery } from "@/lib/client/queries";
import type { CallQuery } from "@/lib/ui/call";

export function useShoot(namespace: string, name: string) {
  return useQuery(shootQuery(namespace, name));
}

/** GET .../{name}/{part} (maintenance-plan, history, migration, deletion) through its operation. */
export function useShootPart<O extends ShootPartOperation>(
  op: O,
  namespace: string,
  name: string,
  options: { enabled?: boolean; refetchInterval?: number | false; query?: CallQuery<O> } = {},
) {
  const { query, ...rest } = options;
  return useQuery({ ...shootPartQuery(op, namespace, name, query), ...rest });
}

"use client";

// The lifecycle page's data: the Shoot itself (its resourceVersion guards every edit) and the
// parts read from their own endpoints. Every key starts with ["shoot", namespace, name], so a
// live event for this shoot refreshes all of them.
import { useQuery } from "@tanstack/react-query";
import { shootPartQuery, shootQuery } from "@/lib/client/queries";

export function useShoot(namespace: string, name: string) {
  return useQuery(shootQuery(namespace, name));
}

/** GET .../{name}/{part} (maintenance-plan, history, migration, deletion). */
export function useShootPart<T>(
  namespace: string,
  name: string,
  part: string,
  options: { enabled?: boolean; refetchInterval?: number | false } = {},
) {
  return useQuery({ ...shootPartQuery<T>(namespace, name, part), ...options });
}

"use client";

// The lifecycle page's data: the Shoot itself (its resourceVersion guards every edit) and the
// parts read from their own endpoints. Every key starts with ["shoot", namespace, name], so a
// live event for this shoot refreshes all of them.
import { useQuery } from "@tanstack/react-query";
import { apiGet, shootPath } from "@/lib/ui/api";
import type { Shoot } from "@/lib/ui/api-types";
import { queryKeys } from "@/lib/ui/query-keys";

export function useShoot(namespace: string, name: string) {
  return useQuery({
    queryKey: queryKeys.shoot(namespace, name),
    queryFn: ({ signal }) => apiGet<Shoot>(shootPath(namespace, name), signal),
  });
}

/** GET .../{name}/{part} (maintenance-plan, history, migration, deletion). */
export function useShootPart<T>(namespace: string, name: string, part: string, options: { enabled?: boolean; refetchInterval?: number | false } = {}) {
  return useQuery({
    queryKey: queryKeys.shootPart(namespace, name, part),
    queryFn: ({ signal }) => apiGet<T>(`${shootPath(namespace, name)}/${part}`, signal),
    ...options,
  });
}

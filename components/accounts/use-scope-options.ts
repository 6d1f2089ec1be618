"use client";

// The scopes a role can be granted on: the whole landscape, then every project by name. While the
// projects load (or if they fail), the whole landscape alone; a scope held already stays listed.
import { useQuery } from "@tanstack/react-query";
import { LANDSCAPE, scopeLabel } from "@/lib/ui/access";
import { projectsQuery } from "@/lib/client/queries";

export function useScopeOptions(keep: readonly string[] = []): { value: string; label: string }[] {
  const projects = useQuery(projectsQuery);
  const names = new Set([...(projects.data?.items ?? []).map((p) => p.metadata.name), ...keep]);
  names.delete(LANDSCAPE);
  return [LANDSCAPE, ...[...names].sort()].map((value) => ({ value, label: scopeLabel(value) }));
}

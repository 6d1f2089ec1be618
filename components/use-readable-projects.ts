"use client";

// Which projects the fleet-wide pages show the caller (lib/ui/permissions.ts `readableProjects`),
// from GET /api/v1/me: undefined while it loads or when it failed (the pages then offer every
// project, and the server still answers only what the caller may read).
import { useQuery } from "@tanstack/react-query";
import { readableProjects, type ReadableProject } from "@/lib/ui/permissions";
import { meQuery } from "@/lib/client/queries";

export function useReadableProjects(): "all" | readonly ReadableProject[] | undefined {
  const me = useQuery(meQuery);
  return me.data ? readableProjects(me.data.bindings) : undefined;
}

"use client";

// The cloud profile pages' data. Profiles change rarely, but their keys start with
// ["cloudprofiles"] so a live event still refreshes them; so does what the fleet runs of a
// profile, refreshed at the slow views' pace.
import { useQuery } from "@tanstack/react-query";
import { getCloudProfileUsage } from "@/lib/api/operations/landscape";
import { call } from "@/lib/ui/call";
import { type ProfileUsage, usageFromAnswer } from "@/lib/ui/profile-usage";
import { cloudProfilesQuery } from "@/lib/client/queries";
import { queryKeys } from "@/lib/client/query-keys";

export function useCloudProfiles() {
  return useQuery(cloudProfilesQuery);
}

/** What the fleet runs of the profile, counted by the server. */
export function useProfileUsage(name: string) {
  return useQuery({
    queryKey: queryKeys.profileUsage(name),
    queryFn: async ({ signal }): Promise<ProfileUsage> =>
      usageFromAnswer(await call(getCloudProfileUsage, { params: { name } }, { signal })),
  });
}

"use client";

// The cloud profile pages' data. Profiles change rarely, but their keys start with
// ["cloudprofiles"] so a live event still refreshes them; so do the shoots of a profile, read
// over many list pages, which are refreshed at the slow views' pace.
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "@/lib/ui/api";
import type { ShootListAnswer, ShootRow } from "@/lib/ui/api-types";
import { cloudProfilesQuery } from "@/lib/ui/queries";
import { queryKeys } from "@/lib/ui/query-keys";

export function useCloudProfiles() {
  return useQuery(cloudProfilesQuery);
}

/** At most this many pages of 500 (10,000 shoots) are read for the per-version counts. */
const MAX_PAGES = 20;

export interface ProfileShoots {
  readonly rows: readonly ShootRow[];
  /** How many shoots the profile has; more than rows.length when the pages ran out. */
  readonly total: number;
}

/** Every shoot on the profile, read page by page from the fleet list. */
export function useProfileShoots(name: string) {
  return useQuery({
    queryKey: queryKeys.profileShoots(name),
    queryFn: async ({ signal }): Promise<ProfileShoots> => {
      const rows: ShootRow[] = [];
      let cursor: string | null = null;
      let total = 0;
      for (let page = 0; page < MAX_PAGES; page++) {
        const query = new URLSearchParams({ cloudProfile: name, limit: "500" });
        if (cursor) query.set("cursor", cursor);
        const answer: ShootListAnswer = await apiGet<ShootListAnswer>(`/shoots?${query}`, signal);
        rows.push(...answer.items);
        total = answer.total;
        cursor = answer.nextCursor;
        if (!cursor) break;
      }
      return { rows, total };
    },
  });
}

// TanStack Query keys, in one place, so that live events invalidate exactly what changed.
export const queryKeys = {
  fleet: ["fleet"] as const,
  shootList: (search: string) => ["fleet", "list", search] as const,
  fleetSummary: (search: string) => ["fleet", "summary", search] as const,
  /** Every shoot of one cloud profile (all pages), for counts per version. */
  /** Shoots per version of a profile: many list pages, so refreshed with the slow views. */
  profileShoots: (cloudProfile: string) => ["cloudprofiles", cloudProfile, "shoots"] as const,
  shoot: (namespace: string, name: string) => ["shoot", namespace, name] as const,
  shootPart: (namespace: string, name: string, part: string) => ["shoot", namespace, name, part] as const,
  forecast: (search: string) => ["forecast", search] as const,
  audit: (search: string) => ["audit", search] as const,
  migrations: (search: string) => ["migrations", search] as const,
  cloudProfiles: ["cloudprofiles"] as const,
  cloudProfile: (name: string) => ["cloudprofiles", name] as const,
  seeds: ["seeds"] as const,
  projects: ["projects"] as const,
};

// TanStack Query keys, in one place, so that live events invalidate exactly what changed.
const ON_DEMAND = "on-demand";

/**
 * Whether live updates may refetch a query (components/live/live-updates.tsx, when it refetches
 * everything): all but the on-demand reads, which only their button repeats.
 */
export const refreshedByLiveEvents = (query: { readonly queryKey: readonly unknown[] }): boolean =>
  query.queryKey[0] !== ON_DEMAND;

export const queryKeys = {
  fleet: ["fleet"] as const,
  shootList: (search: string) => ["fleet", "list", search] as const,
  fleetSummary: (search: string) => ["fleet", "summary", search] as const,
  /**
   * What the fleet runs of one cloud profile, counted per version: under ["cloudprofiles"], so
   * refreshed at the slow views' pace.
   */
  profileUsage: (cloudProfile: string) => ["cloudprofiles", cloudProfile, "usage"] as const,
  shoot: (namespace: string, name: string) => ["shoot", namespace, name] as const,
  shootPart: (namespace: string, name: string, part: string) => ["shoot", namespace, name, part] as const,
  /**
   * A read made only when the person presses its button (the nodes read with a viewer kubeconfig,
   * each read a new credential from the garden): deliberately NOT under ["shoot", ns, name], so a
   * live event for the shoot never refetches it, and left out of the "refetch everything" too
   * (refreshedByLiveEvents).
   */
  onDemand: (namespace: string, name: string, part: string) => [ON_DEMAND, namespace, name, part] as const,
  /** Every forecast, audit page and migration list: the prefixes a fleet-wide change refreshes. */
  forecasts: ["forecast"] as const,
  auditEvents: ["audit"] as const,
  migrationLists: ["migrations"] as const,
  forecast: (search: string) => ["forecast", search] as const,
  /** The freeze periods, and with the forced updates inside them: under "forecast", so they refresh with it. */
  freezes: ["forecast", "freezes"] as const,
  freezesWithForced: ["forecast", "freezes", "forced"] as const,
  audit: (search: string) => ["audit", search] as const,
  migrations: (search: string) => ["migrations", search] as const,
  cloudProfiles: ["cloudprofiles"] as const,
  cloudProfile: (name: string) => ["cloudprofiles", name] as const,
  // Under ["cloudprofiles"] too; "/" is in no object's name, so these never meet a profile's key.
  namespacedCloudProfiles: ["cloudprofiles", "/namespaced"] as const,
  // The document; ["cloudprofiles", "namespace/name"] (cloudProfile's) holds its resolved profile.
  namespacedCloudProfile: (namespace: string, name: string) =>
    ["cloudprofiles", `${namespace}/${name}`, "document"] as const,
  seeds: ["seeds"] as const,
  projects: ["projects"] as const,
  /** GET /api/v1/me: who the caller is, and their roles. */
  me: ["me"] as const,
  accounts: ["accounts"] as const,
  tokens: ["tokens"] as const,
  failedJobs: ["jobs", "failed"] as const,
  /** The update runs: the list's pages and each run, polled while one is under way. */
  updateRuns: ["update-runs"] as const,
  updateRunList: (cursor: string) => ["update-runs", "list", cursor] as const,
  updateRun: (id: string) => ["update-runs", "run", id] as const,
};

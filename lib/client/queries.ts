// Queries that more than one component asks for, each defined once (key, request, answer type),
// so that they share one cache entry and one answer type. A component adds its own options
// (polling, select, staleTime) by spreading: `useQuery({ ...seedsQuery, enabled: open })`.
import { queryOptions } from "@tanstack/react-query";
import { MINUTE_MS } from "../engine/time-units.ts";
import {
  describeProfileReference,
  profileReferenceOf,
  resolvedNamespacedProfile,
} from "../gardener/profile-reference.ts";
import { retryUnlessRefused } from "../ui/access.ts";
import { apiGet, shootPath } from "../ui/api.ts";
import { call, callPath, type CallQuery } from "../ui/call.ts";
import { listAccounts, listTokens, whoAmI } from "../api/operations/access.ts";
import {
  getCloudProfile,
  getNamespacedCloudProfile,
  listCloudProfiles,
  listNamespacedCloudProfiles,
  listProjects,
  listSeeds,
} from "../api/operations/landscape.ts";
import type { AnswerOf } from "../api/operation.ts";
import { getShootMigration } from "../api/operations/migrations.ts";
import {
  getMaintenancePlan,
  getShoot,
  getShootCleanup,
  getShootDeletion,
  getShootHistory,
  getShootNodes,
  summarizeShoots,
} from "../api/operations/shoots.ts";
import { listFailedJobs } from "../api/operations/upkeep.ts";
import type { CloudProfile, Shoot } from "../ui/api-types.ts";
import { queryKeys } from "./query-keys.ts";

/** GET /api/v1/namespaces/{ns}/shoots/{name}: the shoot, whose resourceVersion guards every edit. */
export const shootQuery = (namespace: string, name: string) =>
  queryOptions({
    queryKey: queryKeys.shoot(namespace, name),
    queryFn: ({ signal }) => call(getShoot, { params: { namespace, name } }, { signal }),
  });

/** The operations that read a part of one shoot from its own endpoint. */
export type ShootPartOperation =
  | typeof getMaintenancePlan
  | typeof getShootHistory
  | typeof getShootDeletion
  | typeof getShootMigration
  | typeof getShootNodes
  | typeof getShootCleanup;

/**
 * GET .../shoots/{name}/{part} (maintenance-plan, history, migration, deletion, nodes) through its
 * operation, keyed under the shoot by the part's path and query ("history?limit=50"), so a live
 * event for the shoot refreshes it too. Not for the nodes read with a viewer kubeconfig
 * (viewerNodesQuery), which no event may repeat.
 */
export const shootPartQuery = <O extends ShootPartOperation>(
  op: O,
  namespace: string,
  name: string,
  query?: CallQuery<O>,
) => {
  const path = callPath(op, { params: { namespace, name }, query });
  return queryOptions({
    queryKey: queryKeys.shootPart(namespace, name, path.slice(shootPath(namespace, name).length + 1)),
    // A GET is what call() sends for these: the path and the answer's type come from the operation.
    queryFn: ({ signal }) => apiGet<AnswerOf<O>>(path, signal),
  });
};

/**
 * GET .../shoots/{name}/nodes?through=viewer-kubeconfig: the nodes read inside the cluster with a
 * viewer kubeconfig the garden issues to the person, a new credential for each read. So it runs
 * only when the person presses the button (`refetch()`; `enabled: false` keeps everything else
 * from starting it), under its own key outside the shoot's, so live events and reconnects never
 * repeat it; never polled, retried or refetched on focus, mount or reconnect.
 */
export const viewerNodesQuery = (namespace: string, name: string) => {
  const path = callPath(getShootNodes, { params: { namespace, name }, query: { through: "viewer-kubeconfig" } });
  return queryOptions({
    queryKey: queryKeys.onDemand(namespace, name, path.slice(shootPath(namespace, name).length + 1)),
    queryFn: ({ signal }) => apiGet<AnswerOf<typeof getShootNodes>>(path, signal),
    enabled: false,
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    refetchOnMount: false,
  });
};

/** GET /api/v1/cloudprofiles/{name}; idle while the name is not known (""). */
export const cloudProfileQuery = (name: string) =>
  queryOptions({
    queryKey: queryKeys.cloudProfile(name),
    queryFn: ({ signal }) => call(getCloudProfile, { params: { name } }, { signal }),
    enabled: name !== "",
  });

/** GET /api/v1/namespacedcloudprofiles: those of the projects the caller may read. */
export const namespacedCloudProfilesQuery = queryOptions({
  queryKey: queryKeys.namespacedCloudProfiles,
  queryFn: ({ signal }) => call(listNamespacedCloudProfiles, {}, { signal }),
});

const getNamespacedProfile = (namespace: string, name: string, signal: AbortSignal) =>
  call(getNamespacedCloudProfile, { params: { namespace, name } }, { signal });

/** GET /api/v1/namespaces/{ns}/namespacedcloudprofiles/{name}, as the garden has it. */
export const namespacedCloudProfileQuery = (namespace: string, name: string) =>
  queryOptions({
    queryKey: queryKeys.namespacedCloudProfile(namespace, name),
    queryFn: ({ signal }) => getNamespacedProfile(namespace, name, signal),
  });

/**
 * The profile a shoot is read against, as the server reads it (lib/gardener/profile-reference.ts):
 * its CloudProfile, or its NamespacedCloudProfile's merged spec (an error until Gardener wrote it).
 */
export const shootProfileQuery = (shoot: Shoot) => {
  const reference = profileReferenceOf(shoot);
  if (reference?.kind !== "NamespacedCloudProfile") return cloudProfileQuery(reference?.name ?? "");
  const { namespace = "", name } = reference;
  return queryOptions({
    queryKey: queryKeys.cloudProfile(`${namespace}/${name}`),
    queryFn: async ({ signal }): Promise<CloudProfile> => {
      const stored = await getNamespacedProfile(namespace, name, signal);
      const resolved = resolvedNamespacedProfile(stored);
      if (!resolved)
        throw new Error(`Gardener has not yet resolved the ${describeProfileReference(reference)} (its status).`);
      return resolved;
    },
  });
};

export const cloudProfilesQuery = queryOptions({
  queryKey: queryKeys.cloudProfiles,
  queryFn: ({ signal }) => call(listCloudProfiles, {}, { signal }),
});

export const seedsQuery = queryOptions({
  queryKey: queryKeys.seeds,
  queryFn: ({ signal }) => call(listSeeds, {}, { signal }),
});

export const projectsQuery = queryOptions({
  queryKey: queryKeys.projects,
  queryFn: ({ signal }) => call(listProjects, {}, { signal }),
});

/**
 * GET /api/v1/me: the caller and their roles, which say what the pages offer. Roles change
 * rarely (and a session is re-read on the next page load), so it is read once and kept.
 */
export const meQuery = queryOptions({
  queryKey: queryKeys.me,
  queryFn: ({ signal }) => call(whoAmI, {}, { signal }),
  staleTime: 10 * MINUTE_MS,
});

/** GET /api/v1/shoots/summary for a fleet query string (without "?"; "" for the whole fleet). */
export const fleetSummaryQuery = (search: string) =>
  queryOptions({
    queryKey: queryKeys.fleetSummary(search),
    queryFn: ({ signal }) => call(summarizeShoots, { query: new URLSearchParams(search) }, { signal }),
  });

/** GET /api/v1/accounts (admins only; others get 403). */
export const accountsQuery = queryOptions({
  queryKey: queryKeys.accounts,
  queryFn: ({ signal }) => call(listAccounts, {}, { signal }),
  retry: retryUnlessRefused,
});

/** GET /api/v1/tokens (admins only; others get 403). */
export const failedJobsQuery = queryOptions({
  queryKey: queryKeys.failedJobs,
  queryFn: ({ signal }) => call(listFailedJobs, {}, { signal }),
  retry: retryUnlessRefused,
  refetchInterval: 30_000,
});

export const tokensQuery = queryOptions({
  queryKey: queryKeys.tokens,
  queryFn: ({ signal }) => call(listTokens, {}, { signal }),
  retry: retryUnlessRefused,
});

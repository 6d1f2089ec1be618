// The fleet page rendered on the server with its data: the first page of rows and the tiles,
// read in-process (no HTTP hop) under the same query keys the browser uses, so the page arrives
// with its rows in the HTML and the browser does not ask again until the data goes stale. It
// lives with the page because it joins both sides: the browser's keys and the server's use cases.
// The rows are what the caller may read, as the API would answer them (the same authorize() as
// GET /api/v1/shoots, then lib/server/fleet-scope.ts: their roles, and on a live garden its RBAC),
// and the caller's roles come along, since the page says whose shoots it shows.
import { QueryClient } from "@tanstack/react-query";
import { listShoots, summarizeShoots } from "@/lib/api/operations/shoots.ts";
import type { ShootListAnswer } from "@/lib/api/shoot-list.ts";
import { parseQuery } from "@/lib/api/parse-query.ts";
import { authorize } from "@/lib/auth/authorize.ts";
import type { Principal } from "@/lib/auth/principal.ts";
import { revision } from "@/lib/db/change-feed.ts";
import { databaseUrl, db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { GardenUnavailableError } from "@/lib/auth/garden-access.ts";
import { filtersFromSearch, listQuery, summaryQuery } from "@/lib/ui/fleet-filters.ts";
import { queryKeys } from "@/lib/client/query-keys.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";
import { fleetSummary } from "@/lib/server/fleet-summary.ts";
import { listShootsJson } from "@/lib/server/list-shoots.ts";
import { whoAmI } from "@/lib/server/who-am-i.ts";

export async function prefetchFleet(
  search: URLSearchParams,
  firstPage: number,
  principal: Principal,
): Promise<QueryClient> {
  const queryClient = new QueryClient();
  const me = queryClient.prefetchQuery({ queryKey: queryKeys.me, queryFn: () => whoAmI(db(), principal) });
  // Without a role anywhere there is nothing to show: the browser asks and shows the API's 403.
  if (!(await authorize(principal, { need: "read", anyProject: true }, gardenAccess())).ok) {
    await me;
    return queryClient;
  }
  // A garden that cannot say what the caller may read leaves the rows to the browser, whose
  // request reports it (503); the page never shows more than the API would answer.
  const scope = await fleetScope(db(), principal, gardenAccess()).catch((error: unknown) => {
    if (error instanceof GardenUnavailableError) return undefined;
    throw error;
  });
  if (!scope) {
    await me;
    return queryClient;
  }
  const filters = filtersFromSearch(search);
  const list = listQuery(filters).toString();
  const summary = summaryQuery(filters).toString();
  const now = Date.now();
  // A failed prefetch (also a filter on a namespace that is not the caller's) is not an error
  // here: the browser then loads (and reports) it itself.
  await Promise.all([
    me,
    queryClient.prefetchInfiniteQuery({
      queryKey: queryKeys.shootList(list),
      queryFn: async (): Promise<ShootListAnswer> =>
        JSON.parse(
          await listShootsJson(
            db(),
            parseQuery(listShoots.query, new URLSearchParams(`${list}&limit=${firstPage}`)),
            scope,
            revision(databaseUrl()),
            now,
          ).then(String),
        ),
      initialPageParam: "",
    }),
    queryClient.prefetchQuery({
      queryKey: queryKeys.fleetSummary(summary),
      queryFn: async () =>
        fleetSummary(db(), parseQuery(summarizeShoots.query, new URLSearchParams(summary)), scope, now),
    }),
  ]);
  return queryClient;
}

// The fleet page rendered on the server with its data: the first page of rows and the tiles,
// read in-process (no HTTP hop) under the same query keys the browser uses, so the page arrives
// with its rows in the HTML and the browser does not ask again until the data goes stale. It
// lives with the page because it joins both sides: the browser's keys and the server's use cases.
import { QueryClient } from "@tanstack/react-query";
import type { ShootListAnswer } from "@/lib/api/shoot-list.ts";
import { revision } from "@/lib/db/change-feed.ts";
import { databaseUrl, db } from "@/lib/db/client.ts";
import { filtersFromSearch, listQuery, summaryQuery } from "@/lib/ui/fleet-filters.ts";
import { queryKeys } from "@/lib/ui/query-keys.ts";
import { fleetSummary } from "@/lib/server/fleet-summary.ts";
import { listShootsJson } from "@/lib/server/list-shoots.ts";

export async function prefetchFleet(search: URLSearchParams, firstPage: number): Promise<QueryClient> {
  const queryClient = new QueryClient();
  const filters = filtersFromSearch(search);
  const list = listQuery(filters).toString();
  const summary = summaryQuery(filters).toString();
  const now = Date.now();
  // A failed prefetch is not an error here: the browser then loads (and reports) it itself.
  await Promise.all([
    queryClient.prefetchInfiniteQuery({
      queryKey: queryKeys.shootList(list),
      queryFn: async (): Promise<ShootListAnswer> =>
        JSON.parse(
          await listShootsJson(db(), new URLSearchParams(`${list}&limit=${firstPage}`), revision(databaseUrl()), now),
        ),
      initialPageParam: "",
    }),
    queryClient.prefetchQuery({
      queryKey: queryKeys.fleetSummary(summary),
      queryFn: () => fleetSummary(db(), new URLSearchParams(summary), now),
    }),
  ]);
  return queryClient;
}

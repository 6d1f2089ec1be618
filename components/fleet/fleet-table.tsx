"use client";

// The fleet table: pages of 100 rows from the server (filtered and sorted there), drawn as a
// virtual list so that 10,000 shoots scroll as smoothly as 10. The next page loads as the
// scroll nears the end of what is loaded.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { useEffect, useRef } from "react";
import { useMounted, useNow } from "@/components/ui/time";
import { EmptyState, ErrorState, Skeleton } from "@/components/ui/states";
import { apiGet } from "@/lib/ui/api";
import type { ShootListAnswer } from "@/lib/ui/api-types";
import {
  DEFAULT_FILTERS,
  FIRST_PAGE,
  listQuery,
  type FleetChange,
  type FleetFilters,
  type Sort,
} from "@/lib/ui/fleet-filters";
import { queryKeys } from "@/lib/ui/query-keys";
import {
  AutoUpdateCell,
  ConditionsCell,
  ExpiryCell,
  ImagesCell,
  KubernetesCell,
  MaintenanceCell,
  NameCell,
  SeedCell,
  StatusCell,
} from "./shoot-cells";

const PAGE = 200;
const ROW_HEIGHT = 64;
const GRID =
  "grid grid-cols-[minmax(190px,1.4fr)_150px_190px_115px_150px_minmax(170px,1.1fr)_180px_95px_minmax(110px,0.7fr)] gap-x-4";

const COLUMNS: { label: string; sort?: Sort; hint?: string }[] = [
  { label: "Cluster", sort: "name" },
  { label: "Status", sort: "status", hint: "Sorted worst first" },
  { label: "Conditions" },
  { label: "Kubernetes", sort: "kubernetesVersion" },
  { label: "Earliest expiry", sort: "expiry", hint: "The soonest expiration date of any version the cluster uses" },
  { label: "Machine images" },
  { label: "Next maintenance", sort: "nextMaintenance" },
  { label: "Auto-update" },
  { label: "Seed" },
];

export function FleetTable({ filters, onChange }: { filters: FleetFilters; onChange: (change: FleetChange) => void }) {
  const query = listQuery(filters).toString();
  const now = useNow(30_000);
  const mounted = useMounted();
  const list = useInfiniteQuery({
    queryKey: queryKeys.shootList(query),
    queryFn: ({ pageParam, signal }) =>
      apiGet<ShootListAnswer>(
        `/shoots?${query}&limit=${pageParam ? PAGE : FIRST_PAGE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`,
        signal,
      ),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: (previous) => previous,
  });
  const rows = list.data?.pages.flatMap((p) => p.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;

  const scroller = useRef<HTMLDivElement>(null);
  // TanStack Virtual hands out new functions each render, so React Compiler would not memoise this
  // component; the app does not use the compiler, and the rule's notice is not a defect here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    // Rows rendered on the server (and at hydration) before the scroller can be measured.
    initialRect: { width: 1400, height: 720 },
  });
  const items = virtual.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (lastIndex >= rows.length - 30 && list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  }, [lastIndex, rows.length, list]);

  // A new filter or sort starts at the top.
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [query]);

  const sortBy = (sort: Sort) => onChange((f) => ({ ...f, sort, descending: f.sort === sort ? !f.descending : false }));

  if (list.isError && !list.data) {
    return <ErrorState title="The fleet could not be loaded" error={list.error} onRetry={() => void list.refetch()} />;
  }

  return (
    <div className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="flex items-center justify-between border-b border-slate-100 px-4 py-2 text-xs text-slate-500">
        <span aria-live="polite">
          {list.isPending
            ? "Loading shoots…"
            : `${total.toLocaleString("en")} ${total === 1 ? "shoot" : "shoots"}${rows.length < total ? ` · ${rows.length.toLocaleString("en")} loaded` : ""}`}
        </span>
        {list.isFetching && !list.isPending && <span>Updating…</span>}
      </div>
      <div
        ref={scroller}
        className="h-[calc(100dvh-330px)] min-h-[420px] overflow-auto"
        role="table"
        aria-label="Shoots"
        aria-rowcount={total + 1}
        aria-busy={list.isFetching}
      >
        <div
          role="rowgroup"
          className="sticky top-0 z-10 min-w-[1420px] border-b border-slate-200 bg-slate-50/95 backdrop-blur"
        >
          <div role="row" className={`${GRID} px-4 py-2 text-xs font-medium text-slate-600`}>
            {COLUMNS.map((c) => {
              const active = c.sort !== undefined && filters.sort === c.sort;
              return (
                <div
                  key={c.label}
                  role="columnheader"
                  aria-sort={active ? (filters.descending ? "descending" : "ascending") : undefined}
                  title={c.hint}
                >
                  {c.sort ? (
                    <button
                      type="button"
                      onClick={() => sortBy(c.sort!)}
                      className={`-mx-1 inline-flex items-center gap-1 rounded px-1 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-accent-600 ${active ? "text-slate-900" : ""}`}
                    >
                      {c.label}
                      {active ? (
                        filters.descending ? (
                          <ArrowDown aria-hidden className="size-3" />
                        ) : (
                          <ArrowUp aria-hidden className="size-3" />
                        )
                      ) : (
                        <ArrowUpDown aria-hidden className="size-3 opacity-40" />
                      )}
                    </button>
                  ) : (
                    c.label
                  )}
                </div>
              );
            })}
          </div>
        </div>
        {list.isPending ? (
          <div role="rowgroup" className="min-w-[1420px]">
            {Array.from({ length: 8 }, (_, i) => (
              <div
                key={i}
                role="row"
                className={`${GRID} items-center border-b border-slate-100 px-4`}
                style={{ height: ROW_HEIGHT }}
              >
                {COLUMNS.map((c) => (
                  <div key={c.label} role="cell">
                    <Skeleton className="h-4 w-3/4" />
                  </div>
                ))}
              </div>
            ))}
          </div>
        ) : rows.length === 0 ? (
          <div className="p-6">
            <EmptyState
              title="No clusters match these filters"
              action={
                <button
                  type="button"
                  onClick={() => onChange((f) => ({ ...DEFAULT_FILTERS, sort: f.sort, descending: f.descending }))}
                  className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
                >
                  Reset filters
                </button>
              }
            >
              Widen the search, or reset the filters to see every shoot.
            </EmptyState>
          </div>
        ) : (
          <div role="rowgroup" className="relative min-w-[1420px]" style={{ height: virtual.getTotalSize() }}>
            {items.map((item) => {
              const row = rows[item.index];
              return (
                <div
                  key={`${row.namespace}/${row.name}`}
                  role="row"
                  aria-rowindex={item.index + 2}
                  data-shoot={`${row.namespace}/${row.name}`}
                  className={`${GRID} absolute inset-x-0 items-center border-b border-slate-100 px-4 hover:bg-slate-50`}
                  style={{ height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                >
                  <div role="cell" className="min-w-0">
                    <NameCell row={row} timing={item.index === 0 ? "almanac:first-row" : undefined} />
                  </div>
                  <div role="cell" className="min-w-0">
                    <StatusCell row={row} />
                  </div>
                  <div role="cell">
                    <ConditionsCell row={row} />
                  </div>
                  <div role="cell">
                    <KubernetesCell row={row} />
                  </div>
                  <div role="cell" className="min-w-0">
                    {mounted ? <ExpiryCell row={row} now={now} /> : <Skeleton className="h-4 w-3/4" />}
                  </div>
                  <div role="cell" className="min-w-0">
                    <ImagesCell row={row} />
                  </div>
                  <div role="cell" className="min-w-0">
                    {mounted ? <MaintenanceCell row={row} now={now} /> : <Skeleton className="h-4 w-3/4" />}
                  </div>
                  <div role="cell">
                    <AutoUpdateCell row={row} />
                  </div>
                  <div role="cell" className="min-w-0">
                    <SeedCell row={row} />
                  </div>
                </div>
              );
            })}
          </div>
        )}
        {list.isFetchingNextPage && (
          <div className="min-w-[1420px] px-4 py-3 text-center text-xs text-slate-500">Loading more shoots…</div>
        )}
      </div>
      {list.isError && list.data && (
        <div className="border-t border-slate-100 p-3">
          <ErrorState
            title="Refreshing the fleet failed; showing what was loaded before"
            error={list.error}
            onRetry={() => void list.refetch()}
          />
        </div>
      )}
    </div>
  );
}

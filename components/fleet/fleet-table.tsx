"use client";

// The fleet table: pages of 100 rows from the server (filtered and sorted there), drawn as a
// virtual list so that 10,000 shoots scroll as smoothly as 10. The next page loads as the
// scroll nears the end of what is loaded.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { useEffect, useId, useMemo, useRef, type ReactNode } from "react";
import { HeaderCheckbox, RowCheckbox } from "@/components/bulk-actions/select-checkboxes";
import { keyOf, type SelectionStore } from "@/components/bulk-actions/selection-store";
import { useMounted, useNow } from "@/components/ui/time";
import { EmptyState, ErrorState, Skeleton } from "@/components/ui/states";
import { listShoots } from "@/lib/api/operations/shoots";
import { call } from "@/lib/ui/call";
import type { ShootRow } from "@/lib/ui/api-types";
import {
  DEFAULT_FILTERS,
  FIRST_PAGE,
  listQuery,
  type FleetChange,
  type FleetFilters,
  type Sort,
} from "@/lib/ui/fleet-filters";
import { queryKeys } from "@/lib/client/query-keys";
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
/** A row of the table from lg up; below, a row is a card of about twice that, measured as drawn. */
const ROW_HEIGHT = 64;
// Below lg each row is a card: name and status, version and expiry, the next window (two rows from
// sm up). From lg up the columns below, narrow enough that all nine fit at 1440 px; narrower
// screens scroll the table sideways inside its box.
const GRID =
  "grid grid-cols-2 gap-x-3 gap-y-2 sm:grid-cols-4 lg:grid-cols-[minmax(140px,1fr)_minmax(130px,1fr)_170px_95px_minmax(140px,0.8fr)_minmax(150px,1.2fr)_165px_80px_minmax(100px,0.8fr)]";
/** Nine columns, their gaps and the row's padding. */
const TABLE_WIDTH = "lg:min-w-[1300px]";

interface Column {
  label: string;
  sort?: Sort;
  hint?: string;
  /** Where the cell goes: most columns are left out of the cards. */
  cell: string;
  /** Cards name what they show where the value alone does not say it. */
  cardLabel?: boolean;
  render: (row: ShootRow, at: { now: number; mounted: boolean; first: boolean }) => ReactNode;
}

const COLUMNS: Column[] = [
  {
    label: "Cluster",
    sort: "name",
    cell: "col-span-2 min-w-0 lg:col-span-1",
    render: (row, { first, now, mounted }) => (
      <NameCell row={row} timing={first ? "almanac:first-row" : undefined} now={now} mounted={mounted} />
    ),
  },
  {
    label: "Status",
    sort: "status",
    hint: "Sorted worst first",
    cell: "col-span-2 min-w-0 lg:col-span-1",
    render: (row) => <StatusCell row={row} />,
  },
  { label: "Conditions", cell: "hidden lg:block", render: (row) => <ConditionsCell row={row} /> },
  {
    label: "Kubernetes",
    sort: "kubernetesVersion",
    cell: "",
    cardLabel: true,
    render: (row) => <KubernetesCell row={row} />,
  },
  {
    label: "Earliest expiry",
    sort: "expiry",
    hint: "The soonest expiration date of any version the cluster uses",
    cell: "min-w-0",
    cardLabel: true,
    render: (row, { now, mounted }) =>
      mounted ? <ExpiryCell row={row} now={now} /> : <Skeleton className="h-4 w-3/4" />,
  },
  { label: "Machine images", cell: "hidden min-w-0 lg:block", render: (row) => <ImagesCell row={row} /> },
  {
    label: "Next maintenance",
    sort: "nextMaintenance",
    cell: "col-span-2 min-w-0 lg:col-span-1",
    cardLabel: true,
    render: (row, { now, mounted }) =>
      mounted ? <MaintenanceCell row={row} now={now} /> : <Skeleton className="h-4 w-3/4" />,
  },
  { label: "Auto-update", cell: "hidden lg:block", render: (row) => <AutoUpdateCell row={row} /> },
  { label: "Seed", cell: "hidden min-w-0 lg:block", render: (row) => <SeedCell row={row} /> },
];

export function FleetTable({
  filters,
  onChange,
  selection,
  onTotal,
}: {
  filters: FleetFilters;
  onChange: (change: FleetChange) => void;
  /** Where the rows' checkboxes keep what is ticked (a bulk action's selection); none: no checkboxes. */
  selection?: SelectionStore;
  /** The list's total as the server counts it, and whether it is a lower bound. */
  onTotal?: (total: number | undefined, bounded: boolean) => void;
}) {
  const query = listQuery(filters).toString();
  const now = useNow(30_000);
  const mounted = useMounted();
  const list = useInfiniteQuery({
    queryKey: queryKeys.shootList(query),
    queryFn: ({ pageParam, signal }) => {
      const page = new URLSearchParams(query);
      page.set("limit", String(pageParam ? PAGE : FIRST_PAGE));
      if (pageParam) page.set("cursor", pageParam);
      return call(listShoots, { query: page }, { signal });
    },
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: (previous) => previous,
  });
  const rows = list.data?.pages.flatMap((p) => p.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  // A search or a label selector with many matches counts only so far: the answer says "more than" that.
  const bounded = list.data?.pages[0]?.totalBounded === true;
  // The loaded rows' keys in order: the header checkbox ticks them, a shift-click ranges over them.
  const loadedKeys = useMemo(() => list.data?.pages.flatMap((p) => p.items.map(keyOf)) ?? [], [list.data]);
  useEffect(() => selection?.setOrder(loadedKeys), [selection, loadedKeys]);
  const known = list.data === undefined ? undefined : total;
  useEffect(() => onTotal?.(known, bounded), [onTotal, known, bounded]);

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
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-4 py-2 text-xs text-slate-500">
        <span aria-live="polite">
          {list.isPending
            ? "Loading shoots…"
            : bounded
              ? `more than ${total.toLocaleString("en")} shoots · ${rows.length.toLocaleString("en")} loaded`
              : `${total.toLocaleString("en")} ${total === 1 ? "shoot" : "shoots"}${rows.length < total ? ` · ${rows.length.toLocaleString("en")} loaded` : ""}`}
        </span>
        {list.isFetching && !list.isPending && <span>Updating…</span>}
        {selection && (
          <label className="flex items-center gap-1.5 font-medium text-slate-600 lg:hidden">
            <HeaderCheckbox store={selection} loaded={loadedKeys} />
            Select shown
          </label>
        )}
        <CardSort filters={filters} onChange={onChange} />
      </div>
      <div
        ref={scroller}
        className="h-[75dvh] min-h-[420px] overflow-auto lg:h-[calc(100dvh-330px)]"
        role="table"
        aria-label="Shoots"
        aria-rowcount={bounded ? -1 : total + 1}
        aria-busy={list.isFetching}
      >
        <div
          role="rowgroup"
          className={`sticky top-0 z-10 hidden border-b border-slate-200 bg-slate-50/95 backdrop-blur lg:block ${TABLE_WIDTH}`}
        >
          <div role="row" className={`${GRID} px-4 py-2 text-xs font-medium text-slate-600`}>
            {COLUMNS.map((c, column) => {
              const active = c.sort !== undefined && filters.sort === c.sort;
              return (
                <div
                  key={c.label}
                  role="columnheader"
                  aria-sort={active ? (filters.descending ? "descending" : "ascending") : undefined}
                  title={c.hint}
                  className={column === 0 && selection ? "flex items-center gap-2.5" : undefined}
                >
                  {column === 0 && selection && <HeaderCheckbox store={selection} loaded={loadedKeys} />}
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
          <div role="rowgroup" className={TABLE_WIDTH}>
            {Array.from({ length: 8 }, (_, i) => (
              <div
                key={i}
                role="row"
                className={`${GRID} items-center border-b border-slate-100 px-4 py-3 lg:h-16 lg:py-0`}
              >
                {COLUMNS.map((c) => (
                  <div key={c.label} role="cell" className={c.cell}>
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
          <div role="rowgroup" className={`relative ${TABLE_WIDTH}`} style={{ height: virtual.getTotalSize() }}>
            {items.map((item) => {
              const row = rows[item.index];
              return (
                <div
                  key={`${row.namespace}/${row.name}`}
                  ref={virtual.measureElement}
                  data-index={item.index}
                  role="row"
                  aria-rowindex={item.index + 2}
                  data-shoot={`${row.namespace}/${row.name}`}
                  // A ticked row is marked by CSS (:has): an accent bar on its left and a soft background the
                  // small grey text keeps its contrast on; ticking re-renders the checkbox only.
                  className={`${GRID} absolute inset-x-0 items-center border-b border-slate-100 px-4 py-3 hover:bg-slate-50 has-[input[data-select-shoot]:checked]:bg-slate-50 has-[input[data-select-shoot]:checked]:shadow-[inset_3px_0_0_var(--color-accent-600)] lg:h-16 lg:py-0`}
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  {COLUMNS.map((c, column) => (
                    <div key={c.label} role="cell" className={c.cell}>
                      {c.cardLabel && (
                        <div className="mb-0.5 text-[11px] font-medium text-slate-500 lg:hidden">{c.label}</div>
                      )}
                      {column === 0 && selection ? (
                        <div className="flex items-start gap-2.5">
                          <span className="flex h-5 items-center">
                            <RowCheckbox store={selection} namespace={row.namespace} name={row.name} />
                          </span>
                          <div className="min-w-0 flex-1">
                            {c.render(row, { now, mounted, first: item.index === 0 })}
                          </div>
                        </div>
                      ) : (
                        c.render(row, { now, mounted, first: item.index === 0 })
                      )}
                    </div>
                  ))}
                </div>
              );
            })}
          </div>
        )}
        {list.isFetchingNextPage && (
          <div className={`px-4 py-3 text-center text-xs text-slate-500 ${TABLE_WIDTH}`}>Loading more shoots…</div>
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

/** Sorting for the cards, which have no column headers to click. */
function CardSort({ filters, onChange }: { filters: FleetFilters; onChange: (change: FleetChange) => void }) {
  const id = useId();
  return (
    <div className="flex items-center gap-1.5 lg:hidden">
      <label htmlFor={id} className="font-medium text-slate-600">
        Sort by
      </label>
      <select
        id={id}
        value={filters.sort}
        onChange={(e) => onChange((f) => ({ ...f, sort: e.target.value as Sort, descending: false }))}
        className="rounded-md border-0 bg-white py-1 pl-2 pr-7 text-xs text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:outline-2 focus:outline-accent-600"
      >
        {COLUMNS.filter((c) => c.sort).map((c) => (
          <option key={c.sort} value={c.sort}>
            {c.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        onClick={() => onChange((f) => ({ ...f, descending: !f.descending }))}
        aria-label={filters.descending ? "Descending; sort ascending" : "Ascending; sort descending"}
        title={filters.descending ? "Descending" : "Ascending"}
        className="rounded p-1 text-slate-600 ring-1 ring-inset ring-slate-300 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-accent-600"
      >
        {filters.descending ? (
          <ArrowDown aria-hidden className="size-3.5" />
        ) : (
          <ArrowUp aria-hidden className="size-3.5" />
        )}
      </button>
    </div>
  );
}

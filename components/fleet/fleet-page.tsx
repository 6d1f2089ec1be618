"use client";

import { useCallback, useEffect, useState } from "react";
import { SelectionBar } from "@/components/bulk-actions/selection-bar";
import { SelectionStore } from "@/components/bulk-actions/selection-store";
import { ScopeNote } from "@/components/scope-note";
import { DownloadLinks } from "@/components/ui/download-links";
import { PageHeader } from "@/components/ui/page-header";
import { useUrlFilters } from "@/components/ui/use-url-filters";
import { fleetExportUrl } from "@/lib/ui/export-links";
import { filtersFromSearch, searchFromFilters, summaryQuery, type FleetChange } from "@/lib/ui/fleet-filters";
import { FleetFilterBar } from "./fleet-filter-bar";
import { FleetTable } from "./fleet-table";
import { SummaryTiles } from "./summary-tiles";
import { useSearchText } from "./use-search-text";

export function FleetPage() {
  const [filters, setFilters] = useUrlFilters(filtersFromSearch, searchFromFilters);
  // Typing replaces the history entry once it pauses.
  const sendSearch = useCallback((q: string) => setFilters((f) => ({ ...f, q }), "replace"), [setFilters]);
  const search = useSearchText(filters.q, sendSearch);
  const { flush } = search;
  // Clicks add a history entry (back undoes them), and take along what is typed in the search box
  // and not yet sent: every change is applied to the latest filters, so none is lost to another.
  const push = useCallback(
    (change: FleetChange) => {
      const q = flush();
      setFilters((f) => change(q === undefined ? f : { ...f, q }), "push");
    },
    [flush, setFilters],
  );
  // The bulk selection: a store outside React state, so ticking a row re-renders that row's box only.
  // Another filter selects other shoots: what was ticked is cleared.
  const [selection] = useState(() => new SelectionStore());
  const [listTotal, setListTotal] = useState<{ total: number | undefined; bounded: boolean }>({
    total: undefined,
    bounded: false,
  });
  const onTotal = useCallback((total: number | undefined, bounded: boolean) => setListTotal({ total, bounded }), []);
  const selected = summaryQuery(filters).toString();
  useEffect(() => selection.clear(), [selection, selected]);
  return (
    <div className="space-y-5">
      <PageHeader
        title="Fleet"
        description="Every shoot cluster: its health, the versions it runs and when they expire, and when it is maintained next."
        actions={
          <DownloadLinks what="the shoots these filters select" url={(format) => fleetExportUrl(filters, format)} />
        }
      />
      <ScopeNote subject="shoots" className="" />
      <SummaryTiles filters={filters} onChange={push} />
      <FleetFilterBar filters={filters} onChange={push} text={search.text} onType={search.type} />
      <FleetTable filters={filters} onChange={push} selection={selection} onTotal={onTotal} />
      <SelectionBar store={selection} filters={filters} total={listTotal.total} bounded={listTotal.bounded} />
    </div>
  );
}

"use client";

import { useCallback } from "react";
import { ScopeNote } from "@/components/scope-note";
import { DownloadLinks } from "@/components/ui/download-links";
import { PageHeader } from "@/components/ui/page-header";
import { useUrlFilters } from "@/components/ui/use-url-filters";
import { fleetExportUrl } from "@/lib/ui/export-links";
import { filtersFromSearch, searchFromFilters, type FleetFilters } from "@/lib/ui/fleet-filters";
import { FleetFilterBar } from "./fleet-filter-bar";
import { FleetTable } from "./fleet-table";
import { SummaryTiles } from "./summary-tiles";

export function FleetPage() {
  const [filters, setFilters] = useUrlFilters(filtersFromSearch, searchFromFilters);
  // Clicks add a history entry (back undoes them); typing replaces it.
  const push = useCallback((f: FleetFilters) => setFilters(f, "push"), [setFilters]);
  const replace = useCallback((f: FleetFilters) => setFilters(f, "replace"), [setFilters]);
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
      <FleetFilterBar filters={filters} onChange={push} onType={replace} />
      <FleetTable filters={filters} onChange={push} />
    </div>
  );
}

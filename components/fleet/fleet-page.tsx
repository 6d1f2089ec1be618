"use client";

import { useCallback } from "react";
import { PageHeader } from "@/components/ui/page-header";
import { FleetFilterBar } from "./fleet-filter-bar";
import { FleetTable } from "./fleet-table";
import { SummaryTiles } from "./summary-tiles";
import { useFleetFilters } from "./use-fleet-filters";

export function FleetPage() {
  const { filters, setFilters } = useFleetFilters();
  const push = useCallback((f: typeof filters) => setFilters(f, "push"), [setFilters]);
  const replace = useCallback((f: typeof filters) => setFilters(f, "replace"), [setFilters]);
  return (
    <div className="space-y-5">
      <PageHeader title="Fleet" description="Every shoot cluster: its health, the versions it runs and when they expire, and when it is maintained next." />
      <SummaryTiles filters={filters} onChange={push} />
      <FleetFilterBar filters={filters} onChange={push} onType={replace} />
      <FleetTable filters={filters} onChange={push} />
    </div>
  );
}

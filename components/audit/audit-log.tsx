"use client";

// /audit: who changed what and when, newest first, filterable, one page of events at a time.
// The query key starts with ["audit"], so new events appear live.
import { useInfiniteQuery } from "@tanstack/react-query";
import { Loader2 } from "lucide-react";
import { ScopeNote } from "@/components/scope-note";
import { Button } from "@/components/ui/button";
import { DownloadLinks } from "@/components/ui/download-links";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState, ErrorState, Skeleton } from "@/components/ui/states";
import { useUrlFilters } from "@/components/ui/use-url-filters";
import { listAudit } from "@/lib/api/operations/audit";
import { call } from "@/lib/ui/call";
import { auditQuery, auditSearch, hasAuditFilters, parseAuditFilters } from "@/lib/ui/audit-filters";
import { auditExportUrl } from "@/lib/ui/export-links";
import { queryKeys } from "@/lib/client/query-keys";
import { AuditFiltersBar } from "./audit-filters-bar";
import { AuditTable } from "./audit-table";

const PAGE_SIZE = 50;

export function AuditLog() {
  const [filters, setFilters] = useUrlFilters(parseAuditFilters, auditSearch);
  const key = auditSearch(filters);

  const events = useInfiniteQuery({
    queryKey: queryKeys.audit(key),
    queryFn: ({ pageParam, signal }) =>
      call(listAudit, { query: auditQuery(filters, PAGE_SIZE, pageParam) }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const items = events.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <div>
      <PageHeader
        title="Audit log"
        description="Every change to the garden, newest first: who made it (the person or API token, or the system), what it did, and each field before and after."
        actions={
          <DownloadLinks what="the events these filters select" url={(format) => auditExportUrl(filters, format)} />
        }
      />
      <ScopeNote subject="events">
        Events on accounts, API tokens and sign-ins need a role on the whole landscape.
      </ScopeNote>
      <AuditFiltersBar filters={filters} onChange={setFilters} />
      {events.isPending ? (
        <div
          role="status"
          aria-live="polite"
          className="space-y-2 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        >
          <span className="sr-only">Loading the audit log</span>
          {Array.from({ length: 8 }, (_, i) => (
            <Skeleton key={i} className="h-8 w-full" />
          ))}
        </div>
      ) : events.error && !events.data ? (
        <ErrorState
          title="The audit log could not be loaded"
          error={events.error}
          onRetry={() => void events.refetch()}
        />
      ) : items.length === 0 ? (
        <EmptyState
          title={hasAuditFilters(filters) ? "No audit events match these filters" : "The audit log is empty"}
          action={hasAuditFilters(filters) ? <Button onClick={() => setFilters({})}>Reset filters</Button> : undefined}
        >
          {hasAuditFilters(filters)
            ? "Try a wider date range, or another action or shoot."
            : "Changes made through Almanac appear here as they happen."}
        </EmptyState>
      ) : (
        <div className="space-y-4">
          <AuditTable events={items} />
          <div className="flex items-center justify-between text-sm text-slate-600">
            <span aria-live="polite">
              {items.length} {items.length === 1 ? "event" : "events"} shown
              {events.hasNextPage ? "; older ones follow" : ", the oldest reached"}.
            </span>
            {events.hasNextPage && (
              <Button onClick={() => void events.fetchNextPage()} disabled={events.isFetchingNextPage}>
                {events.isFetchingNextPage && <Loader2 aria-hidden className="size-4 animate-spin" />}
                Load more
              </Button>
            )}
          </div>
          {events.error && (
            <ErrorState
              title={
                events.isFetchNextPageError
                  ? "Older events could not be loaded"
                  : "The audit log could not be refreshed"
              }
              error={events.error}
              onRetry={() => void (events.isFetchNextPageError ? events.fetchNextPage() : events.refetch())}
            />
          )}
        </div>
      )}
    </div>
  );
}

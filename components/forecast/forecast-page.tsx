"use client";

// /forecast: every forced update and the clusters that will be stuck, across the fleet, by day
// or by week, then the list. The filters live in the URL query and go to the server, which
// answers the counts of every update they select and the first of them, a page at a time.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, Loader2 } from "lucide-react";
import { useMemo, useState } from "react";
import { useCloudProfiles } from "@/components/cloudprofiles/use-cloud-profiles";
import { ScopeNote } from "@/components/scope-note";
import { Button } from "@/components/ui/button";
import { useReadableProjects } from "@/components/use-readable-projects";
import { CheckboxFilter, SegmentedControl, SelectFilter } from "@/components/ui/filter-controls";
import { DownloadLinks } from "@/components/ui/download-links";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { EmptyState, ErrorState, LoadingBlock, Skeleton } from "@/components/ui/states";
import { useNow } from "@/components/ui/time";
import { useUrlFilters } from "@/components/ui/use-url-filters";
import type { ForecastAnswerSummary as ForecastSummary } from "@/lib/api/forecast";
import { forecastExportUrl } from "@/lib/ui/export-links";
import { bucketDays, bucketTitle, groupItems, type Bucket } from "@/lib/ui/forecast-buckets";
import {
  HORIZONS,
  withoutNarrowing,
  forecastApiPath,
  forecastSearch,
  narrowsForecast,
  parseForecastFilters,
  type ForecastFilters,
} from "@/lib/ui/forecast-filters";
import { offersProject } from "@/lib/ui/permissions";
import { projectsQuery } from "@/lib/client/queries";
import { ForecastChart } from "./forecast-chart";
import { RiskTile } from "./forecast-risk";
import { ForecastTable } from "./forecast-table";
import { useForecast } from "./use-forecast";

/** Rows shown at first, and added by "Show more". */
const PAGE = 100;

export function ForecastPage() {
  const [filters, replaceFilters] = useUrlFilters(parseForecastFilters, forecastSearch);
  // Each change applies to the latest filters, so two quick changes both reach the URL.
  const setFilters = (change: Partial<ForecastFilters>) => replaceFilters((f) => ({ ...f, ...change }));

  const now = useNow(30_000);
  // The list grows a page at a time, and starts over when the filters change: the limit belongs
  // to the filters it was raised under. The server answers the first `limit` updates and the
  // counts of all of them.
  const filterKey = forecastSearch({ ...filters, by: "day" });
  const [raised, setRaised] = useState({ filterKey, limit: PAGE });
  const limit = raised.filterKey === filterKey ? raised.limit : PAGE;
  const forecast = useForecast(forecastApiPath(filters, limit));
  const projects = useQuery(projectsQuery);
  const profiles = useCloudProfiles();

  const summary = forecast.data?.summary;
  const from = forecast.data ? Date.parse(forecast.data.from) : undefined;
  const to = forecast.data ? Date.parse(forecast.data.to) : undefined;
  const buckets = useMemo(
    () => (summary && from !== undefined && to !== undefined ? bucketDays(summary.days, from, to, filters.by) : []),
    [summary, from, to, filters.by],
  );
  const groups = useMemo(() => groupItems(forecast.data?.items ?? [], filters.by), [forecast.data, filters.by]);
  const shownCount = forecast.data?.items.length ?? 0;
  const total = forecast.data?.total ?? shownCount;

  // A caller with roles on some projects only is offered those (the server refuses the others).
  const readable = useReadableProjects();
  const namespaceOptions = (projects.data?.items ?? [])
    .filter((p) => p.spec.namespace)
    .filter((p) => offersProject(readable, p.metadata.name))
    .map((p) => ({ value: p.spec.namespace!, label: `${p.metadata.name} (${p.spec.namespace})` }))
    .sort((a, b) => a.label.localeCompare(b.label));
  if (filters.namespace && !namespaceOptions.some((o) => o.value === filters.namespace))
    namespaceOptions.push({ value: filters.namespace, label: filters.namespace });
  const profileOptions = (profiles.data?.items ?? []).map((p) => ({ value: p.metadata.name, label: p.metadata.name }));
  if (filters.cloudProfile && !profileOptions.some((o) => o.value === filters.cloudProfile))
    profileOptions.push({ value: filters.cloudProfile, label: filters.cloudProfile });

  const jumpTo = (start: number) =>
    document.getElementById(`group-${start}`)?.scrollIntoView({ behavior: "smooth", block: "start" });

  return (
    <div>
      <PageHeader
        title="Forecast"
        description="Every update the maintenance controller will force because a version expires, in each shoot's maintenance window, and the clusters that will be stuck because no version qualifies."
        actions={
          <DownloadLinks
            what="the forced updates these filters select"
            url={(format) => forecastExportUrl(filters, format)}
          />
        }
      />
      <ScopeNote subject="forced updates" />
      <div
        className="mb-5 flex flex-wrap items-end gap-x-5 gap-y-3 rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm"
        role="search"
        aria-label="Forecast filters"
      >
        <SegmentedControl
          label="Horizon"
          value={filters.days}
          onChange={(days) => setFilters({ days })}
          options={HORIZONS.map((d) => ({ value: d, label: `${d} days` }))}
        />
        <SegmentedControl
          label="Group by"
          value={filters.by}
          onChange={(by) => setFilters({ by })}
          options={[
            { value: "day", label: "Day" },
            { value: "week", label: "Week" },
          ]}
        />
        <SelectFilter
          label="Project"
          value={filters.namespace}
          onChange={(namespace) => setFilters({ namespace })}
          options={namespaceOptions}
          allLabel="All projects"
        />
        <SelectFilter
          label="Cloud profile"
          value={filters.cloudProfile}
          onChange={(cloudProfile) => setFilters({ cloudProfile })}
          options={profileOptions}
          allLabel="All profiles"
        />
        <SelectFilter
          label="Kind"
          value={filters.kind}
          onChange={(kind) => setFilters({ kind: kind as ForecastFilters["kind"] })}
          allLabel="Both kinds"
          options={[
            { value: "kubernetes", label: "Kubernetes" },
            { value: "machineImage", label: "Machine image" },
          ]}
        />
        <CheckboxFilter
          label="Stuck only"
          checked={filters.stuck}
          onChange={(stuck) => setFilters({ stuck })}
          hint="Only updates that cannot happen because the cloud profile offers no version to move to"
        />
        <CheckboxFilter
          label="At risk only"
          checked={filters.atRisk}
          onChange={(atRisk) => setFilters({ atRisk })}
          hint="Only updates whose shoot's record speaks against them: failed maintenance, a failed operation, a False maintenance precondition, hibernation or deletion"
        />
        {narrowsForecast(filters) && (
          <Button variant="ghost" onClick={() => replaceFilters(withoutNarrowing)} className="self-end">
            Clear filters
          </Button>
        )}
        {forecast.isFetching && !forecast.isPending && (
          <span
            className="ml-auto inline-flex items-center gap-1.5 self-end pb-1.5 text-xs text-slate-500"
            role="status"
          >
            <Loader2 aria-hidden className="size-3.5 animate-spin" />
            Updating
          </span>
        )}
      </div>

      {forecast.isPending ? (
        <div className="space-y-6">
          <Skeleton className="h-64 w-full" />
          <LoadingBlock label="Computing the forecast" lines={8} />
        </div>
      ) : forecast.error || !forecast.data ? (
        <ErrorState
          title="The forecast could not be computed"
          error={forecast.error}
          onRetry={() => void forecast.refetch()}
        />
      ) : (
        <div className="space-y-6">
          {(forecast.data.problems?.length ?? 0) > 0 && <Problems problems={forecast.data.problems!} />}
          {summary && (
            <>
              <Summary summary={summary} days={filters.days} buckets={buckets} grouping={filters.by} />
              <RiskTile risk={summary.risk} active={filters.atRisk} onToggle={(atRisk) => setFilters({ atRisk })} />
            </>
          )}
          <Panel id="forecast-chart" title={`Forced updates per ${filters.by}`}>
            <ForecastChart buckets={buckets} grouping={filters.by} onSelect={jumpTo} />
          </Panel>
          {total === 0 ? (
            <EmptyState
              title={
                narrowsForecast(filters)
                  ? "No forced updates match these filters"
                  : `No forced updates in the next ${filters.days} days`
              }
              action={
                narrowsForecast(filters) ? (
                  <Button onClick={() => replaceFilters(withoutNarrowing)}>Reset filters</Button>
                ) : undefined
              }
            >
              {narrowsForecast(filters)
                ? "Other shoots are forced in this period; clear the filters to see them."
                : "Every shoot runs versions that stay valid for this period."}
            </EmptyState>
          ) : (
            <div className="space-y-3">
              <ForecastTable
                caption="Forced updates"
                now={now}
                showProfile
                groups={groups.map((g) => ({
                  id: String(g.start),
                  title: bucketTitle(g.start, filters.by),
                  items: g.items,
                  total: buckets.find((b) => b.start === g.start)?.total,
                }))}
              />
              {total > shownCount && (
                <div className="flex items-center justify-between text-sm text-slate-600">
                  <span>
                    {shownCount} of {total} updates shown.
                  </span>
                  <Button onClick={() => setRaised({ filterKey, limit: limit + PAGE })} disabled={forecast.isFetching}>
                    {forecast.isFetching ? "Loading" : `Show ${Math.min(PAGE, total - shownCount)} more`}
                  </Button>
                </div>
              )}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

function Summary({
  summary,
  days,
  buckets,
  grouping,
}: {
  summary: ForecastSummary;
  days: number;
  buckets: readonly Bucket[];
  grouping: "day" | "week";
}) {
  // Rollouts held for a window are updates too, but not forced ones: counted apart.
  const { forced, forcedShoots: shoots, held, heldShoots, stuck, stuckShoots } = summary;
  const busiest = buckets.reduce<Bucket | undefined>((best, b) => (b.total > (best?.total ?? 0) ? b : best), undefined);
  return (
    <p className="text-sm text-slate-700" aria-live="polite">
      <strong className="text-slate-900">{forced}</strong> forced {forced === 1 ? "update" : "updates"} on{" "}
      <strong className="text-slate-900">{shoots}</strong> {shoots === 1 ? "shoot" : "shoots"} in the next {days} days
      {stuck > 0 ? (
        <>
          ;{" "}
          <strong className="text-red-800">
            {stuckShoots} {stuckShoots === 1 ? "cluster" : "clusters"}
          </strong>{" "}
          will be stuck ({stuck} {stuck === 1 ? "update" : "updates"} with no version to move to).
        </>
      ) : (
        "; none will be stuck."
      )}
      {held > 0 && (
        <span data-testid="held-rollouts">
          {" "}
          Also <strong className="text-slate-900">{held}</strong> held {held === 1 ? "rollout" : "rollouts"} on{" "}
          {heldShoots} {heldShoots === 1 ? "shoot" : "shoots"}: asked in the spec, rolled out in the next window
          (confineSpecUpdateRollout).
        </span>
      )}
      {busiest && (
        <>
          {" "}
          Busiest {grouping}: {bucketTitle(busiest.start, grouping)} with {busiest.total}.
        </>
      )}
      {summary.forcedInFreezes !== undefined && summary.forcedInFreezes > 0 && (
        <span data-testid="forced-in-freezes">
          {" "}
          <strong className="text-slate-900">{summary.forcedInFreezes}</strong> of them fall inside a{" "}
          <Link href="/freezes" className="text-accent-700 underline">
            freeze
          </Link>
          : Gardener forces them anyway, so move those clusters before it (update or maintain them now, or change their
          window).
        </span>
      )}
    </p>
  );
}

function Problems({ problems }: { problems: readonly { namespace: string; name: string; problem: string }[] }) {
  return (
    <div role="note" className="flex gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
      <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-600" />
      <div>
        <p className="font-medium">
          {problems.length} {problems.length === 1 ? "shoot" : "shoots"} could not be forecast
        </p>
        <ul className="mt-1 space-y-0.5">
          {problems.slice(0, 10).map((p) => (
            <li key={`${p.namespace}/${p.name}`}>
              {p.namespace}/{p.name}: {p.problem}
            </li>
          ))}
          {problems.length > 10 && <li>and {problems.length - 10} more</li>}
        </ul>
      </div>
    </div>
  );
}

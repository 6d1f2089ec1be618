"use client";

// /cloudprofiles/{name}: what the profile offers over time and what that means for the fleet.
// Kubernetes timeline first (what is supported when), then the impact (which shoots will be
// forced, when, to what; the stuck ones first), then the machine images.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ChevronRight } from "lucide-react";
import { useMemo, useState, type ReactNode } from "react";
import { useForecast } from "@/components/forecast/use-forecast";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { ErrorState, LoadingBlock, Skeleton } from "@/components/ui/states";
import { useNow } from "@/components/ui/time";
import { HOUR_MS, MINUTE_MS } from "@/lib/engine/time-units";
import { RequestError } from "@/lib/ui/api";
import { formatDate } from "@/lib/ui/time";
import { kubernetesTimeline, timelineRange } from "@/lib/ui/profile-timeline";
import { profileOverview } from "@/lib/ui/profile-usage";
import { cloudProfileQuery } from "@/lib/client/queries";
import { KubernetesTimeline } from "./kubernetes-timeline";
import { MachineImages } from "./machine-images";
import { NamespacedProfilesList } from "./namespaced-profiles";
import { ProfileImpact } from "./profile-impact";
import { useProfileUsage } from "./use-cloud-profiles";

const IMPACT_DAYS = 365;
/** Updates listed at first, added by each "Show more", and stuck ones listed at most. */
const IMPACT_PAGE = 25;
const IMPACT_MORE = 100;
const STUCK_SHOWN = 50;

export function CloudProfileDetail({ name }: { name: string }) {
  const now = useNow(MINUTE_MS);
  const profileQuery = useQuery(cloudProfileQuery(name));
  const usageQuery = useProfileUsage(name);
  // The impact: the summary, the timeline's markers and a page of updates; the stuck ones apart.
  const [impactLimit, setImpactLimit] = useState(IMPACT_PAGE);
  const profileForecast = `/forecast?days=${IMPACT_DAYS}&cloudProfile=${encodeURIComponent(name)}`;
  const forecastQuery = useForecast(`${profileForecast}&limit=${impactLimit}&summary=true&markers=true`);
  const stuckQuery = useForecast(`${profileForecast}&stuck=true&limit=${STUCK_SHOWN}`);
  const profile = profileQuery.data;

  const kubernetes = profile?.spec.kubernetes?.versions;
  // The range and rows move only when the profile changes, not with every tick of the clock.
  const hour = Math.floor(now / HOUR_MS);
  const timeline = useMemo(() => {
    if (!kubernetes) return undefined;
    const at = hour * HOUR_MS;
    const range = timelineRange(kubernetes, at);
    return { range, rows: kubernetesTimeline(kubernetes, range, at) };
  }, [kubernetes, hour]);
  const usage = usageQuery.data;
  const summary = forecastQuery.data?.summary;

  const crumbs = (
    <nav aria-label="Breadcrumb" className="flex items-center gap-1">
      <Link href="/cloudprofiles" className="hover:text-slate-900 hover:underline">
        Cloud profiles
      </Link>
      <ChevronRight aria-hidden className="size-3.5" />
    </nav>
  );

  if (profileQuery.isPending) {
    return (
      <div>
        <PageHeader eyebrow={crumbs} title={name} />
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-20" />
          ))}
        </div>
        <div className="mt-6">
          <LoadingBlock label="Loading the cloud profile" lines={10} />
        </div>
      </div>
    );
  }
  if (profileQuery.error || !profile || !timeline) {
    const missing = profileQuery.error instanceof RequestError && profileQuery.error.status === 404;
    return (
      <div>
        <PageHeader eyebrow={crumbs} title={name} />
        <ErrorState
          title={missing ? `There is no cloud profile named "${name}"` : "The cloud profile could not be loaded"}
          error={profileQuery.error}
          onRetry={missing ? undefined : () => void profileQuery.refetch()}
        />
      </div>
    );
  }

  const overview = profileOverview(profile, now);
  const stuck = summary?.stuck ?? 0;
  const shootsLink = `/shoots?cloudProfile=${encodeURIComponent(name)}`;
  return (
    <div>
      <PageHeader
        eyebrow={crumbs}
        title={name}
        description={`Provider ${overview.providerType}${profile.spec.regions ? ` in ${profile.spec.regions.length} regions` : ""}: ${overview.kubernetesVersions} Kubernetes versions and ${overview.machineImages} machine images with ${overview.machineImageVersions} versions.`}
        actions={
          <>
            <Link
              href={shootsLink}
              className="rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600"
            >
              Shoots on {name}
            </Link>
            <Link
              href={`/forecast?days=365&cloudProfile=${encodeURIComponent(name)}`}
              className="rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600"
            >
              Forecast
            </Link>
          </>
        }
      />
      <dl className="mb-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Tile
          label="Kubernetes versions"
          value={overview.kubernetesVersions}
          note={`${overview.kubernetesByClassification.supported} supported, ${overview.kubernetesByClassification.deprecated} deprecated, ${overview.kubernetesByClassification.preview} preview, ${overview.kubernetesByClassification.expired} expired`}
        />
        <Tile
          label="Versions expiring within 30 days"
          value={overview.expiringSoon.length}
          tone={overview.expiringSoon.length > 0 ? "amber" : undefined}
          note={
            overview.expiringSoon.length > 0
              ? `Next: ${overview.expiringSoon[0].what} ${overview.expiringSoon[0].version} on ${formatDate(overview.expiringSoon[0].expiresAt)}`
              : "Kubernetes and machine images"
          }
        />
        <Tile
          label="Shoots on this profile"
          value={usage?.shoots}
          error={usageQuery.error}
          note={
            <Link href={shootsLink} className="text-accent-700 hover:underline">
              Open in the fleet
            </Link>
          }
        />
        <Tile
          label={`Forced updates in ${IMPACT_DAYS} days`}
          value={summary?.updates}
          error={forecastQuery.error}
          tone={stuck > 0 ? "red" : undefined}
          note={
            summary
              ? stuck > 0
                ? `${stuck} of them cannot happen: a cluster stays stuck`
                : "None leaves a cluster stuck"
              : undefined
          }
        />
      </dl>
      <div className="space-y-6">
        <Panel id="timeline" title="Kubernetes versions over time">
          {usageQuery.error ? (
            <p className="mb-3 text-xs text-red-700">
              The shoot counts could not be loaded: {(usageQuery.error as Error).message}
            </p>
          ) : null}
          <KubernetesTimeline
            rows={timeline.rows}
            range={timeline.range}
            now={now}
            usage={usage}
            forecast={forecastQuery.data?.markers}
            versions={kubernetes ?? []}
          />
        </Panel>
        <Panel id="impact" title={`Impact: forced updates in the next ${IMPACT_DAYS} days`}>
          <ProfileImpact
            profile={name}
            days={IMPACT_DAYS}
            forecast={forecastQuery.data}
            stuckItems={stuckQuery.data?.items}
            error={forecastQuery.error ?? stuckQuery.error}
            isPending={forecastQuery.isPending}
            isFetching={forecastQuery.isFetching}
            onMore={() => setImpactLimit((l) => l + IMPACT_MORE)}
            onRetry={() => void Promise.all([forecastQuery.refetch(), stuckQuery.refetch()])}
            now={now}
          />
        </Panel>
        <Panel id="images" title="Machine images">
          <MachineImages images={profile.spec.machineImages ?? []} now={now} usage={usage} />
        </Panel>
        <Panel id="namespaced" title="Namespaced cloud profiles extending it">
          <NamespacedProfilesList parent={name} />
        </Panel>
      </div>
    </div>
  );
}

function Tile({
  label,
  value,
  note,
  tone,
  error,
}: {
  label: string;
  value: number | undefined;
  note?: ReactNode;
  tone?: "amber" | "red";
  error?: unknown;
}) {
  const colour = tone === "red" ? "text-red-700" : tone === "amber" ? "text-amber-800" : "text-slate-900";
  return (
    <div className="rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm">
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className={`mt-1 text-2xl font-semibold tabular-nums ${colour}`}>
        {value !== undefined ? (
          value
        ) : error ? (
          <span className="text-sm font-normal text-red-700">not loaded</span>
        ) : (
          <Skeleton className="h-7 w-12" />
        )}
      </dd>
      {note && <dd className="mt-0.5 text-xs text-slate-600">{note}</dd>}
    </div>
  );
}

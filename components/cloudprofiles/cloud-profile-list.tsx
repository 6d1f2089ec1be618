"use client";

// /cloudprofiles: every cloud profile with what it offers (Kubernetes versions, machine images),
// what expires within 30 days, and how many shoots use it, each linking to its timeline.
import Link from "next/link";
import { useQueries } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { AlertTriangle, ChevronRight, Clock } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState, ErrorState, Skeleton } from "@/components/ui/states";
import { toneIcon } from "@/components/ui/status-badges";
import { RelativeTime, useNow } from "@/components/ui/time";
import { MINUTE_MS } from "@/lib/engine/time-units";
import type { CloudProfile, FleetSummary } from "@/lib/ui/api-types";
import { cloudProfilePage } from "@/lib/ui/page-links";
import { profileOverview, type ProfileOverview } from "@/lib/ui/profile-usage";
import { fleetSummaryQuery } from "@/lib/client/queries";
import { CLASSIFICATION_META, CLASSIFICATIONS } from "@/lib/ui/status";
import { formatDate } from "@/lib/ui/time";
import { NamespacedProfilesLine } from "./namespaced-profiles";
import { useCloudProfiles } from "./use-cloud-profiles";

const HORIZON_DAYS = 30;

export function CloudProfileList() {
  const { data, error, isPending, refetch } = useCloudProfiles();
  const now = useNow(MINUTE_MS);
  const profiles = [...(data?.items ?? [])].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  const summaries = useQueries({
    queries: profiles.map((p) => fleetSummaryQuery(`cloudProfile=${encodeURIComponent(p.metadata.name)}`)),
  });

  return (
    <div>
      <PageHeader
        title="Cloud profiles"
        description="What each cloud profile offers: Kubernetes versions and machine images with their classification and expiration dates. Versions that expire force an update in each shoot's next maintenance window."
      />
      {isPending ? (
        <TableSkeleton />
      ) : error ? (
        <ErrorState title="The cloud profiles could not be loaded" error={error} onRetry={() => void refetch()} />
      ) : profiles.length === 0 ? (
        <EmptyState title="No cloud profiles">
          The garden has no cloud profiles yet; shoots cannot be created without one.
        </EmptyState>
      ) : (
        // Below lg each profile is a card: its cells, each with its heading, one below the other on a
        // phone and two side by side from sm up.
        <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
          <table className="w-full text-left text-sm max-lg:block">
            <caption className="sr-only">Cloud profiles</caption>
            <thead className="max-lg:sr-only border-b border-slate-200 bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-2.5">
                  Cloud profile
                </th>
                <th scope="col" className="px-4 py-2.5">
                  Kubernetes versions
                </th>
                <th scope="col" className="px-4 py-2.5">
                  Machine images
                </th>
                <th scope="col" className="w-[26rem] px-4 py-2.5">
                  Expiring within {HORIZON_DAYS} days
                </th>
                <th scope="col" className="px-4 py-2.5 text-right">
                  Shoots
                </th>
                <th scope="col" className="px-4 py-2.5">
                  <span className="sr-only">Open</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 max-lg:block">
              {profiles.map((p, i) => (
                <ProfileRow
                  key={p.metadata.name}
                  profile={p}
                  overview={profileOverview(p, now, HORIZON_DAYS)}
                  summary={summaries[i]}
                  now={now}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function ProfileRow({
  profile,
  overview,
  summary,
  now,
}: {
  profile: CloudProfile;
  overview: ProfileOverview;
  summary: { data?: FleetSummary; isPending: boolean; error: unknown };
  now: number;
}) {
  const href = cloudProfilePage(profile.metadata.name);
  const images = profile.spec.machineImages ?? [];
  return (
    <tr className="group align-top hover:bg-slate-50 max-lg:grid max-lg:py-2 sm:max-lg:grid-cols-2">
      <td className={CELL}>
        <Link
          href={href}
          className="font-semibold text-slate-900 hover:text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          {profile.metadata.name}
        </Link>
        <div className="mt-0.5 text-xs text-slate-500">
          Provider <span className="font-medium text-slate-700">{overview.providerType}</span>
          {profile.spec.regions && <> · {profile.spec.regions.length} regions</>}
        </div>
        <NamespacedProfilesLine parent={profile.metadata.name} />
      </td>
      <td className={CELL}>
        <CardLabel>Kubernetes versions</CardLabel>
        <div className="font-medium tabular-nums text-slate-900">{overview.kubernetesVersions}</div>
        <div className="mt-1 flex flex-wrap gap-1">
          {CLASSIFICATIONS.filter((c) => overview.kubernetesByClassification[c] > 0).map((c) => (
            <Badge
              key={c}
              tone={CLASSIFICATION_META[c].tone}
              icon={toneIcon(CLASSIFICATION_META[c].tone)}
              title={CLASSIFICATION_META[c].hint}
            >
              {overview.kubernetesByClassification[c]} {CLASSIFICATION_META[c].word.toLowerCase()}
            </Badge>
          ))}
        </div>
      </td>
      <td className={CELL}>
        <CardLabel>Machine images</CardLabel>
        <div className="text-slate-900">
          <span className="font-medium tabular-nums">{overview.machineImages}</span> images,{" "}
          <span className="tabular-nums">{overview.machineImageVersions}</span> versions
        </div>
        <div className="mt-0.5 text-xs text-slate-500">{images.map((m) => m.name).join(", ") || "none"}</div>
      </td>
      <td className={CELL}>
        <CardLabel>Expiring within {HORIZON_DAYS} days</CardLabel>
        {overview.expiringSoon.length === 0 ? (
          <span className="text-slate-500">None</span>
        ) : (
          <div>
            <Badge tone="amber" icon={<AlertTriangle aria-hidden className="size-3.5" />}>
              {overview.expiringSoon.length} {overview.expiringSoon.length === 1 ? "version" : "versions"}
            </Badge>
            <ul className="mt-1.5 space-y-0.5 text-xs text-slate-600">
              {overview.expiringSoon.slice(0, 3).map((e) => (
                <li key={`${e.what}@${e.version}`} className="flex gap-3">
                  <span className="min-w-0 flex-1 truncate">
                    {e.what} <span className="font-mono text-slate-800">{e.version}</span>
                  </span>
                  <span className="whitespace-nowrap">
                    {formatDate(e.expiresAt)}, <RelativeTime at={e.expiresAt} now={now} />
                  </span>
                </li>
              ))}
              {overview.expiringSoon.length > 3 && <li>and {overview.expiringSoon.length - 3} more</li>}
            </ul>
          </div>
        )}
        {overview.expired > 0 && (
          <div className="mt-1 inline-flex items-center gap-1 text-xs text-slate-500">
            <Clock aria-hidden className="size-3.5" />
            {overview.expired} already expired
          </div>
        )}
      </td>
      <td className={`${CELL} lg:text-right`}>
        <CardLabel>Shoots</CardLabel>
        {summary.isPending ? (
          <Skeleton className="h-4 w-10 lg:ml-auto" />
        ) : summary.error || !summary.data ? (
          <span
            className="text-xs text-red-700"
            title={summary.error instanceof Error ? summary.error.message : undefined}
          >
            not loaded
          </span>
        ) : (
          <div>
            <Link
              href={`/shoots?cloudProfile=${encodeURIComponent(profile.metadata.name)}`}
              className="inline-block min-w-6 py-0.5 font-medium tabular-nums text-slate-900 hover:text-accent-700 hover:underline"
            >
              {summary.data.total}
            </Link>
            {summary.data.expiringWithinDays["30"] > 0 && (
              <div className="text-xs text-amber-800">
                {/* 24 px tall: on a phone the two links stack, and each needs room to be tapped. */}
                <Link
                  href={`/shoots?cloudProfile=${encodeURIComponent(profile.metadata.name)}&expiringWithinDays=30`}
                  className="inline-block py-1 hover:underline"
                >
                  {summary.data.expiringWithinDays["30"]} on versions expired or expiring within 30 days
                </Link>
              </div>
            )}
          </div>
        )}
      </td>
      <td className={`${CELL} lg:text-right`}>
        <Link
          href={href}
          aria-label={`Open the timeline of ${profile.metadata.name}`}
          className="inline-flex items-center gap-0.5 whitespace-nowrap rounded-md px-2 py-1 text-sm font-medium text-accent-700 hover:bg-accent-50 focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          Timeline <ChevronRight aria-hidden className="size-4" />
        </Link>
      </td>
    </tr>
  );
}

/** A cell of the table, or from below lg a line of a card. */
const CELL = "px-4 py-3 max-lg:block max-lg:py-1.5";

/** A cell's column heading inside a card (the table's header row is hidden there). */
function CardLabel({ children }: { children: ReactNode }) {
  return (
    <div aria-hidden className="mb-0.5 text-xs font-medium text-slate-500 lg:hidden">
      {children}
    </div>
  );
}

function TableSkeleton() {
  return (
    <div
      role="status"
      aria-live="polite"
      className="space-y-3 overflow-hidden rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <span className="sr-only">Loading the cloud profiles</span>
      {Array.from({ length: 3 }, (_, i) => (
        <div key={i} className="flex gap-6">
          <Skeleton className="h-10 w-40" />
          <Skeleton className="h-10 w-48" />
          <Skeleton className="h-10 w-48" />
          <Skeleton className="h-10 flex-1" />
          <Skeleton className="h-10 w-16" />
        </div>
      ))}
    </div>
  );
}

"use client";

// /namespacedcloudprofiles/{ns}/{name}: a project's extension of a cloud profile. What it changes
// is set against its parent, version by version (later or earlier expiry, versions of its own),
// from the merged spec Gardener wrote to its status, which its shoots are read against.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, CalendarMinus, CalendarPlus, ChevronRight, Plus } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { EmptyState, ErrorState, LoadingBlock } from "@/components/ui/states";
import { toneIcon } from "@/components/ui/status-badges";
import { RelativeTime, useNow } from "@/components/ui/time";
import { MINUTE_MS } from "@/lib/engine/time-units";
import { RequestError } from "@/lib/ui/api";
import { isResolved, namespacedOverrides, type VersionOverride, type VersionSide } from "@/lib/ui/namespaced-profile";
import { cloudProfilePage } from "@/lib/ui/page-links";
import { cloudProfileQuery, namespacedCloudProfileQuery } from "@/lib/client/queries";
import { CLASSIFICATION_META } from "@/lib/ui/status";
import { formatDate } from "@/lib/ui/time";

export function NamespacedProfileDetail({ namespace, name }: { namespace: string; name: string }) {
  const now = useNow(MINUTE_MS);
  const query = useQuery(namespacedCloudProfileQuery(namespace, name));
  const parentName = query.data?.spec.parent?.name ?? "";
  const parent = useQuery(cloudProfileQuery(parentName));
  const crumbs = (
    <nav aria-label="Breadcrumb" className="flex flex-wrap items-center gap-1">
      <Link href="/cloudprofiles" className="hover:text-slate-900 hover:underline">
        Cloud profiles
      </Link>
      <ChevronRight aria-hidden className="size-3.5" />
      {parentName && (
        <>
          <Link href={cloudProfilePage(parentName)} className="hover:text-slate-900 hover:underline">
            {parentName}
          </Link>
          <ChevronRight aria-hidden className="size-3.5" />
        </>
      )}
    </nav>
  );
  if (query.isPending)
    return (
      <div>
        <PageHeader eyebrow={crumbs} title={name} />
        <LoadingBlock label="Loading the namespaced cloud profile" lines={8} />
      </div>
    );
  if (query.error) {
    const missing = query.error instanceof RequestError && query.error.status === 404;
    return (
      <div>
        <PageHeader eyebrow={crumbs} title={name} />
        <ErrorState
          title={
            missing
              ? `There is no namespaced cloud profile "${name}" in ${namespace}`
              : "The namespaced cloud profile could not be loaded"
          }
          error={query.error}
          onRetry={missing ? undefined : () => void query.refetch()}
        />
      </div>
    );
  }
  const profile = query.data;
  const rows = namespacedOverrides(profile, parent.data, now);
  // The fleet search finds a shoot by the name of the namespaced profile it names.
  const shoots = `/shoots?namespace=${encodeURIComponent(namespace)}&q=${encodeURIComponent(name)}`;
  return (
    <div>
      <PageHeader
        eyebrow={crumbs}
        title={name}
        description={
          <>
            Project namespace <span className="font-medium text-slate-800">{namespace}</span>&apos;s extension of the
            cloud profile{" "}
            <Link href={cloudProfilePage(parentName)} className="font-medium text-accent-700 hover:underline">
              {parentName}
            </Link>
            . Shoots that name it are read against the merged profile Gardener writes to its status: their versions
            expire and are forced to update on its dates, not the parent&apos;s.
          </>
        }
        actions={
          <Link
            href={shoots}
            className="rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            Shoots in {namespace}
          </Link>
        }
      />
      {!isResolved(profile) && (
        <div
          role="status"
          className="mb-4 flex gap-2 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
          <p>
            Gardener has not resolved this profile yet (it has no status.cloudProfileSpec). Until it does, its shoots
            have no profile to be checked against: changes to them are refused and their expiry is unknown. The versions
            below are the profile&apos;s own spec.
          </p>
        </div>
      )}
      <Panel id="overrides" title={`What it changes against ${parentName}`}>
        {rows.length === 0 ? (
          <EmptyState title="No versions of its own">
            It names no Kubernetes or machine image version: its shoots see exactly what {parentName} offers.
          </EmptyState>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Versions the namespaced profile names, against its parent</caption>
              <thead className="border-b border-slate-200 text-xs font-medium uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    Version
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    In {parentName}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    In {name}
                  </th>
                  <th scope="col" className="py-2">
                    Change
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((row) => (
                  <OverrideRow key={`${row.what}@${row.version}`} row={row} now={now} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
    </div>
  );
}

function OverrideRow({ row, now }: { row: VersionOverride; now: number }) {
  return (
    <tr className="align-top">
      <th scope="row" className="py-2 pr-4 font-normal">
        <span className="text-slate-600">{row.what}</span>{" "}
        <span className="font-mono font-medium text-slate-900">{row.version}</span>
      </th>
      <td className="py-2 pr-4">
        {row.parent ? <Side side={row.parent} now={now} /> : <span className="text-slate-500">not offered</span>}
      </td>
      <td className="py-2 pr-4">
        <Side side={row.own} now={now} />
      </td>
      <td className="py-2 whitespace-nowrap">
        <Change row={row} />
      </td>
    </tr>
  );
}

function Side({ side, now }: { side: VersionSide; now: number }) {
  const meta = side.classification === "unavailable" ? undefined : CLASSIFICATION_META[side.classification];
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
      {meta ? (
        <Badge tone={meta.tone} icon={toneIcon(meta.tone)} title={meta.hint}>
          {meta.word}
        </Badge>
      ) : (
        <Badge tone="grey">Not yet available</Badge>
      )}
      <span className="text-xs text-slate-600">
        {side.expiresAt === undefined ? (
          "never expires"
        ) : (
          <>
            expires {formatDate(side.expiresAt)}, <RelativeTime at={side.expiresAt} now={now} />
          </>
        )}
      </span>
    </div>
  );
}

function Change({ row }: { row: VersionOverride }) {
  if (row.change === "added")
    return (
      <Badge tone="blue" icon={<Plus aria-hidden className="size-3.5" />}>
        Added by the project
      </Badge>
    );
  if (row.change === "same") return <span className="text-xs text-slate-500">Same as the parent</span>;
  const words =
    row.days !== undefined
      ? `${Math.abs(row.days)} ${Math.abs(row.days) === 1 ? "day" : "days"} ${row.change === "extended" ? "later" : "earlier"}`
      : row.change === "extended"
        ? "Never expires here"
        : "Expires here";
  return row.change === "extended" ? (
    <Badge tone="green" icon={<CalendarPlus aria-hidden className="size-3.5" />}>
      {words}
    </Badge>
  ) : (
    <Badge tone="amber" icon={<CalendarMinus aria-hidden className="size-3.5" />}>
      {words}
    </Badge>
  );
}

"use client";

// What the profile's expiration dates will do to the fleet: every forced update of a shoot on this
// profile in the coming year (from the engine's forecast, counted by the server, the first
// updates listed a page at a time), the stuck clusters first.
import Link from "next/link";
import { XCircle } from "lucide-react";
import { ForecastTable } from "@/components/forecast/forecast-table";
import { Button } from "@/components/ui/button";
import { EmptyState, ErrorState, LoadingBlock } from "@/components/ui/states";
import type { ForecastAnswer, ForecastItem } from "@/lib/ui/api-types";
import { changeText, targetText } from "@/lib/ui/forecast-text";
import { shootPage } from "@/lib/ui/page-links";
import { formatBoth, formatDate } from "@/lib/ui/time";

export function ProfileImpact({
  profile,
  days,
  forecast,
  stuckItems,
  error,
  isPending,
  isFetching,
  onMore,
  onRetry,
  now,
}: {
  profile: string;
  days: number;
  /** The profile's forecast: the first updates, and the summary of all. */
  forecast: ForecastAnswer | undefined;
  /** The first stuck updates. */
  stuckItems: readonly ForecastItem[] | undefined;
  error: unknown;
  isPending: boolean;
  isFetching: boolean;
  onMore: () => void;
  onRetry: () => void;
  now: number;
}) {
  if (isPending) return <LoadingBlock label="Computing the forecast" lines={5} />;
  if (error || !forecast?.summary)
    return <ErrorState title="The forecast could not be computed" error={error} onRetry={onRetry} />;
  const { summary, items } = forecast;
  if (summary.updates === 0) {
    return (
      <EmptyState title={`No forced updates in the next ${days} days`}>
        No shoot on {profile} runs a version that expires before then.
      </EmptyState>
    );
  }
  const stuck = stuckItems ?? [];
  const forecastLink = `/forecast?days=365&cloudProfile=${encodeURIComponent(profile)}`;
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        In the next {days} days, <strong>{summary.updates}</strong> forced{" "}
        {summary.updates === 1 ? "update touches" : "updates touch"} <strong>{summary.forcedShoots}</strong>{" "}
        {summary.forcedShoots === 1 ? "shoot" : "shoots"} on {profile}, each in its own maintenance window
        {summary.stuck > 0 ? (
          <>
            ; <strong className="text-red-800">{summary.stuck}</strong> of them cannot happen and leave{" "}
            <strong className="text-red-800">{summary.stuckShoots}</strong>{" "}
            {summary.stuckShoots === 1 ? "cluster" : "clusters"} stuck on an expired version.
          </>
        ) : (
          "."
        )}{" "}
        <Link href={forecastLink} className="font-medium text-accent-700 hover:underline">
          Open in the forecast
        </Link>
      </p>
      {summary.stuck > 0 && (
        <div
          role="note"
          aria-label="Stuck clusters"
          className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900"
        >
          <p className="flex items-center gap-2 font-semibold">
            <XCircle aria-hidden className="size-4 text-red-600" />
            Clusters that will be stuck
          </p>
          <p className="mt-1 text-red-800">
            Their version expires and the profile offers nothing they may move to, so maintenance fails until the
            profile gains a version or the image changes.
          </p>
          <ul className="mt-2 space-y-1">
            {stuck.map((i) => (
              <li key={`${i.namespace}/${i.name}/${i.worker ?? ""}/${i.kind}`}>
                <Link href={shootPage(i.namespace, i.name)} className="font-medium underline-offset-2 hover:underline">
                  {i.namespace}/{i.name}
                </Link>{" "}
                · {targetText(i)}: {changeText(i)} from <span title={formatBoth(i.at)}>{formatDate(i.at)}</span>
              </li>
            ))}
            {summary.stuck > stuck.length && (
              <li>
                and {summary.stuck - stuck.length} more:{" "}
                <Link href={`${forecastLink}&stuck=true`} className="font-medium underline-offset-2 hover:underline">
                  every stuck update in the forecast
                </Link>
              </li>
            )}
          </ul>
        </div>
      )}
      <ForecastTable
        groups={[{ id: "all", title: "", items }]}
        now={now}
        caption={`Forced updates of shoots on ${profile}`}
      />
      {summary.updates > items.length && (
        <div className="flex items-center justify-between text-sm text-slate-600">
          <span>
            {items.length} of {summary.updates} updates shown.
          </span>
          <Button onClick={onMore} disabled={isFetching}>
            {isFetching ? "Loading" : `Show ${Math.min(100, summary.updates - items.length)} more`}
          </Button>
        </div>
      )}
    </div>
  );
}

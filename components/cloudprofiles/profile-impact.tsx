"use client";

// What the profile's expiration dates will do to the fleet: every forced update of a shoot on this
// profile in the coming year (from the engine's forecast), the stuck clusters first.
import Link from "next/link";
import { XCircle } from "lucide-react";
import { useState } from "react";
import { ForecastTable } from "@/components/forecast/forecast-table";
import { Button } from "@/components/ui/button";
import { EmptyState, ErrorState, LoadingBlock } from "@/components/ui/states";
import type { ForecastItem } from "@/lib/ui/api-types";
import { changeText, targetText } from "@/lib/ui/forecast-text";
import { shootPage } from "@/lib/ui/page-links";
import { formatBoth, formatDate } from "@/lib/ui/time";

const FIRST_ROWS = 25;

export function ProfileImpact({
  profile,
  days,
  items,
  error,
  isPending,
  onRetry,
  now,
}: {
  profile: string;
  days: number;
  items: readonly ForecastItem[] | undefined;
  error: unknown;
  isPending: boolean;
  onRetry: () => void;
  now: number;
}) {
  const [all, setAll] = useState(false);
  if (isPending) return <LoadingBlock label="Computing the forecast" lines={5} />;
  if (error || !items) return <ErrorState title="The forecast could not be computed" error={error} onRetry={onRetry} />;
  if (items.length === 0) {
    return (
      <EmptyState title={`No forced updates in the next ${days} days`}>
        No shoot on {profile} runs a version that expires before then.
      </EmptyState>
    );
  }
  const stuck = items.filter((i) => i.stuck);
  const shoots = new Set(items.map((i) => `${i.namespace}/${i.name}`)).size;
  const stuckShoots = new Set(stuck.map((i) => `${i.namespace}/${i.name}`)).size;
  const shown = all ? items : items.slice(0, FIRST_ROWS);
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        In the next {days} days, <strong>{items.length}</strong> forced{" "}
        {items.length === 1 ? "update touches" : "updates touch"} <strong>{shoots}</strong>{" "}
        {shoots === 1 ? "shoot" : "shoots"} on {profile}, each in its own maintenance window
        {stuck.length > 0 ? (
          <>
            ; <strong className="text-red-800">{stuck.length}</strong> of them cannot happen and leave{" "}
            <strong className="text-red-800">{stuckShoots}</strong> {stuckShoots === 1 ? "cluster" : "clusters"} stuck
            on an expired version.
          </>
        ) : (
          "."
        )}{" "}
        <Link
          href={`/forecast?days=365&cloudProfile=${encodeURIComponent(profile)}`}
          className="font-medium text-accent-700 hover:underline"
        >
          Open in the forecast
        </Link>
      </p>
      {stuck.length > 0 && (
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
          </ul>
        </div>
      )}
      <ForecastTable
        groups={[{ id: "all", title: "", items: shown }]}
        now={now}
        caption={`Forced updates of shoots on ${profile}`}
      />
      {items.length > FIRST_ROWS && (
        <Button onClick={() => setAll((a) => !a)}>
          {all ? `Show the first ${FIRST_ROWS}` : `Show all ${items.length} updates`}
        </Button>
      )}
    </div>
  );
}

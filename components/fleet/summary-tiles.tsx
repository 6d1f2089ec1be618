"use client";

// Tiles over the fleet table: shoots per status label, and shoots with a version expiring
// within 7 and 30 days (each is forced to update in its first maintenance window after the
// expiry). Each counts what clicking it selects; clicking it again removes the filter. Its "of N"
// is what it counts out of: the filtered list (the other group's filter kept), or, when the
// tile's own group is filtered, the same with that filter lifted, and it says so ("with any status").
import { useQuery } from "@tanstack/react-query";
import { CalendarClock } from "lucide-react";
import { toneIcon } from "@/components/ui/status-badges";
import { ErrorState, Skeleton } from "@/components/ui/states";
import { summaryQuery, type FleetChange, type FleetFilters } from "@/lib/ui/fleet-filters";
import { fleetSummaryQuery } from "@/lib/client/queries";
import { STATUS_DISPLAY_ORDER, STATUS_META, type StatusLabel } from "@/lib/ui/status";

const EXPIRY_TILES = [
  {
    days: 7,
    title: "Expired or expiring ≤ 7 days",
    hint: "Shoots using a version that is expired or expires within 7 days: their next maintenance window after the expiry forces an update.",
  },
  {
    days: 30,
    title: "Expired or expiring ≤ 30 days",
    hint: "Shoots using a version that is expired or expires within 30 days: plan their updates before Gardener forces them.",
  },
] as const;

export function SummaryTiles({
  filters,
  onChange,
}: {
  filters: FleetFilters;
  onChange: (change: FleetChange) => void;
}) {
  const search = summaryQuery(filters).toString();
  const { data, isPending, isError, error, refetch } = useQuery({
    ...fleetSummaryQuery(search),
    placeholderData: (previous) => previous,
  });

  const toggleStatus = (label: StatusLabel) => {
    onChange((f) => {
      const only = f.status.length === 1 && f.status[0] === label;
      return { ...f, status: only ? [] : [label] };
    });
  };
  const toggleExpiry = (days: number) =>
    onChange((f) => ({
      ...f,
      expiringWithinDays: f.expiringWithinDays === days ? undefined : days,
      sort: f.expiringWithinDays === days ? f.sort : "expiry",
      descending: false,
    }));

  return (
    <div className="space-y-2">
      {isError && (
        <ErrorState
          title={data ? "Refreshing the counts failed; showing the last ones" : "The counts could not be loaded"}
          error={error}
          onRetry={() => void refetch()}
        />
      )}
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label="Fleet summary">
        {STATUS_DISPLAY_ORDER.map((label) => {
          const meta = STATUS_META[label];
          const pressed = filters.status.length === 1 && filters.status[0] === label;
          return (
            <Tile
              key={label}
              pressed={pressed}
              onClick={() => toggleStatus(label)}
              hint={`${meta.hint} Click to ${pressed ? "show all" : `show only ${meta.word.toLowerCase()} shoots`}.`}
              title={
                <span className={`inline-flex items-center gap-1.5 ${TEXT[meta.tone]}`}>
                  {toneIcon(meta.tone)}
                  {meta.word}
                </span>
              }
              value={isPending ? undefined : data ? data.byStatus[label] : "–"}
              total={data?.statusTotal}
              totalOf={filters.status.length > 0 ? "any status" : undefined}
            />
          );
        })}
        {EXPIRY_TILES.map((tile) => {
          const pressed = filters.expiringWithinDays === tile.days;
          const value = isPending ? undefined : data ? data.expiringWithinDays[String(tile.days)] : "–";
          return (
            <Tile
              key={tile.days}
              pressed={pressed}
              onClick={() => toggleExpiry(tile.days)}
              hint={`${tile.hint} Click to ${pressed ? "remove this filter" : "show them, soonest first"}.`}
              title={
                <span
                  className={`inline-flex items-center gap-1.5 ${tile.days === 7 ? "text-red-700" : "text-amber-800"}`}
                >
                  <CalendarClock aria-hidden className="size-3.5" />
                  {tile.title}
                </span>
              }
              value={value}
              total={data?.expiryTotal}
              totalOf={filters.expiringWithinDays !== undefined ? "any expiry" : undefined}
            />
          );
        })}
      </div>
    </div>
  );
}

const TEXT = {
  green: "text-emerald-700",
  blue: "text-sky-700",
  amber: "text-amber-800",
  red: "text-red-700",
  grey: "text-slate-600",
  violet: "text-violet-700",
} as const;

function Tile({
  title,
  value,
  total,
  totalOf,
  pressed,
  onClick,
  hint,
}: {
  title: React.ReactNode;
  value: number | string | undefined;
  /** What the tile counts out of: the other filters, the other tiles' filter included. */
  total?: number;
  /** Said beside the total when it is not the list's (the tile's own filter is active). */
  totalOf?: string;
  pressed: boolean;
  onClick: () => void;
  hint: string;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      title={hint}
      className={`group rounded-xl border bg-white px-4 py-3 text-left shadow-sm transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600 ${pressed ? "border-accent-500 ring-2 ring-accent-500/30" : "border-slate-200 hover:border-slate-300 hover:shadow"}`}
    >
      <div className="text-xs font-medium">{title}</div>
      <div className="mt-1 flex items-baseline gap-1.5">
        {value === undefined ? (
          <Skeleton className="h-7 w-12" />
        ) : (
          <span data-tile-value className="text-2xl font-semibold tabular-nums text-slate-900">
            {typeof value === "number" ? value.toLocaleString("en") : value}
          </span>
        )}
        {typeof value === "number" && total !== undefined && total > 0 && (
          <span className="text-xs text-slate-500" data-tile-total>
            of {total.toLocaleString("en")}
            {totalOf ? ` with ${totalOf}` : ""}
          </span>
        )}
      </div>
    </button>
  );
}

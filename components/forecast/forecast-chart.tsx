"use client";

// Forced updates per day or week as stacked bars: Kubernetes and machine image in two shades of
// the accent colour, and the updates that will leave a cluster stuck in red on top. Clicking a
// bar jumps to that day or week in the list.
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TooltipContentProps } from "recharts";
import type { NameType, ValueType } from "recharts/types/component/DefaultTooltipContent";
import { bucketTick, bucketTitle, type Bucket, type Grouping } from "@/lib/ui/forecast-buckets";
import { TONE_FILL } from "@/lib/ui/status";

const SERIES = [
  { key: "kubernetes", label: "Kubernetes", fill: "var(--chart-kubernetes)" },
  { key: "machineImage", label: "Machine image", fill: "var(--chart-machine-image)" },
  { key: "stuck", label: "Stuck (no version to move to)", fill: TONE_FILL.red },
] as const;

export function ForecastChart({
  buckets,
  grouping,
  onSelect,
}: {
  buckets: readonly Bucket[];
  grouping: Grouping;
  onSelect: (start: number) => void;
}) {
  const data = buckets.map((b) => ({
    start: b.start,
    kubernetes: b.kubernetes,
    machineImage: b.machineImage,
    stuck: b.stuck,
    total: b.total,
  }));
  const busiest = Math.max(0, ...data.map((d) => d.total));
  return (
    <div>
      <ul className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" aria-label="Legend">
        {SERIES.map((s) => (
          <li key={s.key} className="inline-flex items-center gap-1.5">
            <span aria-hidden className="inline-block size-2.5 rounded-sm" style={{ background: s.fill }} />
            {s.label}
          </li>
        ))}
        <li className="text-slate-500">
          {grouping === "day" ? "Days" : "Weeks (Monday to Sunday)"} in UTC. Click a bar to jump to its updates.
        </li>
      </ul>
      <div role="img" aria-label={`Forced updates per ${grouping}: at most ${busiest} in one ${grouping}.`}>
        <ResponsiveContainer width="100%" height={240}>
          <BarChart
            data={data}
            margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
            barCategoryGap={grouping === "day" && data.length > 60 ? 1 : "15%"}
          >
            <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
            <XAxis
              dataKey="start"
              tickFormatter={(v: number) => bucketTick(v)}
              tick={{ fontSize: 11, fill: "var(--chart-muted)" }}
              stroke="var(--chart-axis)"
              minTickGap={24}
            />
            <YAxis
              allowDecimals={false}
              tick={{ fontSize: 11, fill: "var(--chart-muted)" }}
              stroke="var(--chart-axis)"
              width={48}
            />
            <Tooltip
              cursor={{ fill: "var(--chart-cursor)" }}
              content={(props: TooltipContentProps<ValueType, NameType>) => (
                <BucketTooltip {...props} grouping={grouping} />
              )}
            />
            {SERIES.map((s, i) => (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.label}
                stackId="updates"
                fill={s.fill}
                isAnimationActive={false}
                radius={i === SERIES.length - 1 ? [2, 2, 0, 0] : 0}
                cursor="pointer"
                onClick={(entry: { payload?: { start: number } }) => entry.payload && onSelect(entry.payload.start)}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}

function BucketTooltip({
  active,
  payload,
  grouping,
}: TooltipContentProps<ValueType, NameType> & { grouping: Grouping }) {
  if (!active || !payload?.length) return null;
  const row = payload[0].payload as {
    start: number;
    kubernetes: number;
    machineImage: number;
    stuck: number;
    total: number;
  };
  return (
    <div className="rounded-lg bg-white px-3 py-2 text-xs text-slate-700 shadow-lg ring-1 ring-slate-900/10">
      <p className="font-semibold text-slate-900">
        {bucketTitle(row.start, grouping)}
        {grouping === "day" ? " (UTC)" : ""}
      </p>
      {row.total === 0 ? (
        <p className="mt-1 text-slate-500">No forced updates.</p>
      ) : (
        <ul className="mt-1 space-y-0.5">
          <li>
            {row.kubernetes} Kubernetes {row.kubernetes === 1 ? "update" : "updates"}
          </li>
          <li>
            {row.machineImage} machine image {row.machineImage === 1 ? "update" : "updates"}
          </li>
          {row.stuck > 0 && <li className="font-medium text-red-700">{row.stuck} stuck: no version to move to</li>}
        </ul>
      )}
    </div>
  );
}

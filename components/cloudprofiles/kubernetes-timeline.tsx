"use client";

// The cloud profile's Kubernetes versions over time: one row per minor line and per patch, its
// bands coloured by classification, a "now" line, the expiry of each version and diamonds where
// the forecast says shoots will be forced off it. Every mark explains itself on hover; the same
// facts are in the table below the chart for keyboards and screen readers.
import { useMemo, useRef, useState, type MouseEvent, type ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, ReferenceLine, ResponsiveContainer, XAxis, YAxis } from "recharts";
import type { YAxisTickContentProps } from "recharts/types/util/types";
import { ClassificationBadge } from "@/components/ui/status-badges";
import type { ExpirableVersion } from "@/lib/gardener/types";
import type { ForecastItem, ForecastMarker } from "@/lib/ui/api-types";
import { monthTicks, type TimelineRow, type TimelineSegment, type TimeRange } from "@/lib/ui/profile-timeline";
import { shootsOn, type ProfileUsage } from "@/lib/ui/profile-usage";
import { CLASSIFICATION_META, TONE_FILL, type Classification } from "@/lib/ui/status";
import { formatBoth, formatDate, formatRelative, formatUtc } from "@/lib/ui/time";
import { ScrollBox } from "@/components/ui/scroll-box";

const ROW_HEIGHT = 24;
const AXIS_HEIGHT = 28;
const LABEL_WIDTH = 150;

interface Marker {
  readonly at: number;
  readonly updates: number;
  readonly stuck: number;
  /** The first few updates (the server sends six). */
  readonly first: readonly ForecastItem[];
}

interface Hover {
  readonly x: number;
  readonly y: number;
  /** The chart's width when the pointer moved, to keep the tooltip inside it. */
  readonly width: number;
  readonly content: ReactNode;
}

const fillOf = (c: string) => {
  const meta = CLASSIFICATION_META[c as Classification];
  return meta ? TONE_FILL[meta.tone] : "transparent";
};

const monthLabel = new Intl.DateTimeFormat("en-GB", { month: "short", timeZone: "UTC" });
const tickLabel = (t: number) => {
  const d = new Date(t);
  return d.getUTCMonth() === 0 ? `${monthLabel.format(t)} ${d.getUTCFullYear()}` : monthLabel.format(t);
};

/**
 * Forced Kubernetes updates off each patch, grouped per week (days would overlap at this scale):
 * the row's diamonds.
 */
function markersByRow(markers: readonly ForecastMarker[]): Map<string, Marker[]> {
  const byRow = new Map<string, Marker[]>();
  for (const m of markers) {
    const key = `patch:${m.from}`;
    byRow.set(key, [...(byRow.get(key) ?? []), { ...m, at: Date.parse(m.at) }]);
  }
  return byRow;
}

export function KubernetesTimeline({
  rows,
  range,
  now,
  usage,
  forecast,
  versions,
}: {
  rows: readonly TimelineRow[];
  range: TimeRange;
  now: number;
  usage: ProfileUsage | undefined;
  forecast: readonly ForecastMarker[] | undefined;
  versions: readonly ExpirableVersion[];
}) {
  const wrapper = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<Hover | null>(null);
  const markers = useMemo(() => markersByRow(forecast ?? []), [forecast]);
  const data = useMemo(
    () => rows.map((row) => ({ key: row.key, span: [range.start, range.end] as [number, number] })),
    [rows, range],
  );
  const byKey = useMemo(() => new Map(rows.map((r) => [r.key, r])), [rows]);
  const ticks = useMemo(() => monthTicks(range), [range]);

  const show = (event: MouseEvent<SVGElement>, content: ReactNode) => {
    const box = wrapper.current?.getBoundingClientRect();
    if (!box) return;
    // The width is measured here, with the position, so rendering the tooltip reads no ref.
    setHover({ x: event.clientX - box.left, y: event.clientY - box.top, width: box.width, content });
  };

  const shootCount = (row: TimelineRow) => (usage ? shootsOn(usage, row.versions) : undefined);

  return (
    <div>
      <Legend />
      <div ref={wrapper} className="relative mt-3" onMouseLeave={() => setHover(null)}>
        <div className="flex text-[11px] font-medium uppercase tracking-wide text-slate-500" aria-hidden>
          <span style={{ width: LABEL_WIDTH - 44 }} className="pl-1.5">
            Version
          </span>
          <span className="w-9 text-right">Shoots</span>
        </div>
        <ResponsiveContainer width="100%" height={rows.length * ROW_HEIGHT + AXIS_HEIGHT}>
          <BarChart
            data={data}
            layout="vertical"
            margin={{ top: 0, right: 16, bottom: 0, left: 0 }}
            barCategoryGap={1}
            accessibilityLayer={false}
            role="img"
            aria-label="Kubernetes versions over time, coloured by classification"
          >
            <CartesianGrid horizontal={false} stroke="var(--chart-grid)" />
            <XAxis
              type="number"
              orientation="top"
              domain={[range.start, range.end]}
              ticks={ticks}
              tickFormatter={tickLabel}
              scale="time"
              allowDataOverflow
              height={AXIS_HEIGHT}
              tick={{ fontSize: 11, fill: "var(--chart-muted)" }}
              stroke="var(--chart-axis)"
            />
            <YAxis
              type="category"
              dataKey="key"
              width={LABEL_WIDTH}
              interval={0}
              tickLine={false}
              axisLine={false}
              tick={(props: YAxisTickContentProps) => (
                <RowLabel
                  x={Number(props.x)}
                  y={Number(props.y)}
                  row={byKey.get(String(props.payload.value))}
                  shoots={shootCount}
                />
              )}
            />
            <Bar
              dataKey="span"
              isAnimationActive={false}
              shape={(props: { x: number; y: number; width: number; height: number; index: number }) => {
                const row = rows[props.index];
                return row ? (
                  <RowBands
                    key={row.key}
                    {...props}
                    row={row}
                    range={range}
                    now={now}
                    markers={markers.get(row.key) ?? []}
                    first={props.index === 0}
                    onHover={show}
                    shoots={shootCount(row)}
                  />
                ) : (
                  <g />
                );
              }}
            />
            <ReferenceLine
              x={now}
              stroke="var(--chart-ink)"
              strokeWidth={1.5}
              strokeDasharray="4 3"
              ifOverflow="hidden"
              label={{
                value: "now",
                position: "insideTopLeft",
                fill: "var(--chart-ink)",
                fontSize: 11,
                fontWeight: 600,
              }}
            />
          </BarChart>
        </ResponsiveContainer>
        {hover && (
          <div
            role="tooltip"
            className="pointer-events-none absolute z-20 w-72 rounded-lg bg-white p-3 text-xs text-slate-700 shadow-lg ring-1 ring-slate-900/10"
            style={{ left: Math.min(hover.x + 14, hover.width - 300), top: hover.y + 14 }}
          >
            {hover.content}
          </div>
        )}
      </div>
      <VersionTable rows={rows} now={now} usage={usage} versions={versions} />
    </div>
  );
}

function Legend() {
  return (
    <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600" aria-label="Legend">
      {(["preview", "supported", "deprecated", "expired"] as const).map((c) => (
        <li key={c} className="inline-flex items-center gap-1.5">
          <span aria-hidden className="inline-block h-2.5 w-5 rounded-sm" style={{ background: fillOf(c) }} />
          {CLASSIFICATION_META[c].word}
        </li>
      ))}
      <li className="inline-flex items-center gap-1.5">
        <span aria-hidden className="inline-block h-3 border-l-2 border-dashed border-slate-900" />
        Now
      </li>
      <li className="inline-flex items-center gap-1.5">
        <svg aria-hidden width="10" height="10" viewBox="-5 -5 10 10">
          <path d="M0 -4 L4 0 L0 4 L-4 0 Z" fill="var(--chart-ink)" stroke="var(--chart-surface)" />
        </svg>
        Forced update (forecast)
      </li>
      <li className="text-slate-500">Past periods are faded. Hover a band or a diamond for details.</li>
    </ul>
  );
}

function RowLabel({
  x,
  y,
  row,
  shoots,
}: {
  x: number;
  y: number;
  row: TimelineRow | undefined;
  shoots: (row: TimelineRow) => number | undefined;
}) {
  if (!row) return <g />;
  const count = shoots(row);
  const line = row.kind === "line";
  return (
    <g transform={`translate(${x},${y})`}>
      <text
        x={-LABEL_WIDTH + (line ? 14 : 26)}
        dy={4}
        textAnchor="start"
        fontSize={12}
        fontWeight={line ? 600 : 400}
        fill={line ? "var(--chart-ink)" : "var(--chart-label)"}
        style={{ fontVariantNumeric: "tabular-nums" }}
      >
        {line ? `${row.label}` : row.label}
      </text>
      <text
        x={-10}
        dy={4}
        textAnchor="end"
        fontSize={12}
        fontWeight={line ? 600 : 400}
        fill={count ? "var(--chart-ink)" : "var(--chart-faint)"}
        style={{ fontVariantNumeric: "tabular-nums" }}
      >
        {count === undefined ? "…" : count === 0 ? "–" : count}
      </text>
    </g>
  );
}

function RowBands({
  x,
  y,
  width,
  height,
  row,
  range,
  now,
  markers,
  first,
  onHover,
  shoots,
}: {
  x: number;
  y: number;
  width: number;
  height: number;
  row: TimelineRow;
  range: TimeRange;
  now: number;
  markers: readonly Marker[];
  first: boolean;
  onHover: (event: MouseEvent<SVGElement>, content: ReactNode) => void;
  shoots: number | undefined;
}) {
  const px = (t: number) =>
    x + ((Math.max(range.start, Math.min(range.end, t)) - range.start) / (range.end - range.start)) * width;
  const line = row.kind === "line";
  const bandHeight = line ? height - 2 : Math.max(6, height * 0.62);
  const top = y + (height - bandHeight) / 2;
  const nowX = px(now);
  return (
    <g>
      {line && !first && (
        <line x1={x - LABEL_WIDTH} x2={x + width} y1={y - 0.5} y2={y - 0.5} stroke="var(--chart-axis)" />
      )}
      {row.segments.map((s) => {
        const [x1, x2] = [px(s.start), px(s.end)];
        const hoverContent = <SegmentDetails row={row} segment={s} range={range} now={now} shoots={shoots} />;
        const handlers = { onMouseMove: (e: MouseEvent<SVGElement>) => onHover(e, hoverContent) };
        const fill = fillOf(s.classification);
        // The past is history: faded, so the eye goes to what is still ahead.
        const pastEnd = Math.min(x2, nowX);
        return (
          <g key={s.start} {...handlers}>
            <rect x={x1} y={y} width={Math.max(0, x2 - x1)} height={height} fill="transparent" />
            {pastEnd > x1 && (
              <rect x={x1} y={top} width={pastEnd - x1} height={bandHeight} fill={fill} opacity={0.35} />
            )}
            {x2 > Math.max(x1, nowX) && (
              <rect
                x={Math.max(x1, nowX)}
                y={top}
                width={x2 - Math.max(x1, nowX)}
                height={bandHeight}
                fill={fill}
                opacity={futureOpacity(s.classification, line)}
              />
            )}
            {s.classification === "expired" && s.start > range.start && (
              <line x1={x1} x2={x1} y1={y + 1} y2={y + height - 1} stroke="var(--chart-danger-line)" strokeWidth={2} />
            )}
          </g>
        );
      })}
      {markers.map((m) => {
        const cx = px(m.at);
        const cy = y + height / 2;
        const stuck = m.stuck > 0;
        return (
          <g
            key={m.at}
            onMouseMove={(e) => onHover(e, <MarkerDetails marker={m} now={now} />)}
            style={{ cursor: "help" }}
          >
            <path
              d={`M${cx} ${cy - 6} L${cx + 6} ${cy} L${cx} ${cy + 6} L${cx - 6} ${cy} Z`}
              fill={stuck ? "var(--chart-danger)" : "var(--chart-ink)"}
              stroke="var(--chart-surface)"
              strokeWidth={1.5}
            />
            {m.updates > 1 && (
              <text x={cx + 8} y={cy + 4} fontSize={10} fontWeight={600} fill="var(--chart-ink)">
                {m.updates}
              </text>
            )}
          </g>
        );
      })}
    </g>
  );
}

/** "Deprecated until 27 Nov 2026", "Expired from 27 Nov 2026", "Supported throughout the chart". */
/** Expired bands are quieter than live ones: a long red tail would drown the periods that still matter. */
const futureOpacity = (c: string, line: boolean) => (c === "expired" ? 0.55 : line ? 0.95 : 0.85);

function periodText(s: TimelineSegment, range: TimeRange): string {
  const word = CLASSIFICATION_META[s.classification as Classification]?.word ?? "Not yet available";
  const from = s.start > range.start ? ` from ${formatDate(s.start)}` : "";
  const until = s.end < range.end ? ` until ${formatDate(s.end)}` : "";
  return from || until ? `${word}${from}${until}.` : `${word} throughout the period shown.`;
}

function SegmentDetails({
  row,
  segment,
  range,
  now,
  shoots,
}: {
  row: TimelineRow;
  segment: TimelineSegment;
  range: TimeRange;
  now: number;
  shoots: number | undefined;
}) {
  const meta = CLASSIFICATION_META[segment.classification as Classification];
  const name = row.kind === "line" ? `Minor line ${row.label}` : `Kubernetes ${row.label}`;
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <span className="font-semibold text-slate-900">{name}</span>
        <ClassificationBadge classification={segment.classification} />
      </div>
      <p>{periodText(segment, range)}</p>
      {meta && <p className="text-slate-600">{meta.hint}</p>}
      {row.kind === "line" && (
        <p className="text-slate-600">
          A minor line takes the best classification of its {row.versions.length} patches: {row.versions.join(", ")}.
        </p>
      )}
      <p>
        {row.expiresAt === undefined
          ? "No expiration date: it stays available."
          : row.expiresAt <= now
            ? `Expired on ${formatUtc(row.expiresAt)} (${formatRelative(row.expiresAt, now)}): shoots still on it are forced to update in their next maintenance window.`
            : `Expires on ${formatUtc(row.expiresAt)} (${formatRelative(row.expiresAt, now)}); afterwards the next maintenance window forces an update.`}
      </p>
      {shoots !== undefined && (
        <p className="font-medium text-slate-900">
          {shoots === 0
            ? "No shoot runs it."
            : `${shoots} ${shoots === 1 ? "shoot runs" : "shoots run"} it (control plane or a worker pool).`}
        </p>
      )}
    </div>
  );
}

function MarkerDetails({ marker, now }: { marker: Marker; now: number }) {
  const first = marker.first[0];
  return (
    <div className="space-y-1.5">
      <div className="font-semibold text-slate-900">
        {marker.updates} forced {marker.updates === 1 ? "update" : "updates"} off {first.from}
      </div>
      <p>
        In the week from {formatDate(marker.at)} ({formatRelative(marker.at, now)}), each in its shoot&apos;s
        maintenance window:
      </p>
      <ul className="space-y-0.5">
        {marker.first.map((i) => (
          <li key={`${i.namespace}/${i.name}/${i.worker ?? ""}`}>
            <span className="text-slate-500" title={formatBoth(i.at)}>
              {formatDate(i.at).slice(0, -5)} ·{" "}
            </span>
            <span className="font-medium">{i.name}</span>
            <span className="text-slate-500">
              {" "}
              ({i.namespace}
              {i.worker ? `, pool ${i.worker}` : ""})
            </span>
            : {i.stuck ? <span className="font-medium text-red-700">stuck, no version to move to</span> : <>→ {i.to}</>}
          </li>
        ))}
        {marker.updates > marker.first.length && (
          <li className="text-slate-500">and {marker.updates - marker.first.length} more</li>
        )}
      </ul>
      {marker.stuck > 0 && (
        <p className="font-medium text-red-700">
          {marker.stuck} will be stuck: the cloud profile offers no version to move to.
        </p>
      )}
    </div>
  );
}

function VersionTable({
  rows,
  now,
  usage,
  versions,
}: {
  rows: readonly TimelineRow[];
  now: number;
  usage: ProfileUsage | undefined;
  versions: readonly ExpirableVersion[];
}) {
  const patches = rows.filter((r) => r.kind === "patch");
  return (
    <details className="group mt-4 rounded-lg border border-slate-200">
      <summary className="cursor-pointer select-none rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600">
        Show the {versions.length} Kubernetes versions as a table
      </summary>
      <ScrollBox label="Kubernetes versions table" className="border-t border-slate-200">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Kubernetes versions of the cloud profile</caption>
          <thead className="bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-3 py-2">
                Version
              </th>
              <th scope="col" className="px-3 py-2">
                Classification now
              </th>
              <th scope="col" className="px-3 py-2">
                Expiration
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Shoots
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {patches.map((r) => (
              <tr key={r.key}>
                <td className="px-3 py-1.5 font-mono text-slate-900">{r.label}</td>
                <td className="px-3 py-1.5">
                  <ClassificationBadge classification={r.classificationNow} />
                </td>
                <td className="px-3 py-1.5 text-slate-700">
                  {r.expiresAt === undefined ? (
                    <span className="text-slate-500">None</span>
                  ) : (
                    <span title={formatBoth(r.expiresAt)}>
                      {formatDate(r.expiresAt)}{" "}
                      <span className="text-slate-500">({formatRelative(r.expiresAt, now)})</span>
                    </span>
                  )}
                </td>
                <td className="px-3 py-1.5 text-right tabular-nums">
                  {usage ? (usage.kubernetes.get(r.label) ?? 0) : "…"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
    </details>
  );
}

"use client";

// The version timeline: one lane for the control plane and one per worker pool, bands coloured by
// the classification of the version the lane runs, from three months back to a year ahead, with
// "now", expiries, the coming maintenance windows and every forecast update. Every mark explains
// itself on hover or focus, and a visually hidden table says the same for screen readers.
import { useMemo, useState } from "react";
import { CartesianGrid, ComposedChart, ReferenceLine, ResponsiveContainer, XAxis, YAxis } from "recharts";
import { Panel } from "@/components/ui/page-header";
import { ErrorState, LoadingBlock } from "@/components/ui/states";
import { useNow } from "@/components/ui/time";
import { PHONE_QUERY, useMediaQuery } from "@/components/ui/use-media-query";
import { DAY_MS as DAY, MINUTE_MS } from "@/lib/engine/time-units";
import type { Shoot } from "@/lib/ui/api-types";
import { formatWindowStart } from "@/lib/ui/expiry-outlook";
import { CLASSIFICATION_META, CLASSIFICATIONS } from "@/lib/ui/status";
import { formatBoth, formatDate, formatUtcShort } from "@/lib/ui/time";
import {
  buildTimeline,
  comingWindows,
  HELD_ROLLOUT_REASON,
  monthTicks,
  weekTicks,
  type PastRun,
  type TimelineLane,
  type TimelineMarker,
} from "@/lib/ui/version-bands";
import { RefreshFailed } from "@/components/ui/states";
import { bandFill, MarkerGlyph, TimelineMarks, type Tip } from "./timeline-marks";
import { useMaintenancePlan, useShootForecast, useShootHistory } from "./use-lifecycle-data";
import { shootProfileName, useShootCloudProfile } from "./use-shoot-cloud-profile";

const WINDOW_TICKS = 40;

/** The two views: the year ahead (with three months of past), and the next five weeks up close. */
const RANGES = {
  year: { label: "15 months", past: 90, future: 365 },
  weeks: { label: "5 weeks", past: 4, future: 31 },
} as const;
type RangeKey = keyof typeof RANGES;
const LANE_HEIGHT = 56;
const TOP = 52;

const dayFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const monthFormat = new Intl.DateTimeFormat("en-GB", { month: "short", timeZone: "UTC" });
const monthYearFormat = new Intl.DateTimeFormat("en-GB", { month: "short", year: "numeric", timeZone: "UTC" });
const tickLabel = (t: number) => (new Date(t).getUTCMonth() === 0 ? monthYearFormat.format(t) : monthFormat.format(t));

const classificationWord = (c: string) =>
  c === "unknown" ? "Not in the cloud profile" : CLASSIFICATION_META[c as keyof typeof CLASSIFICATION_META].word;

function markerTitle(lane: TimelineLane, m: TimelineMarker): string {
  switch (m.type) {
    case "expiry":
      return `${lane.subject} ${m.version} expires`;
    case "forced":
      return `Forced update → ${m.to}`;
    case "planned":
      return m.reason === HELD_ROLLOUT_REASON ? `Held rollout → ${m.to}` : `Automatic update → ${m.to}`;
    case "stuck":
      return `Stuck on ${lane.subject} ${m.version}`;
    case "past-update":
      return `Updated ${m.version} → ${m.to}`;
  }
}

function markerLines(lane: TimelineLane, m: TimelineMarker): string[] {
  const where = `${lane.title}, ${lane.subject}`;
  const window = m.windowBegin !== undefined ? `window of ${formatWindowStart(m.windowBegin)}` : undefined;
  switch (m.type) {
    case "expiry":
      return [
        where,
        `${formatDate(m.at)} (${formatUtcShort(m.at)})`,
        "After this the next maintenance window forces an update.",
      ];
    case "forced":
    case "planned":
      return [where, `from ${m.version}, ${window ?? formatBoth(m.at)}`, ...(m.reason ? [m.reason] : [])];
    case "stuck":
      return [
        where,
        window ?? formatBoth(m.at),
        "The update is required but the cloud profile offers no suitable version.",
        ...(m.reason ? [m.reason] : []),
      ];
    case "past-update":
      return [where, formatBoth(m.at), ...(m.reason ? [m.reason] : [])];
  }
}

/** A lane's name on the Y axis: the pool (or control plane) over the subject and version. */
function LaneTick({
  x,
  y,
  payload,
  lanes,
  compact = false,
}: {
  x?: number;
  y?: number;
  payload?: { value: number };
  lanes: readonly TimelineLane[];
  /** Smaller type, for a phone's narrower label column. */
  compact?: boolean;
}) {
  const lane = lanes[payload?.value ?? -1];
  if (!lane || x === undefined || y === undefined) return null;
  return (
    <g transform={`translate(${x - 8}, ${y})`}>
      <text textAnchor="end" y={-3} fontSize={compact ? 11 : 12} fontWeight={600} fill="var(--chart-ink)">
        {lane.title}
      </text>
      {compact ? (
        // The image's name and its version on lines of their own, to fit the narrow column.
        <text textAnchor="end" y={10} fontSize={10} fill="var(--chart-muted)">
          <tspan x={0}>{lane.subject}</tspan>
          <tspan x={0} dy={11}>
            {lane.version}
          </tspan>
        </text>
      ) : (
        <text textAnchor="end" y={12} fontSize={11} fill="var(--chart-muted)">
          {lane.subject} {lane.version}
        </text>
      )}
    </g>
  );
}

export function VersionTimeline({ shoot }: { shoot: Shoot }) {
  const profileName = shootProfileName(shoot);
  const profile = useShootCloudProfile(shoot);
  const forecast = useShootForecast(shoot);
  const plan = useMaintenancePlan(shoot);
  const history = useShootHistory(shoot);
  const now = useNow(MINUTE_MS);
  const [tip, setTip] = useState<Tip | null>(null);
  const [range, setRange] = useState<RangeKey>("year");
  // On a phone the lane names take less of the chart's width.
  const phone = useMediaQuery(PHONE_QUERY);

  const from = now - RANGES[range].past * DAY;
  const to = now + RANGES[range].future * DAY;
  const lanes = useMemo(() => {
    if (!profile.data || !forecast.data) return undefined;
    const runs = (history.data?.items ?? []).filter((i) => i.type === "maintenance") as PastRun[];
    return buildTimeline({
      shoot,
      profile: profile.data,
      plan: plan.data,
      forecast: forecast.data,
      history: runs,
      from,
      to,
      now,
    });
  }, [shoot, profile.data, forecast.data, plan.data, history.data, from, to, now]);
  const windows = useMemo(() => comingWindows(shoot, now, WINDOW_TICKS), [shoot, now]);

  const legend = <Legend />;
  const retry = () => {
    void profile.refetch();
    void forecast.refetch();
    void plan.refetch();
    void history.refetch();
  };
  // An error only replaces the timeline when there is nothing cached to draw.
  if ((profile.error && !profile.data) || (forecast.error && !forecast.data)) {
    const profileMissing = profile.error && !profile.data;
    return (
      <Panel id="timeline" title="Version timeline">
        <ErrorState
          title={
            profileMissing
              ? `The cloud profile "${profileName}" could not be loaded`
              : "The forecast could not be loaded"
          }
          error={profileMissing ? profile.error : forecast.error}
          onRetry={retry}
        />
      </Panel>
    );
  }
  if (!lanes) {
    return (
      <Panel id="timeline" title="Version timeline">
        <LoadingBlock label="Loading the version timeline" lines={5} />
      </Panel>
    );
  }

  // Some part failed to refresh but is still drawn from the cache (or, for the plan and the
  // history, left out): say so next to the chart instead of hiding it.
  const staleError = profile.error ?? forecast.error ?? plan.error ?? history.error;
  const height = TOP + lanes.length * LANE_HEIGHT + 34;
  const ticks = range === "year" ? monthTicks(from, to) : weekTicks(from, to);
  const rangeControl = (
    <div role="group" aria-label="Time range" className="inline-flex rounded-md bg-slate-100 p-0.5 text-xs">
      {(Object.keys(RANGES) as RangeKey[]).map((key) => (
        <button
          key={key}
          type="button"
          aria-pressed={range === key}
          onClick={() => {
            setRange(key);
            setTip(null);
          }}
          className={`rounded px-2 py-1 font-medium focus-visible:outline-2 focus-visible:outline-accent-600 ${range === key ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900"}`}
        >
          {RANGES[key].label}
        </button>
      ))}
    </div>
  );
  return (
    <Panel
      id="timeline"
      title="Version timeline"
      actions={
        <>
          <span className="self-center text-xs text-slate-500">
            {formatDate(from)} to {formatDate(to)} (UTC)
          </span>
          {rangeControl}
        </>
      }
    >
      {staleError != null && (
        <div className="mb-2">
          <RefreshFailed
            what={
              profile.error
                ? `the cloud profile "${profileName}"`
                : forecast.error
                  ? "the forecast"
                  : plan.error
                    ? "the maintenance plan"
                    : "the history"
            }
            error={staleError}
            onRetry={retry}
            missing={!profile.error && !forecast.error && (plan.error ? !plan.data : !history.data)}
          />
        </div>
      )}
      <figure aria-labelledby="timeline-caption" className="m-0">
        <div className="relative" onMouseLeave={() => setTip(null)}>
          <ResponsiveContainer width="100%" height={height}>
            <ComposedChart
              accessibilityLayer={false}
              data={[
                { x: from, y: 0 },
                { x: to, y: lanes.length - 1 },
              ]}
              margin={{ top: TOP, right: 16, bottom: 4, left: 8 }}
            >
              <CartesianGrid horizontal={false} stroke="var(--chart-grid)" />
              <XAxis
                type="number"
                dataKey="x"
                domain={[from, to]}
                ticks={ticks}
                tickFormatter={range === "year" ? tickLabel : (t: number) => dayFormat.format(t)}
                allowDataOverflow
                tick={{ fontSize: 11, fill: "var(--chart-label)" }}
                tickLine={{ stroke: "var(--chart-axis)" }}
                axisLine={{ stroke: "var(--chart-axis)" }}
              />
              <YAxis
                type="number"
                dataKey="y"
                domain={[-0.5, lanes.length - 0.5]}
                ticks={lanes.map((_, i) => i)}
                reversed
                interval={0}
                width={phone ? 124 : 170}
                axisLine={false}
                tickLine={false}
                tick={<LaneTick lanes={lanes} compact={phone} />}
              />
              <ReferenceLine
                x={now}
                stroke="var(--chart-ink)"
                strokeWidth={1.5}
                strokeDasharray="4 3"
                label={{ value: "now", position: "top", fontSize: 11, fill: "var(--chart-ink)", fontWeight: 600 }}
              />
              <TimelineMarks
                lanes={lanes}
                windows={windows}
                from={from}
                to={to}
                onTip={setTip}
                describeBand={(lane, i) => {
                  const b = lane.bands[i];
                  const meta = b.classification === "unknown" ? undefined : CLASSIFICATION_META[b.classification];
                  return {
                    x: 0,
                    y: 0,
                    title: `${lane.title}: ${lane.subject} ${b.version}`,
                    lines: [
                      `${classificationWord(b.classification)} from ${formatDate(b.start)} to ${formatDate(b.end)}${b.start <= from ? " (and before)" : ""}${b.end >= to ? " (and after)" : ""}`,
                      meta?.hint ?? "The cloud profile does not list this version.",
                    ],
                  };
                }}
                describeMarker={(lane, i) => ({
                  x: 0,
                  y: 0,
                  title: markerTitle(lane, lane.markers[i]),
                  lines: markerLines(lane, lane.markers[i]),
                })}
                describeWindow={(i) => ({
                  x: 0,
                  y: 0,
                  title: i === 0 ? "Next maintenance window" : "Maintenance window",
                  lines: [formatBoth(windows[i].begin), `until ${formatUtcShort(windows[i].end)}`],
                })}
              />
            </ComposedChart>
          </ResponsiveContainer>
          {tip && <TipBox tip={tip} />}
        </div>
        <figcaption
          id="timeline-caption"
          className="mt-3 flex flex-wrap items-center justify-between gap-3 text-xs text-slate-600"
        >
          {legend}
        </figcaption>
      </figure>
      <TimelineTable lanes={lanes} windows={windows} />
    </Panel>
  );
}

function TipBox({ tip }: { tip: Tip }) {
  return (
    <div
      role="tooltip"
      className="pointer-events-none absolute z-10 w-72 -translate-x-1/2 -translate-y-full rounded-lg bg-slate-900 px-3 py-2 text-xs text-slate-100 shadow-lg"
      style={{ left: tip.x, top: tip.y - 6 }}
    >
      <p className="font-semibold text-white">{tip.title}</p>
      {tip.lines.map((line, i) => (
        <p key={i} className="mt-0.5 text-slate-300">
          {line}
        </p>
      ))}
    </div>
  );
}

function Glyph({ type }: { type: Parameters<typeof MarkerGlyph>[0]["type"] }) {
  return (
    <svg aria-hidden width={18} height={22} viewBox="-9 -14 18 24" className="shrink-0">
      <MarkerGlyph type={type} />
    </svg>
  );
}

function Legend() {
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <span className="sr-only">Legend:</span>
      {CLASSIFICATIONS.map((c) => (
        <span key={c} className="inline-flex items-center gap-1.5">
          <span
            aria-hidden
            className="inline-block h-3 w-5 rounded-sm border"
            style={
              c === "expired"
                ? {
                    background: `repeating-linear-gradient(45deg, ${bandFill(c)}99 0 2px, ${bandFill(c)}33 2px 5px)`,
                    borderColor: bandFill(c),
                  }
                : { background: `${bandFill(c)}47`, borderColor: bandFill(c) }
            }
          />
          {CLASSIFICATION_META[c].word}
        </span>
      ))}
      <span className="h-4 w-px bg-slate-200" aria-hidden />
      <span className="inline-flex items-center gap-1">
        <Glyph type="expiry" />
        Expiry
      </span>
      <span className="inline-flex items-center gap-1">
        <Glyph type="forced" />
        Forced update
      </span>
      <span className="inline-flex items-center gap-1">
        <Glyph type="planned" />
        Automatic update or held rollout
      </span>
      <span className="inline-flex items-center gap-1">
        <Glyph type="stuck" />
        Stuck
      </span>
      <span className="inline-flex items-center gap-1">
        <Glyph type="past-update" />
        Past update
      </span>
      <span className="inline-flex items-center gap-1">
        <Glyph type="window" />
        Maintenance window
      </span>
    </div>
  );
}

/** The same facts as the chart, for screen readers. */
function TimelineTable({ lanes, windows }: { lanes: readonly TimelineLane[]; windows: readonly { begin: number }[] }) {
  return (
    // sr-only on the wrapper: a table cannot shrink to one pixel itself.
    <div className="sr-only">
      <table>
        <caption>
          Version timeline as a table: each lane's versions with their classification over time, and the events ahead
        </caption>
        <thead>
          <tr>
            <th scope="col">Lane</th>
            <th scope="col">Versions over time</th>
            <th scope="col">Events</th>
          </tr>
        </thead>
        <tbody>
          {lanes.map((lane) => (
            <tr key={lane.id}>
              <th scope="row">
                {lane.title}, {lane.subject} {lane.version}
              </th>
              <td>
                <ul>
                  {lane.bands.map((b, i) => (
                    <li key={i}>
                      {b.version}: {classificationWord(b.classification)} from {formatDate(b.start)} to{" "}
                      {formatDate(b.end)}
                    </li>
                  ))}
                </ul>
              </td>
              <td>
                {lane.markers.length === 0 ? (
                  "None"
                ) : (
                  <ul>
                    {lane.markers.map((m, i) => (
                      <li key={i}>
                        {markerTitle(lane, m)}: {markerLines(lane, m).slice(1).join("; ")}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
          <tr>
            <th scope="row">Maintenance windows</th>
            <td colSpan={2}>
              Next windows start{" "}
              {windows
                .slice(0, 3)
                .map((w) => formatBoth(w.begin))
                .join("; ")}
              , then daily.
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

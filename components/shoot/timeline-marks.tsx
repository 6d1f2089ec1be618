"use client";

// The marks of the version timeline, drawn inside the Recharts chart with its scales: a band per
// version and classification, and glyphs for expiries, updates, stuck updates and maintenance
// windows. Each mark reports itself on hover and focus, so the chart can show what it means.
import { usePlotArea, useXAxisScale, useYAxisScale } from "recharts";
import type { ReactNode } from "react";
import { CLASSIFICATION_META, TONE_FILL, type Classification } from "@/lib/ui/status";
import type { BandClassification, MarkerType, TimelineLane } from "@/lib/ui/version-bands";

const BAND_HEIGHT = 18;

export function bandFill(c: BandClassification): string {
  return c === "unknown" ? TONE_FILL.grey : TONE_FILL[CLASSIFICATION_META[c as Classification].tone];
}

export interface Tip {
  readonly x: number;
  readonly y: number;
  readonly title: string;
  readonly lines: readonly string[];
}

/** The glyph of a marker type, centred on (0, 0); also used by the legend. */
export function MarkerGlyph({ type }: { type: MarkerType | "window" | "now" }): ReactNode {
  switch (type) {
    case "expiry":
      return (
        <g>
          <line
            x1={0}
            x2={0}
            y1={-BAND_HEIGHT / 2 - 3}
            y2={BAND_HEIGHT / 2 + 3}
            stroke="var(--chart-danger)"
            strokeWidth={2}
          />
          <path d="M -5 -15 L 5 -15 L 0 -9 Z" fill="var(--chart-danger)" />
        </g>
      );
    case "forced":
      return (
        <g>
          <circle r={7} fill="var(--chart-surface)" stroke="var(--chart-ink)" strokeWidth={1.75} />
          <path
            d="M -3.5 0 H 3 M 0.5 -2.5 L 3 0 L 0.5 2.5"
            fill="none"
            stroke="var(--chart-ink)"
            strokeWidth={1.6}
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </g>
      );
    case "planned":
      return (
        <g>
          <circle r={7} fill="var(--chart-planned-fill)" stroke="var(--chart-planned)" strokeWidth={1.75} />
          <path
            d="M -3.5 0 H 3 M 0.5 -2.5 L 3 0 L 0.5 2.5"
            fill="none"
            stroke="var(--chart-planned)"
            strokeWidth={1.6}
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </g>
      );
    case "stuck":
      return (
        <g>
          <path
            d="M -3 -7 H 3 L 7 -3 V 3 L 3 7 H -3 L -7 3 V -3 Z"
            fill="var(--chart-danger-strong)"
            stroke="var(--chart-danger-edge)"
            strokeWidth={1}
          />
          <path d="M 0 -3.5 V 1 M 0 3.2 V 3.4" stroke="var(--chart-surface)" strokeWidth={1.8} strokeLinecap="round" />
        </g>
      );
    case "past-update":
      return (
        <g>
          <circle r={5} fill="var(--chart-surface)" stroke="var(--chart-muted)" strokeWidth={1.5} />
          <circle r={1.6} fill="var(--chart-muted)" />
        </g>
      );
    case "window":
      return <rect x={-1.5} y={-5} width={3} height={10} rx={1} fill="var(--chart-run)" />;
    case "now":
      return <line x1={0} x2={0} y1={-8} y2={8} stroke="var(--chart-ink)" strokeWidth={1.5} strokeDasharray="3 2" />;
  }
}

export interface TimelineMarksProps {
  readonly lanes: readonly TimelineLane[];
  readonly windows: readonly { begin: number; end: number }[];
  readonly from: number;
  readonly to: number;
  readonly describeBand: (lane: TimelineLane, index: number) => Tip;
  readonly describeMarker: (lane: TimelineLane, index: number) => Tip;
  readonly describeWindow: (index: number) => Tip;
  readonly onTip: (tip: Tip | null) => void;
}

/** Under this many pixels between two daily windows the comb is a smear: only the next one shows. */
const MIN_WINDOW_SPACING = 5;
/** How far above the plot area the windows' row sits. */
const WINDOW_ROW_OFFSET = 28;

const MIN_LABEL_GAP = 6;

export function TimelineMarks({
  lanes,
  windows,
  from,
  to,
  describeBand,
  describeMarker,
  describeWindow,
  onTip,
}: TimelineMarksProps) {
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  const plot = usePlotArea();
  if (!xScale || !yScale || !plot) return null;
  const x = (t: number) => xScale(Math.min(Math.max(t, from), to)) ?? 0;
  const hover = (tip: Tip) => ({
    onMouseEnter: () => onTip(tip),
    onMouseLeave: () => onTip(null),
    onFocus: () => onTip(tip),
    onBlur: () => onTip(null),
  });

  return (
    <g>
      <defs>
        <pattern id="expired-hatch" width={6} height={6} patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width={6} height={6} fill={TONE_FILL.red} fillOpacity={0.28} />
          <line x1={0} x2={0} y1={0} y2={6} stroke={TONE_FILL.red} strokeWidth={2.5} strokeOpacity={0.55} />
        </pattern>
      </defs>

      {lanes.map((lane, li) => {
        const cy = yScale(li) ?? 0;
        let labelRight = Number.NEGATIVE_INFINITY;
        return (
          <g key={lane.id}>
            {lane.bands.map((band, bi) => {
              const x1 = x(band.start);
              const x2 = x(band.end);
              const width = Math.max(1, x2 - x1);
              const tip = describeBand(lane, bi);
              // The version and its classification, or the version alone where that does not fit
              // (past the marker that may sit on the band's start).
              const full = `${band.version} · ${band.classification === "unknown" ? "not in profile" : CLASSIFICATION_META[band.classification].word.toLowerCase()}`;
              const fits = (t: string) => width > t.length * 5.8 + 16;
              const text = fits(full) ? full : band.version;
              const showText = fits(text);
              return (
                <g key={bi} {...hover({ ...tip, x: x1 + width / 2, y: cy - BAND_HEIGHT / 2 })}>
                  <rect
                    x={x1}
                    y={cy - BAND_HEIGHT / 2}
                    width={width}
                    height={BAND_HEIGHT}
                    rx={3}
                    fill={band.classification === "expired" ? "url(#expired-hatch)" : bandFill(band.classification)}
                    fillOpacity={band.classification === "expired" ? 1 : 0.28}
                    stroke={bandFill(band.classification)}
                    strokeOpacity={0.9}
                    strokeWidth={1}
                  />
                  {showText && (
                    <text
                      x={x1 + 11}
                      y={cy + 4}
                      fontSize={11}
                      fill="var(--chart-ink)"
                      style={{ pointerEvents: "none" }}
                    >
                      {text}
                    </text>
                  )}
                </g>
              );
            })}
            {lane.markers.map((marker, mi) => {
              const mx = x(marker.at);
              const tip = describeMarker(lane, mi);
              const label =
                marker.to && marker.type !== "past-update"
                  ? `→ ${marker.to}`
                  : marker.type === "stuck"
                    ? "stuck"
                    : undefined;
              let labelNode: ReactNode = null;
              if (label) {
                const w = label.length * 6.4;
                if (mx - 2 > labelRight + MIN_LABEL_GAP) {
                  labelRight = mx + w;
                  labelNode = (
                    <text
                      x={mx - 2}
                      y={cy - BAND_HEIGHT / 2 - 6}
                      fontSize={11}
                      fontWeight={600}
                      fill={
                        marker.type === "stuck"
                          ? "var(--chart-danger)"
                          : marker.type === "planned"
                            ? "var(--chart-planned)"
                            : "var(--chart-ink)"
                      }
                      style={{ pointerEvents: "none" }}
                    >
                      {label}
                    </text>
                  );
                }
              }
              return (
                <g key={`m${mi}`}>
                  {labelNode}
                  <g
                    transform={`translate(${mx}, ${cy})`}
                    tabIndex={0}
                    role="img"
                    aria-label={`${tip.title}. ${tip.lines.join(". ")}`}
                    className="cursor-help focus-visible:outline-2 focus-visible:outline-accent-600"
                    {...hover({ ...tip, x: mx, y: cy - 12 })}
                  >
                    <rect x={-9} y={-BAND_HEIGHT / 2 - 8} width={18} height={BAND_HEIGHT + 16} fill="transparent" />
                    <MarkerGlyph type={marker.type} />
                  </g>
                </g>
              );
            })}
          </g>
        );
      })}

      <WindowRow
        windows={windows}
        x={x}
        from={from}
        to={to}
        top={plot.y - WINDOW_ROW_OFFSET}
        left={plot.x}
        describeWindow={describeWindow}
        hover={hover}
      />
    </g>
  );
}

/** The coming daily maintenance windows as a comb above the lanes; the next one is labelled. */
function WindowRow({
  windows,
  x,
  from,
  to,
  top,
  left,
  describeWindow,
  hover,
}: {
  windows: readonly { begin: number; end: number }[];
  x: (t: number) => number;
  from: number;
  to: number;
  top: number;
  left: number;
  describeWindow: (index: number) => Tip;
  hover: (tip: Tip) => Record<string, () => void>;
}) {
  const visible = windows.map((w, i) => ({ w, i })).filter(({ w }) => w.begin >= from && w.begin <= to);
  const dense = visible.length > 1 && x(visible[1].w.begin) - x(visible[0].w.begin) < MIN_WINDOW_SPACING;
  const shown = dense ? visible.slice(0, 1) : visible;
  return (
    <g>
      <text x={left - 8} y={top + 4} textAnchor="end" fontSize={11} fill="var(--chart-muted)">
        Maintenance windows
      </text>
      <line x1={left} x2={x(to)} y1={top} y2={top} stroke="var(--chart-grid)" />
      {shown.map(({ w, i }) => {
        const wx = x(w.begin);
        const tip = describeWindow(i);
        return (
          <g
            key={i}
            transform={`translate(${wx}, ${top})`}
            tabIndex={i === 0 ? 0 : -1}
            role="img"
            aria-label={`${tip.title}. ${tip.lines.join(". ")}`}
            className="cursor-help focus-visible:outline-2 focus-visible:outline-accent-600"
            {...hover({ ...tip, x: wx, y: top - 8 })}
          >
            <rect x={-4} y={-8} width={8} height={16} fill="transparent" />
            <MarkerGlyph type="window" />
            {i === 0 && (
              <text
                x={dense ? 7 : 0}
                y={dense ? 4 : -10}
                textAnchor={dense ? "start" : "middle"}
                fontSize={11}
                fontWeight={600}
                fill="var(--chart-run-label)"
              >
                next{dense ? ", then daily" : ""}
              </text>
            )}
          </g>
        );
      })}
    </g>
  );
}

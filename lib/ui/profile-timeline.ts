// The cloud profile's Kubernetes timeline: for every minor line and every patch, the periods in
// which it is preview, supported, deprecated or expired, over a range of dates around now. The
// classification at each moment comes from the engine (classificationAt, with its exact rule that
// a stage applies once its start lies strictly before the moment), so the chart cannot disagree
// with what maintenance will do.
import { classificationAt, classificationChangeTimes, expiryTime } from "../engine/classification.ts";
import { DAY_MS as DAY } from "../engine/time-units.ts";
import { compareVersions, tryParseVersion } from "../engine/version.ts";
import type { ExpirableVersion, VersionClassification } from "../gardener/types.ts";

export interface TimeRange {
  readonly start: number;
  readonly end: number;
}

export interface TimelineSegment {
  readonly start: number;
  readonly end: number;
  readonly classification: VersionClassification;
}

export interface TimelineRow {
  /** Unique per row: "line:1.31" or "patch:1.31.4". */
  readonly key: string;
  readonly kind: "line" | "patch";
  /** "1.31" for a minor line, the version's own spelling for a patch. */
  readonly label: string;
  /** The minor line the row belongs to ("1.31"); "other" for versions that do not parse. */
  readonly line: string;
  /** The patches of the line (for a line row) or the version itself. */
  readonly versions: readonly string[];
  readonly segments: readonly TimelineSegment[];
  readonly classificationNow: VersionClassification;
  /** When the row expires: the version's expiry, or the last patch's for a line (undefined: never). */
  readonly expiresAt: number | undefined;
}

/** The order in which a minor line takes the classification of its best patch. */
const LINE_PRECEDENCE: readonly VersionClassification[] = [
  "supported",
  "deprecated",
  "preview",
  "expired",
  "unavailable",
];

const finiteChangeTimes = (versions: readonly ExpirableVersion[]) =>
  versions.flatMap(classificationChangeTimes).filter((t) => Number.isFinite(t));

const startOfUtcMonth = (t: number) => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};

/**
 * The dates the chart shows: at least two months back and six ahead of now, stretched to show
 * every classification change (with a margin), but never more than a year back or three ahead.
 * The start is the first of a month, so that month ticks fall on whole months.
 */
export function timelineRange(versions: readonly ExpirableVersion[], now: number): TimeRange {
  const times = finiteChangeTimes(versions);
  const earliest = Math.min(now - 60 * DAY, ...times.map((t) => t - 14 * DAY));
  const latest = Math.max(now + 182 * DAY, ...times.map((t) => t + 30 * DAY));
  return {
    start: startOfUtcMonth(Math.max(earliest, now - 365 * DAY)),
    end: Math.min(latest, now + 3 * 365 * DAY),
  };
}

/** The first of each UTC month inside the range: the chart's axis ticks. */
export function monthTicks(range: TimeRange): number[] {
  const ticks: number[] = [];
  const d = new Date(startOfUtcMonth(range.start));
  for (let t = d.getTime(); t <= range.end; d.setUTCMonth(d.getUTCMonth() + 1), t = d.getTime()) {
    if (t >= range.start) ticks.push(t);
  }
  return ticks;
}

/**
 * Splits the range at the given change times and names each piece with `classify`, sampled one
 * millisecond after the piece starts (a stage starting exactly at the boundary applies there).
 * Neighbours with the same classification are merged.
 */
function segmentsOf(
  changeTimes: readonly number[],
  range: TimeRange,
  classify: (at: number) => VersionClassification,
): TimelineSegment[] {
  const cuts = [...new Set(changeTimes.filter((t) => t > range.start && t < range.end))].sort((a, b) => a - b);
  const bounds = [range.start, ...cuts, range.end];
  const segments: TimelineSegment[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const [start, end] = [bounds[i], bounds[i + 1]];
    const classification = classify(start + 1);
    const last = segments.at(-1);
    if (last && last.classification === classification) segments[segments.length - 1] = { ...last, end };
    else segments.push({ start, end, classification });
  }
  return segments;
}

/** One version's classification periods within the range. */
export function versionSegments(version: ExpirableVersion, range: TimeRange): TimelineSegment[] {
  return segmentsOf(finiteChangeTimes([version]), range, (at) => classificationAt(version, at));
}

/** The classification of a minor line at a moment: that of its best patch (supported first). */
export function lineClassificationAt(versions: readonly ExpirableVersion[], at: number): VersionClassification {
  const present = new Set(versions.map((v) => classificationAt(v, at)));
  return LINE_PRECEDENCE.find((c) => present.has(c)) ?? "unavailable";
}

/** A minor line's periods: supported while any patch is, expired once every patch is. */
function lineSegments(versions: readonly ExpirableVersion[], range: TimeRange): TimelineSegment[] {
  return segmentsOf(finiteChangeTimes(versions), range, (at) => lineClassificationAt(versions, at));
}

const lineOf = (text: string) => {
  const v = tryParseVersion(text);
  return v ? `${v.major}.${v.minor}` : "other";
};

/** Newest first, by semver; unparsable versions last, by their text. */
function newestFirst(a: ExpirableVersion, b: ExpirableVersion): number {
  const [va, vb] = [tryParseVersion(a.version), tryParseVersion(b.version)];
  if (va && vb) return compareVersions(vb, va);
  if (va || vb) return va ? -1 : 1;
  return a.version < b.version ? -1 : a.version > b.version ? 1 : 0;
}

/** When a row expires: undefined when any of its versions never does. */
function latestExpiry(versions: readonly ExpirableVersion[]): number | undefined {
  let latest = Number.NEGATIVE_INFINITY;
  for (const v of versions) {
    const t = expiryTime(v);
    if (t === undefined || Number.isNaN(t)) return undefined;
    latest = Math.max(latest, t);
  }
  return versions.length > 0 ? latest : undefined;
}

/**
 * The timeline's rows, newest minor line first: each line's own row, then its patches, newest
 * first.
 */
export function kubernetesTimeline(
  versions: readonly ExpirableVersion[],
  range: TimeRange,
  now: number,
): TimelineRow[] {
  const byLine = new Map<string, ExpirableVersion[]>();
  for (const v of [...versions].sort(newestFirst)) {
    const line = lineOf(v.version);
    byLine.set(line, [...(byLine.get(line) ?? []), v]);
  }
  const rows: TimelineRow[] = [];
  for (const [line, patches] of byLine) {
    rows.push({
      key: `line:${line}`,
      kind: "line",
      label: line,
      line,
      versions: patches.map((p) => p.version),
      segments: lineSegments(patches, range),
      classificationNow: lineClassificationAt(patches, now),
      expiresAt: latestExpiry(patches),
    });
    for (const p of patches) {
      rows.push({
        key: `patch:${p.version}`,
        kind: "patch",
        label: p.version,
        line,
        versions: [p.version],
        segments: versionSegments(p, range),
        classificationNow: classificationAt(p, now),
        expiresAt: latestExpiry([p]),
      });
    }
  }
  return rows;
}

/** The segment of a row that contains `at`, if any. */
export function segmentAt(row: TimelineRow, at: number): TimelineSegment | undefined {
  return row.segments.find((s) => s.start <= at && at < s.end);
}

// The version timeline of one shoot as plain data: one lane for the control plane and one per
// worker pool (its machine image, and its own Kubernetes version when it differs), each cut into
// bands of one version and one classification over time, with marks for expiries, forced and
// planned updates, stuck updates and the coming maintenance windows.
//
// Classification over time comes from the engine (the same rules that decide maintenance:
// `lifecycle` stages, or the legacy classification until `expirationDate`). The future follows
// the maintenance plan (everything the next window changes, automatic updates included) and the
// forecast (every forced update in the next year); the past follows the shoot's history of
// maintenance runs, so the band before an update shows the version that ran then.
import { classificationAt, classificationChangeTimes, expiryTime } from "../engine/classification.ts";
import { isForcedReason } from "../engine/forecast.ts";
import { nextMaintenanceMoment } from "../engine/maintenance-moment.ts";
import { DAY_MS } from "../engine/time-units.ts";
import { tryParseVersion } from "../engine/version.ts";
import type { CloudProfile, ExpirableVersion, Shoot } from "../gardener/types.ts";
import type { ForecastItem, MaintenancePlan } from "./api-types.ts";
import type { Classification } from "./status.ts";

export type BandClassification = Classification | "unknown";

interface TimelineBand {
  /** epoch ms, inclusive */
  readonly start: number;
  /** epoch ms, exclusive */
  readonly end: number;
  readonly version: string;
  readonly classification: BandClassification;
}

export type MarkerType = "expiry" | "forced" | "planned" | "stuck" | "past-update";

export interface TimelineMarker {
  readonly at: number;
  readonly type: MarkerType;
  /** The version before the mark (the one that expires, or the update's source). */
  readonly version: string;
  /** The update's target version. */
  readonly to?: string;
  /** Start of the maintenance window the update happens in. */
  readonly windowBegin?: number;
  /** Why: the engine's reason ("Kubernetes version expired - force update required"). */
  readonly reason?: string;
}

export interface TimelineLane {
  /** Stable key: "controlPlane", "pool:<name>:kubernetes", "pool:<name>:image". */
  readonly id: string;
  /** "controlPlane" or the worker pool's name, as the plan, forecast and history name it. */
  readonly target: string;
  readonly kind: "kubernetes" | "machineImage";
  /** "Control plane" or `Pool "worker"`. */
  readonly title: string;
  /** "Kubernetes" or the machine image's name. */
  readonly subject: string;
  /** The version the lane runs now. */
  readonly version: string;
  readonly bands: readonly TimelineBand[];
  readonly markers: readonly TimelineMarker[];
}

/** A maintenance run as the history answers it (only what the timeline needs). */
export interface PastRun {
  readonly at: string;
  readonly state: string;
  readonly changes: readonly { target: string; kind: string; from?: string; to?: string; reason?: string }[];
}

export interface TimelineInput {
  readonly shoot: Shoot;
  readonly profile: CloudProfile | undefined;
  readonly plan?: MaintenancePlan;
  /** Forecast items; those of other shoots are ignored. */
  readonly forecast?: readonly ForecastItem[];
  readonly history?: readonly PastRun[];
  readonly from: number;
  readonly to: number;
  readonly now: number;
}

/** The profile's entry for a version of a lane (Kubernetes compared as semver, images exactly). */
export function profileEntry(
  profile: CloudProfile | undefined,
  kind: TimelineLane["kind"],
  subject: string,
  version: string,
): ExpirableVersion | undefined {
  if (!profile) return undefined;
  if (kind === "kubernetes") {
    const wanted = tryParseVersion(version);
    if (!wanted) return undefined;
    return (profile.spec.kubernetes?.versions ?? []).find((v) => {
      const p = tryParseVersion(String(v.version));
      return p !== undefined && p.major === wanted.major && p.minor === wanted.minor && p.patch === wanted.patch;
    });
  }
  const image = (profile.spec.machineImages ?? []).find((m) => m.name.toLowerCase() === subject.toLowerCase());
  return image?.versions?.find((v) => v.version === version);
}

/** The classification of a profile entry at `at`; "unknown" when the profile does not list it. */
export function classificationOf(entry: ExpirableVersion | undefined, at: number): BandClassification {
  if (!entry) return "unknown";
  const c = classificationAt(entry, at);
  return c === "unavailable" ? "unknown" : c;
}

/** The lanes of a shoot, in the order an operator reads them. */
export function laneSkeletons(shoot: Shoot): Omit<TimelineLane, "bands" | "markers">[] {
  const cp = shoot.spec.kubernetes.version;
  const lanes: Omit<TimelineLane, "bands" | "markers">[] = [
    {
      id: "controlPlane",
      target: "controlPlane",
      kind: "kubernetes",
      title: "Control plane",
      subject: "Kubernetes",
      version: cp,
    },
  ];
  for (const w of shoot.spec.provider?.workers ?? []) {
    const own = w.kubernetes?.version;
    if (own && own !== cp) {
      lanes.push({
        id: `pool:${w.name}:kubernetes`,
        target: w.name,
        kind: "kubernetes",
        title: `Pool "${w.name}"`,
        subject: "Kubernetes",
        version: own,
      });
    }
    const image = w.machine.image;
    if (image?.version) {
      lanes.push({
        id: `pool:${w.name}:image`,
        target: w.name,
        kind: "machineImage",
        title: `Pool "${w.name}"`,
        subject: image.name,
        version: image.version,
      });
    }
  }
  return lanes;
}

interface Update {
  readonly at: number;
  readonly windowBegin?: number;
  readonly from: string;
  readonly to?: string;
  readonly stuck: boolean;
  readonly forced: boolean;
  readonly reason: string;
}

function forecastMatches(item: ForecastItem, lane: Omit<TimelineLane, "bands" | "markers">): boolean {
  if (item.kind !== lane.kind) return false;
  return lane.target === "controlPlane"
    ? item.target === "controlPlane"
    : item.target === "worker" && item.worker === lane.target;
}

/** What the future holds for a lane: the next window's changes, then the forecast's forced updates. */
function comingUpdates(lane: Omit<TimelineLane, "bands" | "markers">, input: TimelineInput): Update[] {
  const updates: Update[] = [];
  const { plan, shoot } = input;
  for (const item of input.forecast ?? []) {
    if (item.namespace !== shoot.metadata.namespace || item.name !== shoot.metadata.name) continue;
    if (!forecastMatches(item, lane) || item.at === null) continue;
    updates.push({
      at: Date.parse(item.at),
      windowBegin: item.window ? Date.parse(item.window.begin) : undefined,
      from: item.from,
      to: item.to ?? undefined,
      stuck: item.stuck,
      forced: true,
      reason: item.reason,
    });
  }
  if (plan) {
    const at = Date.parse(plan.at);
    for (const change of plan.changes) {
      if (change.target !== lane.target || change.kind !== lane.kind) continue;
      // The forecast already has the forced ones; the plan adds the automatic updates.
      if (updates.some((u) => u.at === at && u.from === change.from)) continue;
      // A change the engine cannot make (no suitable version) leaves the cluster stuck.
      const failed = change.successful === false || !change.to;
      updates.push({
        at,
        windowBegin: Date.parse(plan.window.begin),
        from: change.from ?? "",
        to: failed ? undefined : change.to,
        stuck: failed,
        forced: isForcedReason(change.reason),
        reason: change.reason,
      });
    }
  }
  return updates.filter((u) => Number.isFinite(u.at)).sort((a, b) => a.at - b.at);
}

/** Successful past changes of a lane, newest first. */
function pastUpdates(lane: Omit<TimelineLane, "bands" | "markers">, input: TimelineInput): Update[] {
  const updates: Update[] = [];
  for (const run of input.history ?? []) {
    if (run.state !== "Succeeded") continue;
    for (const change of run.changes) {
      if (change.target !== lane.target || change.kind !== lane.kind || !change.from || !change.to) continue;
      updates.push({
        at: Date.parse(run.at),
        from: change.from,
        to: change.to,
        stuck: false,
        forced: isForcedReason(change.reason ?? ""),
        reason: change.reason ?? "",
      });
    }
  }
  return updates.filter((u) => Number.isFinite(u.at) && u.at <= input.now).sort((a, b) => b.at - a.at);
}

interface Segment {
  readonly start: number;
  readonly end: number;
  readonly version: string;
}

/** Cuts a segment into bands where the version's classification changes. */
function bandsOf(segment: Segment, entry: ExpirableVersion | undefined): TimelineBand[] {
  const cuts = entry ? classificationChangeTimes(entry).filter((t) => t > segment.start && t < segment.end) : [];
  const edges = [segment.start, ...cuts, segment.end];
  const bands: TimelineBand[] = [];
  for (let i = 0; i < edges.length - 1; i++) {
    const [a, b] = [edges[i], edges[i + 1]];
    if (b <= a) continue;
    // A stage applies once its start lies strictly before the moment: the middle is safe.
    const classification = classificationOf(entry, a + (b - a) / 2);
    const last = bands[bands.length - 1];
    if (last && last.classification === classification && last.version === segment.version)
      bands[bands.length - 1] = { ...last, end: b };
    else bands.push({ start: a, end: b, version: segment.version, classification });
  }
  return bands;
}

/** The reason of a held rollout's mark: the spec asks for a version the window rolls out. */
export const HELD_ROLLOUT_REASON =
  "Asked in the spec, held for the maintenance window (confineSpecUpdateRollout): not rolled out yet";

/**
 * What the lane runs now (the plan's rollout: the last successful reconcile's version) and, when
 * the spec asks for another one, the update that brings it: in the next window when held for it,
 * else from now on (the reconcile under way rolls it out).
 */
function runningAndHeld(
  skeleton: Omit<TimelineLane, "bands" | "markers">,
  input: TimelineInput,
): { running: string; held?: Update } {
  const plan = input.plan;
  const change = plan?.rollout?.changes.find((c) => c.target === skeleton.target && c.kind === skeleton.kind);
  if (!plan?.rollout || !change) return { running: skeleton.version };
  if (plan.rollout.when !== "window") return { running: change.running };
  return {
    running: change.running,
    held: {
      at: Date.parse(plan.at),
      windowBegin: Date.parse(plan.window.begin),
      from: change.running,
      to: change.asked,
      stuck: false,
      forced: false,
      reason: HELD_ROLLOUT_REASON,
    },
  };
}

function buildLane(spec: Omit<TimelineLane, "bands" | "markers">, input: TimelineInput): TimelineLane {
  const { from, to, now } = input;
  const markers: TimelineMarker[] = [];
  const segments: Segment[] = [];
  const { running, held } = runningAndHeld(spec, input);
  const skeleton = { ...spec, version: running };

  // The past, walked backwards from now: before each update the lane ran the update's source.
  let version = skeleton.version;
  let end = now;
  for (const u of pastUpdates(skeleton, input)) {
    if (u.at <= from) break;
    if (u.to !== version) continue; // a change that does not lead to what runs now
    segments.unshift({ start: u.at, end, version });
    markers.push({ at: u.at, type: "past-update", version: u.from, to: u.to, reason: u.reason });
    version = u.from;
    end = u.at;
  }
  segments.unshift({ start: from, end, version: version });

  // The future, walked forwards from now: the held rollout first, then what maintenance does to
  // the asked version. Without a held rollout the asked version runs from now on.
  version = held ? running : spec.version;
  let start = now;
  for (const u of [...(held ? [held] : []), ...comingUpdates(skeleton, input)]) {
    if (u.at <= now || u.at > to) continue;
    if (u.stuck) {
      markers.push({ at: u.at, type: "stuck", version: u.from, windowBegin: u.windowBegin, reason: u.reason });
      continue;
    }
    if (!u.to || u.to === version) continue;
    segments.push({ start, end: u.at, version });
    markers.push({
      at: u.at,
      type: u.forced ? "forced" : "planned",
      version: u.from,
      to: u.to,
      windowBegin: u.windowBegin,
      reason: u.reason,
    });
    version = u.to;
    start = u.at;
  }
  segments.push({ start, end: to, version });

  const bands: TimelineBand[] = [];
  for (const segment of segments) {
    if (segment.end <= segment.start) continue;
    const entry = profileEntry(input.profile, skeleton.kind, skeleton.subject, segment.version);
    for (const band of bandsOf(segment, entry)) {
      const last = bands[bands.length - 1];
      if (
        last &&
        last.version === band.version &&
        last.classification === band.classification &&
        last.end === band.start
      )
        bands[bands.length - 1] = { ...last, end: band.end };
      else bands.push(band);
    }
    // An expiry shows where the lane runs the version at that moment.
    const expires = entry ? expiryTime(entry) : undefined;
    if (
      expires !== undefined &&
      Number.isFinite(expires) &&
      expires >= segment.start &&
      expires < segment.end &&
      expires >= from &&
      expires <= to
    ) {
      markers.push({ at: expires, type: "expiry", version: segment.version });
    }
  }
  markers.sort((a, b) => a.at - b.at);
  return { ...skeleton, bands, markers };
}

export function buildTimeline(input: TimelineInput): TimelineLane[] {
  return laneSkeletons(input.shoot).map((lane) => buildLane(lane, input));
}

/** The next `count` maintenance windows of the shoot (begin and end, epoch ms). */
export function comingWindows(shoot: Shoot, now: number, count: number): { begin: number; end: number }[] {
  const windows: { begin: number; end: number }[] = [];
  let from = now;
  for (let i = 0; i < count; i++) {
    const next = nextMaintenanceMoment(shoot, from);
    windows.push({ begin: next.begin, end: next.end });
    from = Math.max(next.end, next.at) + 1000;
  }
  return windows;
}

/** Month starts (UTC) between from and to, for the time axis. */
export function monthTicks(from: number, to: number): number[] {
  const ticks: number[] = [];
  const d = new Date(from);
  let t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  while (t <= to) {
    ticks.push(t);
    const m = new Date(t);
    t = Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1);
  }
  return ticks;
}

/** Mondays (UTC midnight) between from and to, for the near view's time axis. */
export function weekTicks(from: number, to: number): number[] {
  const day = DAY_MS;
  const d = new Date(from);
  const midnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const toMonday = (8 - new Date(midnight).getUTCDay()) % 7; // getUTCDay: 0 Sunday, 1 Monday
  const ticks: number[] = [];
  for (let t = midnight + toMonday * day; t <= to; t += 7 * day) if (t >= from) ticks.push(t);
  return ticks;
}

// The top of the lifecycle page in words: which version of the shoot expires first, what the
// maintenance controller will do about it and when, and whether the cluster will be stuck.
// Everything comes from the engine's answers (versions in use, the maintenance plan, the
// forecast); this file only picks the facts that matter and says them plainly.
import { isForcedReason } from "../engine/forecast.ts";
import { DAY_MS as DAY, HOUR_MS, MINUTE_MS, SECOND_MS } from "../engine/time-units.ts";
import type { VersionInUse } from "../engine/versions-in-use.ts";
import type { ForecastItem, MaintenancePlan, PlannedChange } from "./api-types.ts";
import { formatDate, formatSpan } from "./time.ts";

export type OutlookTone = "red" | "amber" | "green";

export interface Outlook {
  readonly tone: OutlookTone;
  /** "Kubernetes 1.30.11 expired on 4 Aug 2026." */
  readonly headline: string;
  /** What the next relevant window does about it. */
  readonly consequence?: string;
  /** Set when a forced update finds no version: the cluster will be stuck. */
  readonly stuck?: string;
  /** What the live countdown counts down to. */
  readonly countdown?: { readonly to: number; readonly label: string };
  /** The version the sentence is about. */
  readonly subject?: VersionInUse;
  /**
   * Further versions with an expiration date, as short phrases ("machine image gardenlinux
   * 1592.1.0 of pool "worker" on 27 Nov 2026").
   */
  readonly others: readonly string[];
}

const WARN_DAYS = 30; // the Gardener dashboard warns from 30 days before an expiry

/** "Kubernetes 1.30.11", `machine image gardenlinux 1592.1.0 of pool "worker"`. */
export function describeVersion(v: Pick<VersionInUse, "target" | "kind" | "name" | "version">): string {
  if (v.kind === "kubernetes")
    return v.target === "controlPlane" ? `Kubernetes ${v.version}` : `Kubernetes ${v.version} of pool "${v.target}"`;
  return `Machine image ${v.name} ${v.version} of pool "${v.target}"`;
}

// Inside a sentence: "machine image ..." (Kubernetes keeps its capital).
const lowerFirst = (s: string) => (s.startsWith("Machine image") ? `m${s.slice(1)}` : s);

const utcMoment = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

/**
 * A window's start for a sentence: "Mon 23 Nov, 22:00 UTC (23:00 CET)", or with the local day
 * when it differs ("Mon 23 Nov, 23:30 UTC (Tue 24 Nov, 00:30 CET)"); no local part in UTC.
 */
export function formatWindowStart(t: number, timeZone?: string): string {
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const utc = `${utcMoment.format(t)} UTC`;
  if (zone === "UTC" || zone === "Etc/UTC") return utc;
  const dayOf = (z: string) =>
    new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "numeric", timeZone: z }).format(t);
  const local = new Intl.DateTimeFormat("en-GB", {
    ...(dayOf(zone) === dayOf("UTC") ? {} : { weekday: "short", day: "numeric", month: "short" }),
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone: zone,
  }).format(t);
  return `${utc} (${local})`;
}

function sameLane(item: ForecastItem, v: VersionInUse): boolean {
  if (item.kind !== v.kind) return false;
  return v.target === "controlPlane"
    ? item.target === "controlPlane"
    : item.target === "worker" && item.worker === v.target;
}

/**
 * A planned change the engine cannot make: a forced update that finds no suitable version
 * (`successful: false`, no target). It is not a change; the cluster will be stuck.
 */
export const isFailedChange = (c: Pick<PlannedChange, "successful" | "to">): boolean => c.successful === false || !c.to;

/** How a planned change is labelled: it fails (stuck), it is forced, or it is automatic. */
export function changeType(c: Pick<PlannedChange, "successful" | "to" | "reason">): "failed" | "forced" | "automatic" {
  if (isFailedChange(c)) return "failed";
  return isForcedReason(c.reason) ? "forced" : "automatic";
}

/** The changes a plan really makes (failed ones left out), for "N changes". */
export const realChanges = <C extends Pick<PlannedChange, "successful" | "to">>(changes: readonly C[]): C[] =>
  changes.filter((c) => !isFailedChange(c));

const utcClock = new Intl.DateTimeFormat("en-GB", {
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});
const hhmm = (t: number) => utcClock.format(t);
const LAST_QUARTER_MS = 15 * MINUTE_MS;

/**
 * The window of a plan in words. The plan's window is the effective one (Gardener starts
 * maintenance no later than 15 minutes before the configured end), so the configured end is
 * 15 minutes later: "window 22:00–23:00 UTC (maintenance starts by 22:45)". Without a configured
 * window maintenance may run at any time of day.
 */
export function describePlanWindow(
  window: { readonly begin: string; readonly end: string },
  configured: boolean,
): string {
  if (!configured) return "no window set: maintenance may run at any time of day";
  const begin = Date.parse(window.begin);
  const effectiveEnd = Date.parse(window.end);
  return `window ${hhmm(begin)}–${hhmm(effectiveEnd + LAST_QUARTER_MS)} UTC (maintenance starts by ${hhmm(effectiveEnd)})`;
}

export interface OutlookInput {
  readonly versions: readonly VersionInUse[];
  /** Forecast items of this shoot, any order. */
  readonly forecast: readonly ForecastItem[];
  readonly plan?: MaintenancePlan;
  readonly now: number;
  readonly timeZone?: string;
  readonly cloudProfile?: string;
}

export function describeOutlook(input: OutlookInput): Outlook {
  const { versions, plan, now, timeZone } = input;
  const forecast = [...input.forecast]
    .filter((i) => i.at !== null)
    .sort((a, b) => Date.parse(a.at!) - Date.parse(b.at!));
  const when = (t: string | number) => formatWindowStart(typeof t === "number" ? t : Date.parse(t), timeZone);
  const expiring = versions.filter((v) => v.expiresAt !== undefined).sort((a, b) => a.expiresAt! - b.expiresAt!);

  // Stuck anywhere is the most urgent fact, whichever version it concerns.
  const stuckItem = forecast.find((i) => i.stuck);
  const stuck = stuckItem
    ? `${stuckItem.target === "controlPlane" ? "The control plane" : `Pool "${stuckItem.worker}"`} cannot leave ${stuckItem.kind === "kubernetes" ? "Kubernetes" : "machine image"} ${stuckItem.from}: ` +
      `the maintenance window on ${when(stuckItem.window?.begin ?? stuckItem.at!)} must update it, but the cloud profile${input.cloudProfile ? ` "${input.cloudProfile}"` : ""} offers no suitable version, so the cluster will be stuck. ` +
      "Ask the landscape administrators to add a version, or update the cluster yourself before then if a newer version exists."
    : undefined;

  const subject = expiring[0];
  if (!subject) {
    const deprecated = versions.filter((v) => v.classification === "deprecated");
    return {
      tone: stuck ? "red" : deprecated.length > 0 ? "amber" : "green",
      headline: "Nothing expires: every version this cluster uses is supported with no expiration date.",
      ...(deprecated.length > 0
        ? {
            headline: `Nothing expires yet: no version this cluster uses has an expiration date, but ${deprecated.map((v) => lowerFirst(describeVersion(v))).join(", ")} ${deprecated.length === 1 ? "is" : "are"} deprecated.`,
            consequence: "Plan the update: an expiration date may be set at any time.",
          }
        : {}),
      ...(stuck ? { stuck } : {}),
      others: [],
    };
  }

  const expired = subject.expiresAt! <= now;
  const name = describeVersion(subject);
  const headline = expired
    ? `${name} expired on ${formatDate(subject.expiresAt!)}.`
    : `${name} expires on ${formatDate(subject.expiresAt!)}, in ${formatSpan(subject.expiresAt! - now)}.`;

  // What happens to it: the next window's plan first (it includes automatic updates), then the
  // forecast (forced updates, chained).
  const planned = plan?.changes.find(
    (c) =>
      c.target === subject.target &&
      c.kind === subject.kind &&
      c.from === subject.version &&
      c.successful !== false &&
      !!c.to,
  );
  const forced = forecast.find((i) => sameLane(i, subject) && i.from === subject.version);
  let consequence: string | undefined;
  let countdown: Outlook["countdown"];
  if (planned && plan && (!forced || Date.parse(plan.window.begin) <= Date.parse(forced.window?.begin ?? forced.at!))) {
    const windowAt = Date.parse(plan.window.begin);
    const force = isForcedReason(planned.reason);
    consequence = force
      ? `The maintenance window on ${when(windowAt)} will force it to ${planned.to}.`
      : `Automatic updates are on: the maintenance window on ${when(windowAt)} updates it to ${planned.to}${expired ? "" : " before it expires"}.`;
    if (expired)
      countdown = {
        to: windowAt,
        label: `until the window that ${force ? "forces" : "updates"} ${subject.version} to ${planned.to}`,
      };
  } else if (forced && !forced.stuck) {
    const windowAt = Date.parse(forced.window?.begin ?? forced.at!);
    consequence = `The maintenance window on ${when(windowAt)} will force it to ${forced.to}.`;
    if (expired) countdown = { to: windowAt, label: `until the window that forces ${subject.version} to ${forced.to}` };
  } else if (!forced) {
    consequence = expired
      ? "The next maintenance window will force an update to a supported version."
      : "The first maintenance window after that date will force an update to a supported version.";
  }
  if (!expired) countdown = { to: subject.expiresAt!, label: `until ${subject.version} expires` };

  const others = expiring
    .slice(1)
    .map(
      (v) =>
        `${lowerFirst(describeVersion(v))} ${v.expiresAt! <= now ? "expired" : "expires"} on ${formatDate(v.expiresAt!)}`,
    );
  const soon = subject.expiresAt! - now <= WARN_DAYS * DAY;
  return {
    tone: stuck || expired ? "red" : soon ? "amber" : "green",
    headline,
    ...(consequence ? { consequence } : {}),
    ...(stuck ? { stuck } : {}),
    ...(countdown ? { countdown } : {}),
    subject,
    others,
  };
}

/**
 * A countdown's parts, seconds included so that it visibly ticks: [3 d] [04 h] [12 min] [09 s];
 * days are left out under a day. All zero once the moment has passed.
 */
export function countdownParts(to: number, now: number): { value: string; unit: string }[] {
  const left = Math.max(0, to - now);
  const d = Math.floor(left / DAY);
  const h = Math.floor((left % DAY) / HOUR_MS);
  const m = Math.floor((left % HOUR_MS) / MINUTE_MS);
  const s = Math.floor((left % MINUTE_MS) / SECOND_MS);
  const pad = (n: number) => String(n).padStart(2, "0");
  return [
    ...(d > 0 ? [{ value: String(d), unit: "d" }] : []),
    { value: pad(h), unit: "h" },
    { value: pad(m), unit: "min" },
    { value: pad(s), unit: "s" },
  ];
}

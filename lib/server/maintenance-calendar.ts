// GET /api/v1/namespaces/{ns}/shoots/{name}/calendar.ics and /api/v1/namespaces/{ns}/calendar.ics:
// the coming maintenance windows of one shoot or of every shoot in a project's namespace, and the
// forced updates the forecast sees in them, as an iCalendar file (RFC 5545, written by
// ical-generator), every time in UTC. Each window is an event (the window as the shoot sets it,
// with the moment Gardener's maintenance runs in it), and each forced update another, from that
// moment to the window's end, so a calendar shows what will change and when.
import { config } from "../config/load-config.ts";
import ical, { ICalCalendarMethod } from "ical-generator";
import { CALENDAR_DAYS } from "../api/export.ts";
import type { Db } from "../db/client.ts";
import { forecast, type ForecastItem } from "../engine/forecast.ts";
import { nextMaintenanceMoment } from "../engine/maintenance-moment.ts";
import { parseTimeWindow } from "../engine/time-window.ts";
import { DAY_MS, MINUTE_MS } from "../engine/time-units.ts";
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import { allShoots } from "../store/shoots.ts";
import { findProjectByNamespace } from "../store/projects.ts";
import { notFound } from "../api/refusal.ts";
import { getShoot } from "./get-shoot.ts";

/**
 * Text as an iCalendar TEXT value (RFC 5545, 3.3.11): backslash, semicolon and comma escaped,
 * every line break written as \n, other control characters dropped. ical-generator does this for
 * summaries and descriptions, not for the calendar's name, which holds the path's namespace.
 */
export const icalText = (text: string): string =>
  text
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(/\r\n|\r|\n/g, "\\n")
    .replace(/\p{Cc}/gu, "");

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** The occurrences of the shoot's maintenance window from `from` until `until` (epoch ms). */
export function maintenanceWindows(shoot: Shoot, from: number, until: number) {
  // A shoot being deleted is not maintained (the controller skips it).
  if (shoot.metadata.deletionTimestamp) return [];
  const tw = shoot.spec.maintenance?.timeWindow;
  const set = ((): boolean => {
    try {
      return tw !== undefined && parseTimeWindow(tw.begin, tw.end) !== undefined;
    } catch {
      return false;
    }
  })();
  const windows: { begin: number; end: number; at: number }[] = [];
  for (let t = from; windows.length < CALENDAR_DAYS * 2 + 2;) {
    const moment = nextMaintenanceMoment(shoot, t);
    if (moment.begin >= until) break;
    // The event is the window the shoot sets; maintenance runs in it up to 15 minutes before its end.
    windows.push({ begin: moment.begin, end: set ? moment.end + 15 * MINUTE_MS : moment.end, at: moment.at });
    t = moment.at + 1;
  }
  return windows;
}

const what = (i: ForecastItem) =>
  `${i.target === "controlPlane" ? "control plane" : `pool ${i.worker}`} ${i.kind === "kubernetes" ? "Kubernetes" : "machine image"} ${i.from}${i.to ? ` → ${i.to}` : ""}`;

/** How many clusters a shared window's event names; the rest are counted. */
const NAMED = 50;

/** Links to Almanac's pages: a shoot's, or (without a name) the fleet filtered to a namespace. */
export type PageLink = (namespace: string, name?: string) => string;

/**
 * The calendar of `shoots` from `now` for the next CALENDAR_DAYS days. Clusters that share a
 * window occurrence share its event (a project may hold thousands of clusters in a few windows);
 * each forced update is an event of its own. `id` keeps the events' UIDs stable per calendar.
 */
export function maintenanceCalendar(
  title: string,
  id: string,
  shoots: readonly Shoot[],
  profiles: ReadonlyMap<string, CloudProfile>,
  now: number,
  link?: PageLink,
): string {
  const until = now + CALENDAR_DAYS * DAY_MS;
  const calendar = ical({
    name: icalText(title),
    prodId: { company: "Almanac", product: "Maintenance calendar", language: "EN" },
    method: ICalCalendarMethod.PUBLISH,
    ttl: 60 * 60,
  });
  const sorted = [...shoots].sort((a, b) =>
    `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`),
  );
  // The engine's forecast, as the forecast page has it (shoots it cannot forecast still have windows).
  const updates = forecast(sorted, profiles, now, until).items;
  const updatesAt = new Map<string, ForecastItem[]>();
  for (const u of updates) {
    const key = `${u.namespace}/${u.name}|${Date.parse(u.at)}`;
    updatesAt.set(key, [...(updatesAt.get(key) ?? []), u]);
  }
  type Occurrence = { begin: number; end: number; members: { shoot: Shoot; at: number; updates: ForecastItem[] }[] };
  const occurrences = new Map<string, Occurrence>();
  for (const shoot of sorted) {
    const key = `${shoot.metadata.namespace}/${shoot.metadata.name}`;
    for (const w of maintenanceWindows(shoot, now, until)) {
      const slot = `${shoot.metadata.namespace}|${w.begin}|${w.end}`;
      const occurrence = occurrences.get(slot) ?? { begin: w.begin, end: w.end, members: [] };
      occurrence.members.push({ shoot, at: w.at, updates: updatesAt.get(`${key}|${w.at}`) ?? [] });
      occurrences.set(slot, occurrence);
    }
  }
  const stamp = new Date(now);
  const byKey = new Map(sorted.map((s) => [`${s.metadata.namespace}/${s.metadata.name}`, s]));
  for (const { begin, end, members } of [...occurrences.values()].sort((a, b) => a.begin - b.begin)) {
    const namespace = members[0].shoot.metadata.namespace ?? "";
    const forced = members.reduce((n, m) => n + m.updates.length, 0);
    const forcedText = forced > 0 ? ` (${forced} forced update${forced === 1 ? "" : "s"})` : "";
    const one = members.length === 1 ? members[0].shoot.metadata.name : undefined;
    const url = link?.(namespace, one);
    calendar.createEvent({
      id: `maintenance-${encodeURIComponent(id)}-${encodeURIComponent(namespace)}-${new Date(begin).toISOString()}-${new Date(end).toISOString()}@almanac`,
      stamp,
      start: new Date(begin),
      end: new Date(end),
      summary: `Maintenance window: ${one ? `${namespace}/${one}` : `${members.length} clusters in ${namespace}`}${forcedText}`,
      description: one
        ? [
            `Gardener maintains shoot ${one} (namespace ${namespace}) at ${hhmm(members[0].at)} UTC in this window.`,
            ...members[0].updates.map((u) => u.message),
          ].join("\n")
        : `Gardener maintains ${members.length} clusters of ${namespace} in this window: ${members
            .slice(0, NAMED)
            .map((m) => `${m.shoot.metadata.name} at ${hhmm(m.at)} UTC`)
            .join(", ")}${members.length > NAMED ? ` and ${members.length - NAMED} more` : ""}.`,
      ...(url ? { url } : {}),
    });
  }
  for (const u of updates) {
    const at = Date.parse(u.at);
    const shoot = byKey.get(`${u.namespace}/${u.name}`);
    const url = link?.(u.namespace, u.name);
    calendar.createEvent({
      id: `forced-${encodeURIComponent(shoot?.metadata.uid ?? `${u.namespace}.${u.name}`)}-${u.target}-${u.worker ?? ""}-${u.kind}-${u.from}-${u.at}@almanac`,
      stamp,
      start: new Date(at),
      end: new Date(Math.max(at + MINUTE_MS, Date.parse(u.window.end))),
      summary: `${u.stuck ? "Stuck forced update" : "Forced update"}: ${u.namespace}/${u.name} ${what(u)}`,
      description: u.stuck && u.error ? `${u.message}\n${u.error}` : u.message,
      ...(url ? { url } : {}),
    });
  }
  // RFC 5545 ends every content line, the last one too, with CRLF.
  return `${calendar.toString()}\r\n`;
}

export async function shootCalendar(db: Db, namespace: string, name: string, now: number, link?: PageLink) {
  const [{ shoot }, profiles] = await Promise.all([getShoot(db, namespace, name), cachedCloudProfiles(db, now)]);
  return {
    filename: `${name}-maintenance.ics`,
    text: maintenanceCalendar(
      `Maintenance of ${namespace}/${name}`,
      shoot.metadata.uid ?? name,
      [shoot],
      profiles,
      now,
      link,
    ),
  };
}

export async function namespaceCalendar(db: Db, namespace: string, now: number, link?: PageLink) {
  const [shoots, profiles, project] = await Promise.all([
    allShoots(db, [namespace]),
    cachedCloudProfiles(db, now),
    findProjectByNamespace(db, namespace),
  ]);
  // A namespace that is no project's and holds no shoot is not there: 404, not an empty calendar.
  if (!project && shoots.length === 0) throw notFound(`No project has the namespace ${namespace}.`);
  return {
    filename: `${namespace}-maintenance.ics`,
    text: maintenanceCalendar(`Maintenance in ${namespace}`, namespace, shoots, profiles, now, link),
  };
}

/** Links to Almanac's pages under its public address (ALMANAC_PUBLIC_URL, else the request's). */
export function pageLinks(requestUrl: string): PageLink {
  const base = (config().server.publicUrl ?? new URL(requestUrl).origin).replace(/\/+$/, "");
  return (namespace, name) =>
    name === undefined
      ? `${base}/shoots?namespace=${encodeURIComponent(namespace)}`
      : `${base}/shoots/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
}

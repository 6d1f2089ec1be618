"use client";

// What a window means in time: how it is stored (Gardener's fixed offset), where it falls on the
// chosen zone's clock and in UTC, the next occurrences, and the daylight saving change that will
// move it on the local clock.
import { CalendarClock, SunMoon } from "lucide-react";
import {
  clockInZone,
  dayLabelInZone,
  daylightSavingNotice,
  describeMinutes,
  nextOccurrences,
  windowOnClock,
  zoneAbbreviation,
  type StoredWindow,
} from "@/lib/ui/maintenance-window";
import { describeOffset, offsetMinutes, parseGardenerTime, zoneWithOffset } from "@/lib/ui/time-zones";
import { formatBoth } from "@/lib/ui/time";

export function StoredWindowLine({
  stored,
  zone,
  at,
  onZone,
}: {
  stored?: StoredWindow;
  zone: string;
  at: Date;
  onZone: (zone: string) => void;
}) {
  if (!stored) {
    return (
      <p className="text-xs text-slate-600">
        This cluster has no maintenance window: maintenance may run at any time of day (the whole day is its window).
        Set one to keep updates to a time that suits you.
      </p>
    );
  }
  const offset = parseGardenerTime(stored.begin)?.offsetMinutes;
  const clock = windowOnClock(stored, zone, at);
  // A window saved on another clock: offer a named zone that has its offset today.
  const suggestion =
    offset !== undefined && offset !== offsetMinutes(zone, at) ? zoneWithOffset(offset, at) : undefined;
  return (
    <p className="text-xs text-slate-600">
      Stored as <code className="rounded bg-slate-100 px-1 font-mono text-[11px] text-slate-800">{stored.begin}</code>–
      <code className="rounded bg-slate-100 px-1 font-mono text-[11px] text-slate-800">{stored.end}</code>
      {offset !== undefined && <> (fixed offset {describeOffset(offset)})</>}
      {clock && (
        <>
          : {clock.start}–{clock.end} {zoneAbbreviation(at, zone)}, {describeMinutes(clock.durationMinutes)}.
        </>
      )}
      {suggestion && (
        <>
          {" "}
          <button
            type="button"
            onClick={() => onZone(suggestion)}
            className="rounded font-medium text-accent-700 underline decoration-dotted underline-offset-2 hover:text-accent-600 focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            Show in {suggestion}
          </button>
        </>
      )}
    </p>
  );
}

export function WindowPreview({
  window,
  zone,
  at,
  edited,
}: {
  window: StoredWindow;
  zone: string;
  at: Date;
  edited: boolean;
}) {
  const occurrences = nextOccurrences(window, at, 3);
  const notice = daylightSavingNotice(window, zone, at);
  return (
    <div className="space-y-3">
      {notice && (
        <div
          role="note"
          className="flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-xs text-amber-900 ring-1 ring-inset ring-amber-600/25"
        >
          <SunMoon aria-hidden className="mt-px size-4 shrink-0 text-amber-600" />
          <p>
            <span className="font-semibold">Daylight saving: </span>
            {notice.message}{" "}
            <span className="text-amber-800">
              Edit the window again after that date to keep it at the same local time.
            </span>
          </p>
        </div>
      )}
      <div>
        <h3 className="flex items-center gap-1.5 text-xs font-medium text-slate-700">
          <CalendarClock aria-hidden className="size-3.5 text-slate-500" />
          Next windows{edited ? " (as edited, not saved yet)" : ""}
        </h3>
        <table className="mt-1.5 w-full text-xs">
          <thead className="sr-only">
            <tr>
              <th>Day</th>
              <th>{zone}</th>
              <th>UTC</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {occurrences.map((o) => (
              <tr key={o.start.toISOString()} title={`${formatBoth(o.start)} – ${formatBoth(o.end)}`}>
                <td className="py-1 pr-2 text-slate-600">{dayLabelInZone(o.start, zone)}</td>
                <td className="py-1 pr-2 font-medium tabular-nums text-slate-900">
                  {clockInZone(o.start, zone)}–{clockInZone(o.end, zone)}{" "}
                  <span className="font-normal text-slate-500">{zoneAbbreviation(o.start, zone)}</span>
                </td>
                <td className="py-1 text-right tabular-nums text-slate-500">
                  {clockInZone(o.start, "UTC")}–{clockInZone(o.end, "UTC")} UTC
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

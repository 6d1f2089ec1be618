"use client";

// The window's inputs: the time zone whose clock the times are on (a searchable list of IANA
// names), the start, and either the end or the duration.
import { useMemo, useState } from "react";
import type { MaintenanceForm, UntilMode } from "@/lib/ui/maintenance-form";
import { describeMinutes } from "@/lib/ui/maintenance-window";
import { describeOffset, isTimeZone, offsetMinutes, timeZoneNames } from "@/lib/ui/time-zones";
import { FieldMessage, inputClass } from "./field-message";

export interface WindowFieldMessages {
  readonly zone?: string;
  readonly start?: string;
  readonly end?: string;
  readonly duration?: string;
}

export function MaintenanceWindowFields({
  form,
  zoneText,
  at,
  messages,
  onZoneText,
  onChange,
  locked = false,
  lockedWhy,
}: {
  form: MaintenanceForm;
  zoneText: string;
  at: Date;
  messages: WindowFieldMessages;
  onZoneText: (text: string) => void;
  onChange: (change: Partial<MaintenanceForm>) => void;
  /** The caller's role may not change the times (the zone only changes the view); `lockedWhy` says why. */
  locked?: boolean;
  lockedWhy?: string;
}) {
  // A few hundred zones with their offset today, as the list's hints: a formatter per zone costs
  // about 100 ms in all, so the list is built when the field is first used, not with the page.
  const [listWanted, setListWanted] = useState(false);
  const zones = useMemo(
    () =>
      listWanted
        ? timeZoneNames().map((name) => ({ name, offset: describeOffset(offsetMinutes(name, new Date())) }))
        : [],
    [listWanted],
  );
  const zoneOffset = isTimeZone(zoneText) ? describeOffset(offsetMinutes(zoneText, at)) : undefined;
  const untilMessage = form.mode === "end" ? messages.end : messages.duration;
  const duration = Number(form.duration);
  const describedBy = (id: string, message?: string) => (message ? id : undefined);

  return (
    <div className="space-y-3">
      <div>
        <label htmlFor="maintenance-zone" className="block text-xs font-medium text-slate-700">
          Time zone
        </label>
        <div className="mt-1 flex items-center gap-2">
          <input
            id="maintenance-zone"
            list="maintenance-zone-names"
            value={zoneText}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => onZoneText(e.target.value)}
            onFocus={() => setListWanted(true)}
            onPointerEnter={() => setListWanted(true)}
            aria-invalid={!!messages.zone}
            aria-describedby={describedBy("maintenance-zone-error", messages.zone) ?? "maintenance-zone-hint"}
            className={inputClass(!!messages.zone, "min-w-0 flex-1")}
          />
          <span id="maintenance-zone-hint" className="shrink-0 text-xs tabular-nums text-slate-500">
            {zoneOffset ? `${zoneOffset} now` : ""}
          </span>
        </div>
        <datalist id="maintenance-zone-names">
          {zones.map((z) => (
            <option key={z.name} value={z.name}>
              {z.offset}
            </option>
          ))}
        </datalist>
        <FieldMessage id="maintenance-zone-error" message={messages.zone} />
      </div>

      <fieldset
        disabled={locked}
        aria-describedby={lockedWhy}
        className="grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)] gap-x-3 gap-y-1"
      >
        <legend className="sr-only">The window</legend>
        <div>
          <label htmlFor="maintenance-start" className="block text-xs font-medium text-slate-700">
            Start
          </label>
          <input
            id="maintenance-start"
            value={form.start}
            inputMode="numeric"
            placeholder="22:00"
            autoComplete="off"
            onChange={(e) => onChange({ start: e.target.value })}
            aria-invalid={!!messages.start}
            aria-describedby={describedBy("maintenance-start-error", messages.start)}
            className={inputClass(!!messages.start, "mt-1 w-full tabular-nums")}
          />
        </div>
        <div>
          <fieldset>
            <legend className="sr-only">The window ends</legend>
            <div className="flex items-center gap-3 text-xs font-medium text-slate-700">
              {(["end", "duration"] as UntilMode[]).map((mode) => (
                <label key={mode} className="inline-flex cursor-pointer items-center gap-1">
                  <input
                    type="radio"
                    name="maintenance-until"
                    value={mode}
                    checked={form.mode === mode}
                    onChange={() => onChange({ mode })}
                    className="size-3.5 accent-accent-600 focus-visible:outline-2 focus-visible:outline-accent-600"
                  />
                  {mode === "end" ? "End" : "Duration"}
                </label>
              ))}
            </div>
          </fieldset>
          {form.mode === "end" ? (
            <input
              id="maintenance-end"
              aria-label="End time"
              value={form.end}
              inputMode="numeric"
              placeholder="00:00"
              autoComplete="off"
              onChange={(e) => onChange({ end: e.target.value })}
              aria-invalid={!!untilMessage}
              aria-describedby={describedBy("maintenance-until-error", untilMessage)}
              className={inputClass(!!untilMessage, "mt-1 w-28 tabular-nums")}
            />
          ) : (
            <div className="mt-1 flex items-center gap-2">
              <input
                id="maintenance-duration"
                aria-label="Duration in minutes"
                value={form.duration}
                inputMode="numeric"
                autoComplete="off"
                onChange={(e) => onChange({ duration: e.target.value })}
                aria-invalid={!!untilMessage}
                aria-describedby={describedBy("maintenance-until-error", untilMessage)}
                className={inputClass(!!untilMessage, "w-20 tabular-nums")}
              />
              <span className="text-xs text-slate-500">
                min{Number.isInteger(duration) && duration > 0 ? ` (${describeMinutes(duration)})` : ""}
              </span>
            </div>
          )}
          <FieldMessage id="maintenance-until-error" message={untilMessage} />
        </div>
        <div className="col-span-2">
          <FieldMessage id="maintenance-start-error" message={messages.start} />
        </div>
      </fieldset>
      <p className="text-xs text-slate-500">
        Gardener accepts windows from 30 minutes to 6 hours and starts maintenance at a fixed moment inside the window,
        no later than 15 minutes before it ends.
      </p>
    </div>
  );
}

"use client";

// One hibernation schedule's inputs: when to hibernate and when to wake up (each a cron line, as
// Gardener reads it: minute hour day-of-month month day-of-week), the IANA zone those are read in,
// the schedule in words as it is typed, and each field's problem beside it.
import { Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FieldMessage, inputClass } from "@/components/shoot/field-message";
import type { RowProblems, ScheduleField, ScheduleRow } from "@/lib/ui/hibernation-form";

export const ZONE_LIST_ID = "hibernation-zone-names";

export function ScheduleRowFields({
  row,
  index,
  problems,
  words,
  locked,
  onChange,
  onRemove,
  onZoneListWanted,
}: {
  row: ScheduleRow;
  index: number;
  problems: RowProblems;
  /** The schedule in words, when it parses. */
  words?: string;
  locked: boolean;
  onChange: (change: Partial<Record<ScheduleField, string>>) => void;
  onRemove: () => void;
  /** The zone list is built when a zone field is first used (a few hundred zones). */
  onZoneListWanted: () => void;
}) {
  const id = (field: string) => `hibernation-${row.key}-${field}`;
  const number = index + 1;
  const errorOf = (field: ScheduleField) => (problems[field] ? id(`${field}-error`) : undefined);
  return (
    <li className="rounded-lg p-3 ring-1 ring-slate-200" aria-labelledby={id("title")}>
      <div className="flex items-center justify-between gap-2">
        <h4 id={id("title")} className="text-xs font-semibold uppercase tracking-wide text-slate-500">
          Schedule {number}
        </h4>
        {!locked && (
          <Button
            variant="ghost"
            className="-my-1 !px-2 !py-1 text-xs"
            onClick={onRemove}
            aria-label={`Remove schedule ${number}`}
          >
            <Trash2 aria-hidden className="size-3.5" />
            Remove
          </Button>
        )}
      </div>
      <div className="mt-2 grid grid-cols-1 gap-x-3 gap-y-2 sm:grid-cols-2">
        <div className="min-w-0">
          <label htmlFor={id("start")} className="block text-xs font-medium text-slate-700">
            Hibernate at <span className="font-normal text-slate-500">(cron)</span>
          </label>
          <input
            id={id("start")}
            value={row.start}
            placeholder="00 19 * * 1-5"
            autoComplete="off"
            spellCheck={false}
            disabled={locked}
            onChange={(e) => onChange({ start: e.target.value })}
            aria-invalid={!!problems.start}
            aria-describedby={errorOf("start") ?? "hibernation-cron-hint"}
            className={inputClass(!!problems.start, "mt-1 w-full font-mono")}
          />
          <FieldMessage id={id("start-error")} message={problems.start} />
        </div>
        <div className="min-w-0">
          <label htmlFor={id("end")} className="block text-xs font-medium text-slate-700">
            Wake up at <span className="font-normal text-slate-500">(cron)</span>
          </label>
          <input
            id={id("end")}
            value={row.end}
            placeholder="00 07 * * 1-5"
            autoComplete="off"
            spellCheck={false}
            disabled={locked}
            onChange={(e) => onChange({ end: e.target.value })}
            aria-invalid={!!problems.end}
            aria-describedby={errorOf("end") ?? "hibernation-cron-hint"}
            className={inputClass(!!problems.end, "mt-1 w-full font-mono")}
          />
          <FieldMessage id={id("end-error")} message={problems.end} />
        </div>
        <div className="min-w-0 sm:col-span-2">
          <label htmlFor={id("location")} className="block text-xs font-medium text-slate-700">
            Time zone
          </label>
          <input
            id={id("location")}
            list={ZONE_LIST_ID}
            value={row.location}
            placeholder="UTC (Gardener's default)"
            autoComplete="off"
            spellCheck={false}
            disabled={locked}
            onChange={(e) => onChange({ location: e.target.value })}
            onFocus={onZoneListWanted}
            onPointerEnter={onZoneListWanted}
            aria-invalid={!!problems.location}
            aria-describedby={errorOf("location")}
            className={inputClass(!!problems.location, "mt-1 w-full")}
          />
          <FieldMessage id={id("location-error")} message={problems.location} />
        </div>
      </div>
      <FieldMessage id={id("row-error")} message={problems.row} />
      {words && (
        <p data-testid="schedule-words" className="mt-2 text-sm text-slate-700">
          {words}
        </p>
      )}
    </li>
  );
}

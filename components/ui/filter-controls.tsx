"use client";

// Labelled filter controls for the fleet-wide pages: every control has a visible label, a focus
// ring and a native element underneath (so the keyboard and screen readers just work).
import { useId, type ReactNode } from "react";

const FIELD =
  "rounded-md border-0 bg-white py-1.5 text-sm shadow-sm ring-1 ring-inset focus:outline-2 focus:outline-offset-0 focus:outline-accent-600";
// Colours kept out of FIELD: of two utilities for one property, the stylesheet's order wins, not
// the class list's, so a control gets exactly one of these.
const IDLE = "text-slate-900 ring-slate-300";
const SET = "text-accent-700 ring-accent-500";

/** A label above its control; the control gets `id` so that the label names exactly it. */
function FilterLabel({
  label,
  id,
  children,
  className = "",
}: {
  label: string;
  id: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-xs font-medium text-slate-600">
        {label}
      </label>
      {children}
    </div>
  );
}

/** A select with an "all" choice first; a value that is set shows in the accent colour. */
export function SelectFilter({
  label,
  value,
  onChange,
  options,
  allLabel = "All",
  className = "",
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  options: readonly { value: string; label: string; disabled?: boolean }[];
  allLabel?: string;
  className?: string;
}) {
  const id = useId();
  return (
    <FilterLabel label={label} id={id} className={className}>
      <select
        id={id}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || undefined)}
        className={`${FIELD} pl-2.5 pr-8 ${value ? SET : IDLE}`}
      >
        <option value="">{allLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
    </FilterLabel>
  );
}

export function TextFilter({
  label,
  value,
  onChange,
  placeholder,
  type = "text",
  className = "",
  list,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  type?: "text" | "date" | "search";
  className?: string;
  list?: string;
}) {
  const id = useId();
  return (
    <FilterLabel label={label} id={id} className={className}>
      <input
        id={id}
        type={type}
        value={value}
        placeholder={placeholder}
        list={list}
        onChange={(e) => onChange(e.target.value)}
        className={`${FIELD} ${IDLE} px-2.5`}
      />
    </FilterLabel>
  );
}

/** A row of mutually exclusive toggle buttons, e.g. "Day | Week" (the pressed one is the choice). */
export function SegmentedControl<T extends string | number>({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: T;
  onChange: (value: T) => void;
  options: readonly { value: T; label: string }[];
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <span id={id} className="text-xs font-medium text-slate-600">
        {label}
      </span>
      <div
        role="group"
        aria-labelledby={id}
        className="inline-flex rounded-md bg-white p-0.5 shadow-sm ring-1 ring-inset ring-slate-300"
      >
        {options.map((o) => {
          const active = o.value === value;
          return (
            <button
              key={String(o.value)}
              type="button"
              aria-pressed={active}
              onClick={() => onChange(o.value)}
              className={`rounded px-2.5 py-1 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent-600 ${active ? "bg-accent-600 text-white shadow-sm" : "text-slate-700 hover:bg-slate-100"}`}
            >
              {o.label}
            </button>
          );
        })}
      </div>
    </div>
  );
}

export function CheckboxFilter({
  label,
  checked,
  onChange,
  hint,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
}) {
  return (
    <label className="flex items-center gap-2 self-end pb-1.5 text-sm text-slate-700" title={hint}>
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="size-4 rounded border-slate-300 text-accent-600 accent-[var(--color-accent-600)] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
      />
      {label}
    </label>
  );
}

"use client";

// The new run's own controls, in the look of components/ui/form-field.tsx: a group of radio
// choices (a fieldset with its legend), a duration (a number and its unit, both labelled), and a
// text area; each shows its hint or the server's problem beside it.
import { AlertCircle } from "lucide-react";
import { useId, type ReactNode, type TextareaHTMLAttributes } from "react";
import { DURATION_UNITS, type DurationUnit } from "@/lib/ui/update-run-form";

const CONTROL =
  "rounded-md border-0 bg-white px-2.5 py-1.5 text-sm text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-inset";
const ring = (invalid: boolean) =>
  invalid ? "ring-red-400 focus:ring-red-500" : "ring-slate-300 focus:ring-accent-600";

export function Problem({ id, text }: { id: string; text?: string }) {
  if (!text) return null;
  return (
    <p id={id} role="alert" className="mt-1 flex items-start gap-1 text-xs font-medium text-red-700">
      <AlertCircle aria-hidden className="mt-px size-3.5 shrink-0" />
      <span>{text}</span>
    </p>
  );
}

/** Radio choices as cards: a word, and a line that says what it means. */
export function ChoiceGroup<T extends string>({
  legend,
  name,
  value,
  onChange,
  options,
  error,
  className = "",
}: {
  legend: string;
  name: string;
  value: T;
  onChange: (value: T) => void;
  options: readonly { value: T; label: string; hint?: string }[];
  error?: string;
  className?: string;
}) {
  const id = useId();
  return (
    <fieldset className={className} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-1.5 text-sm font-medium text-slate-700">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-[repeat(auto-fit,minmax(12rem,1fr))]">
        {options.map((o) => (
          <label
            key={o.value}
            className={`flex cursor-pointer items-start gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-inset has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent-600 ${o.value === value ? "bg-accent-50 ring-accent-500" : "bg-white ring-slate-300 hover:bg-slate-50"}`}
          >
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={o.value === value}
              onChange={() => onChange(o.value)}
              className="mt-0.5 size-4 accent-[var(--color-accent-600)] focus:outline-none"
            />
            <span>
              <span className="block font-medium text-slate-900">{o.label}</span>
              {o.hint && <span className="block text-xs text-slate-600">{o.hint}</span>}
            </span>
          </label>
        ))}
      </div>
      <Problem id={`${id}-error`} text={error} />
    </fieldset>
  );
}

/** A number and its unit (seconds to days). */
export function DurationField({
  label,
  value,
  unit,
  onChange,
  hint,
  error,
  disabled = false,
  placeholder,
}: {
  label: string;
  value: string;
  unit: DurationUnit;
  onChange: (value: string, unit: DurationUnit) => void;
  hint?: ReactNode;
  error?: string;
  disabled?: boolean;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          type="number"
          min={0}
          inputMode="numeric"
          value={value}
          placeholder={placeholder}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value, unit)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
          className={`${CONTROL} ${ring(!!error)} w-24 disabled:bg-slate-50 disabled:text-slate-400`}
        />
        <select
          aria-label={`${label}: unit`}
          value={unit}
          disabled={disabled}
          onChange={(e) => onChange(value, e.target.value as DurationUnit)}
          className={`${CONTROL} ${ring(false)} pr-8 disabled:bg-slate-50 disabled:text-slate-400`}
        >
          {DURATION_UNITS.map((u) => (
            <option key={u.value} value={u.value}>
              {u.label}
            </option>
          ))}
        </select>
      </div>
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      <Problem id={`${id}-error`} text={error} />
    </div>
  );
}

export function TextAreaField({
  label,
  hint,
  error,
  ...area
}: { label: string; hint?: ReactNode; error?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        className={`${CONTROL} ${ring(!!error)} block w-full font-mono`}
        {...area}
      />
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      <Problem id={`${id}-error`} text={error} />
    </div>
  );
}

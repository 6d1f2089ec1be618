"use client";

// The subscription forms' own controls (new subscription and its settings): the kinds as
// checkboxes, each with what it means; the days before, for the kinds that take them; a webhook's
// URL and secret (with a button that makes one and a button that copies it); an e-mail's addresses
// and how often it goes. Each shows its hint or the problem beside it, in the look of
// components/ui/form-field.tsx.
import { Check, Copy, KeyRound } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { ChoiceGroup, Problem } from "@/components/update-runs/form-controls";
import {
  generateSecret,
  KIND_META,
  KIND_ORDER,
  kindsTakeDays,
  MAX_DAYS,
  MIN_SECRET_LENGTH,
} from "@/lib/ui/notification-text";

const INPUT =
  "block w-full rounded-md border-0 bg-white px-2.5 py-1.5 text-sm text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-inset disabled:bg-slate-100 disabled:text-slate-500";
const ring = (invalid: boolean) =>
  invalid ? "ring-red-400 focus:ring-red-500" : "ring-slate-300 focus:ring-accent-600";

/** Where a subscription sends, by channel: the field's name, its input's kind and an example. */
const DESTINATION = {
  webhook: { label: "URL", name: "url", type: "url", inputMode: "url", example: "https://hooks.slack.com/services/…" },
  email: {
    label: "E-mail addresses",
    name: "to",
    type: "text",
    inputMode: "email",
    example: "oncall@example.com, platform@example.com",
  },
} as const;

/**
 * Where a subscription sends: a webhook's URL, or an e-mail subscription's addresses. `hint` says
 * what the form does with it (a new one, or one replacing another).
 */
export function DestinationField({
  channel,
  value,
  onChange,
  hint,
  error,
  isNew = false,
}: {
  channel: keyof typeof DESTINATION;
  value: string;
  onChange: (value: string) => void;
  hint: string;
  error?: string;
  /** A new subscription's: required, with an example and the focus. */
  isNew?: boolean;
}) {
  const { example, ...input } = DESTINATION[channel];
  return (
    <TextField
      {...input}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      autoComplete="off"
      spellCheck={false}
      hint={hint}
      error={error}
      {...(isNew ? { placeholder: example, required: true, "data-autofocus": true } : {})}
    />
  );
}

/** The addresses' hint, the same in both forms. */
export const ADDRESSES_HINT = "One address, or several separated by commas.";

/** How often an e-mail subscription sends: a mail per event, or a daily digest. */
export function DigestField({
  value,
  onChange,
  error,
}: {
  value: "each" | "daily";
  onChange: (digest: "each" | "daily") => void;
  error?: string;
}) {
  return (
    <ChoiceGroup
      legend="How often"
      name="digest"
      value={value}
      onChange={onChange}
      options={[
        { value: "each", label: "Each event", hint: "One mail as each event is found." },
        { value: "daily", label: "Daily digest", hint: "One mail a day listing the day's events." },
      ]}
      error={error}
    />
  );
}

/** The kinds as checkboxes, each with its line of meaning; then the days, for those that take them. */
export function KindsField({
  kinds,
  onKinds,
  days,
  onDays,
  kindsError,
  daysError,
}: {
  kinds: readonly string[];
  onKinds: (kinds: string[]) => void;
  days: string;
  onDays: (days: string) => void;
  kindsError?: string;
  daysError?: string;
}) {
  const id = useId();
  const toggle = (kind: string, on: boolean) =>
    onKinds(KIND_ORDER.filter((k) => (k === kind ? on : kinds.includes(k))));
  const takesDays = kindsTakeDays(kinds);
  return (
    <div className="space-y-4">
      <fieldset aria-describedby={kindsError ? `${id}-kinds-error` : undefined} data-testid="kinds">
        <legend className="mb-1.5 text-sm font-medium text-slate-700">Tell me when</legend>
        <div className="grid gap-2 md:grid-cols-2">
          {KIND_ORDER.map((kind) => {
            const meta = KIND_META[kind];
            const checked = kinds.includes(kind);
            return (
              <label
                key={kind}
                className={`flex cursor-pointer items-start gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-inset has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent-600 ${checked ? "bg-accent-50 ring-accent-500" : "bg-white ring-slate-300 hover:bg-slate-50"}`}
              >
                <input
                  type="checkbox"
                  name="events"
                  value={kind}
                  checked={checked}
                  onChange={(e) => toggle(kind, e.target.checked)}
                  aria-invalid={kindsError ? true : undefined}
                  className="mt-0.5 size-4 shrink-0 accent-[var(--color-accent-600)] focus:outline-none"
                />
                <span className="min-w-0">
                  <span className="block font-medium text-slate-900">{meta.label}</span>
                  <span className="block text-xs text-slate-600">{meta.meaning}</span>
                  <span className="block font-mono text-[11px] text-slate-600">{kind}</span>
                </span>
              </label>
            );
          })}
        </div>
        <Problem id={`${id}-kinds-error`} text={kindsError} />
      </fieldset>
      <div>
        <label htmlFor={`${id}-days`} className="mb-1 block text-sm font-medium text-slate-700">
          Days before
        </label>
        <input
          id={`${id}-days`}
          name="days"
          value={days}
          onChange={(e) => onDays(e.target.value)}
          disabled={!takesDays}
          inputMode="numeric"
          autoComplete="off"
          placeholder="7, 1"
          aria-invalid={daysError ? true : undefined}
          aria-describedby={daysError ? `${id}-days-error` : `${id}-days-hint`}
          className={`${INPUT} max-w-48 ${ring(!!daysError)}`}
        />
        {daysError ? (
          <Problem id={`${id}-days-error`} text={daysError} />
        ) : (
          <p id={`${id}-days-hint`} className="mt-1 text-xs text-slate-500">
            {takesDays
              ? `For "${KIND_META["forced-update"].label}" and "${KIND_META["version-expiring"].label}": one message per threshold, e.g. 7, 1 (a week ahead, and the day before). Whole days from 1 to ${MAX_DAYS}.`
              : `Only "${KIND_META["forced-update"].label}" and "${KIND_META["version-expiring"].label}" take days.`}
          </p>
        )}
      </div>
    </div>
  );
}

/** Copies `text`, and says that it did (or that the browser would not). */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<boolean | "failed">(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied("failed");
    }
  };
  return (
    <>
      <Button onClick={() => void copy()} className="shrink-0" disabled={text === ""}>
        {copied === true ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
        {copied === true ? "Copied" : label}
      </Button>
      <span role="status" className="sr-only">
        {copied === "failed"
          ? "The browser did not allow copying; select the value and copy it by hand."
          : copied
            ? "Copied to the clipboard."
            : ""}
      </span>
    </>
  );
}

/**
 * A webhook's secret, readable while it is typed (it is shown nowhere once saved): typed, or made
 * with "Generate", and copied to the receiver's configuration.
 */
export function SecretField({
  label,
  value,
  onChange,
  error,
  hint,
  required = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint: string;
  required?: boolean;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex flex-wrap gap-2 sm:flex-nowrap">
        <input
          id={id}
          name="secret"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          required={required}
          autoComplete="off"
          spellCheck={false}
          minLength={MIN_SECRET_LENGTH}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          className={`${INPUT} min-w-0 flex-1 basis-full font-mono text-xs sm:basis-auto ${ring(!!error)}`}
        />
        <Button onClick={() => onChange(generateSecret())} className="shrink-0">
          <KeyRound aria-hidden className="size-4" /> Generate
        </Button>
        <CopyButton text={value} />
      </div>
      {error ? (
        <Problem id={`${id}-error`} text={error} />
      ) : (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}

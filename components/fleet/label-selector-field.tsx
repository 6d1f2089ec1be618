"use client";

// A Kubernetes label selector typed as kubectl -l takes it (`env=prod,team in (a,b),!legacy`).
// A selector half typed selects something else, so the fleet applies it only on Enter or when the
// field is left, and only when it parses; otherwise the reason (the one the API would answer with)
// shows under the field. The stage form keeps what is typed and shows the reason as it goes.
import { type KeyboardEvent, useId, useState } from "react";
import { labelSelectorProblem } from "@/lib/ui/fleet-filters";

const FIELD =
  "w-full rounded-md border-0 bg-white px-2.5 py-1.5 font-mono text-sm shadow-sm ring-1 ring-inset placeholder:font-sans placeholder:text-slate-400 focus:outline-2 focus:outline-offset-0 focus:outline-accent-600";
export const LABELS_PLACEHOLDER = "env=prod,!legacy";

/** The input and its reason; `reason` undefined: none shown. */
export function LabelSelectorInput({
  value,
  onChange,
  reason,
  applied,
  onKeyDown,
  onBlur,
  className = "",
}: {
  value: string;
  onChange: (text: string) => void;
  reason?: string;
  /** A selector is in force (shown in the accent colour, as other set filters). */
  applied?: boolean;
  onKeyDown?: (e: KeyboardEvent<HTMLInputElement>) => void;
  onBlur?: () => void;
  className?: string;
}) {
  const id = useId();
  const reasonId = useId();
  const ring = reason ? "ring-red-500 text-slate-900" : applied ? "ring-accent-500 text-accent-700" : "ring-slate-300";
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-xs font-medium text-slate-600">
        Labels
      </label>
      <input
        id={id}
        type="text"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={onBlur}
        placeholder={LABELS_PLACEHOLDER}
        title="A label selector, as kubectl -l takes it: key=value, key!=value, key in (a,b), key notin (a,b), key, !key"
        spellCheck={false}
        autoComplete="off"
        aria-invalid={reason ? true : undefined}
        aria-describedby={reason ? reasonId : undefined}
        className={`${FIELD} ${ring}`}
      />
      {reason && (
        <p id={reasonId} role="alert" className="max-w-72 text-xs text-red-700" data-testid="labels-problem">
          Not a label selector: {reason}
        </p>
      )}
    </div>
  );
}

/** The fleet's label filter: applies a selector that parses on Enter or when the field is left. */
export function LabelSelectorField({
  value,
  onApply,
  className,
}: {
  /** The selector in force ("" for none). */
  value: string;
  onApply: (labels: string | undefined) => void;
  className?: string;
}) {
  const [text, setText] = useState(value);
  const [reason, setReason] = useState<string>();
  // The selector in force changed elsewhere (reset, back button): the field follows it.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(value);
    setReason(undefined);
  }
  const apply = () => {
    const trimmed = text.trim();
    const problem = labelSelectorProblem(trimmed);
    setReason(problem);
    if (problem === undefined && trimmed !== value) onApply(trimmed || undefined);
  };
  return (
    <LabelSelectorInput
      className={className}
      value={text}
      applied={value !== "" && text.trim() === value}
      reason={reason}
      onChange={(t) => {
        setText(t);
        // Once shown, the reason follows the typing (and goes when the selector parses).
        if (reason !== undefined) setReason(labelSelectorProblem(t));
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          apply();
        }
      }}
      onBlur={apply}
    />
  );
}

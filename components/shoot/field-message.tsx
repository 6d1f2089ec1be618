import { AlertCircle } from "lucide-react";

/** The message under one form field: the server's (or the form's) reason, with an icon, announced. */
export function FieldMessage({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 flex items-start gap-1 text-xs font-medium text-red-700">
      <AlertCircle aria-hidden className="mt-px size-3.5 shrink-0" />
      <span>{message}</span>
    </p>
  );
}

/** Shared look of the editor's text inputs; red ring when invalid. */
export function inputClass(invalid: boolean, extra = "") {
  return `block rounded-md border-0 bg-white px-2.5 py-1.5 text-sm text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500 focus:outline-none focus:ring-2 focus:ring-inset ${
    invalid ? "ring-red-400 focus:ring-red-500" : "ring-slate-300 focus:ring-accent-600"
  } ${extra}`;
}

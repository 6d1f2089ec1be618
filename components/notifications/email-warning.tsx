// An e-mail subscription's warning (the API's `warning`: no SMTP server is configured, so its
// mails cannot go out): a small amber note on its page and in its list row.
import { AlertTriangle } from "lucide-react";

export function EmailWarning({ warning, compact = false }: { warning?: string; compact?: boolean }) {
  if (!warning) return null;
  return compact ? (
    <p className="mt-1 flex items-center gap-1 pl-6 text-xs text-amber-800" data-subscription-warning>
      <AlertTriangle aria-hidden className="size-3.5 shrink-0" />
      <span>Not sent: {warning}</span>
    </p>
  ) : (
    <p
      role="status"
      className="flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-inset ring-amber-200"
      data-subscription-warning
    >
      <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span>Its mails cannot go out now: {warning}. Ask whoever runs Almanac to set it.</span>
    </p>
  );
}

import { AlertOctagon, AlertTriangle, Inbox, Lock, RotateCw } from "lucide-react";
import type { ReactNode } from "react";

export function Skeleton({ className = "" }: { className?: string }) {
  return <div aria-hidden className={`animate-pulse rounded-md bg-slate-200/80 ${className}`} />;
}

/** A labelled block of skeleton lines while something loads. */
export function LoadingBlock({ label, lines = 4 }: { label: string; lines?: number }) {
  return (
    <div role="status" aria-live="polite" className="space-y-2">
      <span className="sr-only">{label}</span>
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} className={`h-4 ${i % 3 === 2 ? "w-2/3" : "w-full"}`} />
      ))}
    </div>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center gap-2 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <Inbox aria-hidden className="size-8 text-slate-400" />
      <p className="font-medium text-slate-800">{title}</p>
      {children && <div className="max-w-md text-sm text-slate-600">{children}</div>}
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}

export function ErrorState({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900"
    >
      <AlertOctagon aria-hidden className="mt-0.5 size-5 shrink-0 text-red-600" />
      <div className="flex-1">
        <p className="font-medium">{title}</p>
        <p className="mt-1 text-red-800">{message}</p>
      </div>
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="inline-flex items-center gap-1 rounded-md bg-white px-2.5 py-1.5 font-medium text-red-800 ring-1 ring-red-300 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-red-600"
        >
          <RotateCw aria-hidden className="size-4" /> Retry
        </button>
      )}
    </div>
  );
}

/** One line for a refresh that failed while older data is still shown (or left out, `missing`). */
export function RefreshFailed({
  what,
  error,
  onRetry,
  missing = false,
}: {
  what: string;
  error: unknown;
  onRetry: () => void;
  missing?: boolean;
}) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <p role="status" className="flex flex-wrap items-center gap-x-2 text-xs text-amber-800" title={message}>
      <AlertTriangle aria-hidden className="size-3.5 shrink-0 text-amber-600" />
      <span>
        {missing
          ? `Loading ${what} failed; it is left out.`
          : `Refreshing ${what} failed; showing the last loaded data.`}
      </span>
      <button
        type="button"
        onClick={onRetry}
        className="inline-flex items-center gap-1 rounded font-medium text-amber-900 underline decoration-dotted underline-offset-2 hover:text-amber-700 focus-visible:outline-2 focus-visible:outline-accent-600"
      >
        <RotateCw aria-hidden className="size-3" />
        Retry
      </button>
    </p>
  );
}

/** The page is not for this caller's role: what they need, and the server's words. */
export function NeedsRoleState({ title, error }: { title: string; error?: unknown }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center justify-center gap-2 rounded-xl border border-amber-200 bg-amber-50 px-6 py-12 text-center"
    >
      <Lock aria-hidden className="size-8 text-amber-600" />
      <p className="font-medium text-slate-900">{title}</p>
      {error instanceof Error && <p className="max-w-md text-sm text-slate-700">{error.message}</p>}
      <p className="max-w-md text-sm text-slate-600">Ask an admin of this landscape if you need it.</p>
    </div>
  );
}

"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import { formatBoth, formatLocalShort, formatRelative, formatUtcShort, type Instant } from "@/lib/ui/time";

const noSubscription = () => () => {};

/**
 * False while rendering on the server and while hydrating, true after: times relative to now or
 * in the browser's time zone differ between the two, so they render only once mounted.
 */
export function useMounted(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/** The current time, re-read every `intervalMs` (one timer per caller; tables use a slow one). */
export function useNow(intervalMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}

const iso = (t: Instant) => new Date(t).toISOString();

/** "in 5 h", with local time and UTC in the tooltip. */
export function RelativeTime({ at, now, className = "" }: { at: Instant; now?: number; className?: string }) {
  const ticking = useNow(30_000);
  if (!useMounted()) return <span className={`inline-block min-w-10 ${className}`} aria-hidden />;
  return (
    <time
      dateTime={iso(at)}
      title={formatBoth(at)}
      className={`cursor-help decoration-dotted underline-offset-2 hover:underline ${className}`}
    >
      {formatRelative(at, now ?? ticking)}
    </time>
  );
}

/** Local time and UTC side by side, with "in 5 h" after them. */
export function DualTime({ at, relative = true, now }: { at: Instant; relative?: boolean; now?: number }) {
  if (!useMounted()) return <span className="inline-block min-w-32" aria-hidden />;
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-2">
      <time dateTime={iso(at)} title={formatBoth(at)}>
        {formatLocalShort(at)}
      </time>
      <span className="text-slate-500">{formatUtcShort(at)}</span>
      {relative && <RelativeTime at={at} now={now} className="text-slate-500" />}
    </span>
  );
}

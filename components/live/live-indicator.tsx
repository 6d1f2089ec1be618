"use client";

import { WifiOff } from "lucide-react";
import { formatBoth } from "@/lib/ui/time";
import { useLiveState } from "./live-updates";

/** Whether pages are following the server's changes: "Live", or "Reconnecting" after a drop. */
export function LiveIndicator() {
  const { state, since } = useLiveState();
  const label = state === "live" ? "Live" : state === "reconnecting" ? "Reconnecting…" : "Connecting…";
  const hint =
    state === "live"
      ? `Following changes as they happen (connected ${since ? formatBoth(since) : ""}).`
      : state === "reconnecting"
        ? "The live connection dropped: what you see may be out of date. Almanac reconnects by itself and then refreshes everything."
        : "Opening the live connection.";
  return (
    <span
      role="status"
      aria-live="polite"
      title={hint}
      data-live-state={state}
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-medium ring-1 ring-inset ${
        state === "live"
          ? "bg-emerald-50 text-emerald-800 ring-emerald-600/20"
          : state === "reconnecting"
            ? "bg-amber-50 text-amber-900 ring-amber-600/30"
            : "bg-slate-100 text-slate-600 ring-slate-400/30"
      }`}
    >
      {state === "reconnecting" ? (
        <WifiOff aria-hidden className="size-3.5" />
      ) : (
        <span aria-hidden className="relative flex size-2">
          {state === "live" && (
            <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-60" />
          )}
          <span
            className={`relative inline-flex size-2 rounded-full ${state === "live" ? "bg-emerald-500" : "bg-slate-400"}`}
          />
        </span>
      )}
      {label}
    </span>
  );
}

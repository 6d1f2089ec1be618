"use client";

// The risk beside a promised update ("will force it to 1.30.14"): why it may not happen, what
// follows and who must act, from the shoot's status and its recorded maintenance runs (the
// engine's update-risk.ts). Shown where the shoot page promises an update: the expiry outlook and
// the maintain-now preview.
import { ShieldAlert } from "lucide-react";
import { useMemo } from "react";
import { ACTOR_WORDS, updateRisk } from "@/lib/engine/update-risk";
import type { Shoot } from "@/lib/ui/api-types";
import { recordedRuns } from "@/lib/ui/recorded-runs";
import { useShootHistory } from "./use-lifecycle-data";

export function UpdateRiskNote({ shoot }: { shoot: Shoot }) {
  // The history the page loads anyway (shared cache): how many runs failed in a row.
  const history = useShootHistory(shoot);
  const risk = useMemo(
    () => updateRisk(shoot, history.data ? recordedRuns(history.data.items) : undefined),
    [shoot, history.data],
  );
  if (!risk) return null;
  const [first, ...others] = risk.reasons;
  const actors = [...new Set(risk.reasons.filter((r) => r.actor !== "nobody").map((r) => ACTOR_WORDS[r.actor]))];
  return (
    <div
      role="note"
      aria-label="Update at risk"
      data-testid="update-risk"
      className="mt-3 flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-950 ring-1 ring-inset ring-amber-600/25"
    >
      <ShieldAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-700" />
      <div className="min-w-0 space-y-1">
        <p className="break-words">
          <strong className="font-semibold">At risk:</strong> {first.text}
        </p>
        {others.map((r) => (
          <p key={r.cause} className="break-words">
            <strong className="font-semibold">Also:</strong> {r.text}
          </p>
        ))}
        {actors.length > 0 && <p className="text-xs text-amber-900">Who must act: {actors.join("; ")}.</p>}
      </div>
    </div>
  );
}

"use client";

// Updates at risk in the forecast: the tile that counts them (and narrows the list to them), the
// badge in a row's outcome, and the explanation written under the row, readable without hovering.
import { ShieldAlert } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { ForecastRisk, ForecastSummary } from "@/lib/ui/api-types";
import { describeRiskCount } from "@/lib/ui/forecast-risk";

/**
 * How many of the updates the other filters select are at risk (the summary counts them); the
 * button shows only those (or all again).
 */
export function RiskTile({
  risk,
  active,
  onToggle,
}: {
  risk: ForecastSummary["risk"];
  active: boolean;
  onToggle: (atRisk: boolean) => void;
}) {
  const count = risk;
  if (count.updates === 0 && !active) return null;
  return (
    <div
      data-testid="forecast-risk-tile"
      className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950"
    >
      <ShieldAlert aria-hidden className="size-5 shrink-0 text-amber-700" />
      <div className="min-w-0 flex-1">
        <p>
          <strong className="text-base font-semibold">{count.updates}</strong> of {risk.of} forced{" "}
          {risk.of === 1 ? "update is" : "updates are"} at risk
        </p>
        <p className="text-xs text-amber-900">
          {describeRiskCount(count)} The forecast shows what Gardener will try; these shoots&apos; records say it may
          not happen.
        </p>
      </div>
      <button
        type="button"
        aria-pressed={active}
        onClick={() => onToggle(!active)}
        className="rounded-md bg-white px-3 py-1.5 text-sm font-medium text-amber-900 ring-1 ring-amber-300 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-accent-600"
      >
        {active ? "Show every update" : "Show only these"}
      </button>
    </div>
  );
}

/** The outcome of an update at risk: "At risk" and the reason in a few words. */
export function RiskOutcome({ risk }: { risk: ForecastRisk }) {
  return (
    <div className="flex flex-col items-start gap-0.5">
      <Badge tone="amber" icon={<ShieldAlert aria-hidden className="size-3.5" />} title={risk.summary}>
        At risk
      </Badge>
      <span className="text-xs text-amber-900">{risk.short}</span>
    </div>
  );
}

/** The row under an update at risk: the consequence and who must act. */
export function RiskExplanationRow({ risk, columns }: { risk: ForecastRisk; columns: number }) {
  return (
    <tr className="bg-amber-50/60">
      <td colSpan={columns} className="px-4 pb-2.5 pt-0 text-xs text-amber-950">
        <p data-risk-explanation className="break-words" title={risk.summary}>
          {risk.lead}
        </p>
      </td>
    </tr>
  );
}

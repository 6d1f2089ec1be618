"use client";

// Under a row's expiry, when its forced update is near or overdue: "At risk" and why in a few
// words, so the promise in the expiry cell is never read without it. The whole reason (the
// consequence and who must act) is the line's title and its accessible description.
import { ShieldAlert } from "lucide-react";
import type { ShootRow } from "@/lib/ui/api-types";

export function UpdateRiskLine({ risk }: { risk: NonNullable<ShootRow["updateRisk"]> }) {
  return (
    <div
      data-testid="row-update-risk"
      className="mt-0.5 flex items-center gap-1 truncate text-[11px] font-medium text-amber-800"
      title={risk.summary}
    >
      <ShieldAlert aria-hidden className="size-3 shrink-0" />
      <span className="truncate">
        At risk: {risk.short}
        <span className="sr-only">. {risk.summary}</span>
      </span>
    </div>
  );
}

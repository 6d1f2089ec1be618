"use client";

// The next window's first change when confineSpecUpdateRollout holds versions back: the asked
// versions the cluster does not run yet, which the window's reconcile rolls out.
import { Clock } from "lucide-react";
import type { MaintenancePlan } from "@/lib/ui/api-types";
import { describeRolloutChange } from "@/lib/ui/version-rollout-text";

export function PendingRolloutChanges({ plan }: { plan: MaintenancePlan }) {
  const rollout = plan.rollout;
  if (!rollout || rollout.when !== "window") return null;
  const count = rollout.changes.length;
  return (
    <div data-testid="pending-rollout" className="mb-2">
      <p className="text-slate-600">
        The next window rolls out {count === 1 ? "1 change" : `${count} changes`} held for it
        (confineSpecUpdateRollout):
      </p>
      <ul className="mt-1 space-y-1">
        {rollout.changes.map((c) => (
          <li key={`${c.target}-${c.kind}`} className="flex flex-wrap items-baseline gap-x-2">
            <span className="inline-flex items-center gap-1 text-xs font-medium text-sky-700">
              <Clock aria-hidden className="size-3.5 self-center" />
              Held
            </span>
            <span className="text-slate-800">{describeRolloutChange(c)}</span>
            <span className="text-xs text-slate-500">asked in the spec, not rolled out yet</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

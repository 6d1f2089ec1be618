"use client";

// On the lifecycle page's next window: whether the hibernation schedule keeps the cluster asleep
// when maintenance runs. Loaded only for a shoot with schedules (it brings the cron engine).
import type { Shoot } from "@/lib/ui/api-types";
import { asleepAt } from "@/lib/ui/hibernation-outlook";
import { schedulesOf } from "@/lib/ui/hibernation-schedules";
import { WhileHibernatedMark } from "./while-hibernated-mark";

export function PlanWhileHibernated({ shoot, at }: { shoot: Shoot; at: string }) {
  if (!asleepAt(schedulesOf(shoot), new Date(at))) return null;
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-slate-600" data-testid="plan-while-hibernated">
      <WhileHibernatedMark />
      <span>
        The hibernation schedule keeps the cluster asleep then: the window updates its spec, and the new versions run
        only once it wakes up.
      </span>
    </p>
  );
}

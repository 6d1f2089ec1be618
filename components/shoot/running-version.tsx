"use client";

// The header's version: what the cluster runs, and the version its spec asks for when that is
// not rolled out yet, with when it will be (the next window, local and UTC). Pools whose machine
// image or Kubernetes version waits too are listed under the header.
import { ArrowRight, Clock } from "lucide-react";
import { useMounted } from "@/components/ui/time";
import type { Shoot } from "@/lib/ui/api-types";
import { describeRolloutChange, rolloutChangeOf, rolloutTitle, rolloutWhenText } from "@/lib/ui/version-rollout-text";
import { useMaintenancePlan } from "./use-lifecycle-data";

/** "1.32.7 → 1.33.6 in the next window (…)", or the asked version when it runs. */
export function RunningKubernetes({ shoot }: { shoot: Shoot }) {
  const plan = useMaintenancePlan(shoot).data;
  const mounted = useMounted();
  const rollout = plan?.rollout;
  const change = rolloutChangeOf(rollout, "controlPlane", "kubernetes");
  if (!rollout || !change) return <span data-testid="running-kubernetes">{shoot.spec.kubernetes.version}</span>;
  return (
    <span title={mounted ? rolloutTitle(change, rollout, plan?.window.begin) : undefined}>
      <span data-testid="running-kubernetes">{change.running}</span>
      <ArrowRight aria-label="to" className="mx-1 inline size-3.5 align-[-2px] text-slate-500" />
      <span data-testid="asked-kubernetes">{change.asked}</span>{" "}
      <span data-testid="rollout-when">{mounted ? rolloutWhenText(rollout, plan?.window.begin) : ""}</span>
    </span>
  );
}

/** The pools' changes still to come (the control plane's is in the header line). */
export function PendingPoolRollouts({ shoot }: { shoot: Shoot }) {
  const plan = useMaintenancePlan(shoot).data;
  const mounted = useMounted();
  const rollout = plan?.rollout;
  const pools = rollout?.changes.filter((c) => c.target !== "controlPlane") ?? [];
  if (!rollout || pools.length === 0 || !mounted) return null;
  return (
    <p data-testid="pending-pool-rollouts" className="-mt-3 mb-4 flex items-start gap-1.5 text-sm text-slate-600">
      <Clock aria-hidden className="mt-0.5 size-4 shrink-0 text-sky-600" />
      <span>
        Not rolled out yet: {pools.map(describeRolloutChange).join("; ")} {rolloutWhenText(rollout, plan?.window.begin)}
        .
      </span>
    </p>
  );
}

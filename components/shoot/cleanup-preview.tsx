"use client";

// Next to the deletion action: what Gardener's cleanup will leave in the cluster (resources
// labelled shoot.gardener.cloud/no-cleanup=true, which their owner deletes, VolumeSnapshots and
// their finalizers included) and the grace periods it uses (the shoot's cleanup annotations or
// Gardener's defaults, skip-cleanup). Read from GET .../cleanup.
import { AlertTriangle, Info, PackageX } from "lucide-react";
import { getShootCleanup } from "@/lib/api/operations/shoots";
import type { ShootCleanupAnswer } from "@/lib/api/cleanup";
import { describeSeconds } from "@/lib/ui/cleanup-words";
import { useShootPart } from "./use-shoot";

const STEP_WORDS: Record<string, string> = {
  CleanWebhooks: "Webhooks",
  CleanExtendedAPIs: "Custom resource definitions, API services",
  CleanKubernetesResources: "Workloads, services, volume claims",
};

const where = (r: ShootCleanupAnswer["noCleanup"][number]) => (r.namespace ? `${r.namespace}/${r.name}` : r.name);

export function CleanupPreview({ namespace, name }: { namespace: string; name: string }) {
  const cleanup = useShootPart(getShootCleanup, namespace, name);
  if (cleanup.isPending)
    return <p className="text-xs text-slate-500">Loading what the cleanup leaves and its grace periods…</p>;
  if (cleanup.error || !cleanup.data)
    return (
      <p role="alert" className="text-xs text-red-800">
        What the cleanup leaves could not be loaded: {(cleanup.error as Error | null)?.message ?? "no answer"}
      </p>
    );
  const view = cleanup.data;
  const spared = view.noCleanup.filter((r) => r.outcome === "spared");
  const deletedAnyway = view.noCleanup.filter((r) => r.outcome === "deleted-anyway");
  const notCleaned = view.noCleanup.filter((r) => r.outcome === "not-cleaned");
  return (
    <section aria-labelledby="cleanup-preview-title" className="space-y-2" data-testid="cleanup-preview">
      <h3 id="cleanup-preview-title" className="flex items-center gap-1.5 font-medium text-slate-900">
        <PackageX aria-hidden className="size-4 text-slate-500" />
        What Gardener leaves in the cluster
      </h3>
      {!view.inventoryKnown ? (
        <p className="text-xs text-slate-600">
          Almanac does not see inside this cluster. Resources labelled{" "}
          <code className="font-mono">shoot.gardener.cloud/no-cleanup=true</code> are left by Gardener; you delete them
          yourself.
        </p>
      ) : spared.length === 0 ? (
        <p className="text-xs text-slate-600" data-testid="no-cleanup-none">
          Nothing is labelled <code className="font-mono">shoot.gardener.cloud/no-cleanup=true</code>: the cleanup
          removes every workload, service, volume claim and snapshot.
        </p>
      ) : (
        <div className="rounded-md bg-amber-50 p-2.5 text-xs text-amber-950 ring-1 ring-inset ring-amber-600/20">
          <p className="flex items-start gap-1.5">
            <AlertTriangle aria-hidden className="mt-px size-3.5 shrink-0 text-amber-600" />
            <span>
              Labelled <code className="font-mono [overflow-wrap:anywhere]">shoot.gardener.cloud/no-cleanup=true</code>:
              Gardener leaves these; you delete them yourself, including VolumeSnapshots with their finalizers (what
              they hold in the cloud outlives the cluster otherwise).
            </span>
          </p>
          <ul className="mt-2 space-y-1 pl-5" aria-label="Resources Gardener leaves" data-testid="no-cleanup-list">
            {spared.map((r) => (
              <li key={`${r.kind}/${where(r)}`} className="list-disc">
                <span className="font-medium">{r.kind}</span>{" "}
                <span className="font-mono [overflow-wrap:anywhere]">{where(r)}</span>
                {r.finalizers.length > 0 && (
                  <span className="text-amber-900">
                    {" "}
                    (finalizer <span className="font-mono [overflow-wrap:anywhere]">{r.finalizers.join(", ")}</span>)
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {deletedAnyway.length > 0 && (
        <p className="flex items-start gap-1.5 text-xs text-slate-700">
          <Info aria-hidden className="mt-px size-3.5 shrink-0" />
          <span>
            Deleted all the same: the cleanup does not read the label on APIServices (
            {deletedAnyway.map((r) => where(r)).join(", ")}).
          </span>
        </p>
      )}
      {notCleaned.length > 0 && (
        <p className="text-xs text-slate-600">
          Also labelled, of kinds the cleanup never deletes (they go with the cluster):{" "}
          {notCleaned.map((r) => `${r.kind} ${where(r)}`).join(", ")}.
        </p>
      )}
      <details className="text-xs text-slate-700">
        <summary className="cursor-pointer font-medium text-slate-800 focus-visible:outline-2 focus-visible:outline-accent-600">
          Cleanup grace periods{view.skipCleanup ? " (skip-cleanup is set)" : ""}
        </summary>
        {view.skipCleanup && (
          <p className="mt-1">
            <code className="font-mono">shoot.gardener.cloud/skip-cleanup</code> is set: only Services, volume claims
            and snapshots are cleaned up, custom resource definitions and API services not at all.
          </p>
        )}
        <ul className="mt-1 space-y-1" data-testid="grace-periods">
          {view.gracePeriods.map((g) => (
            <li key={`${g.step}-${g.kinds.join()}`}>
              <span className="font-medium">
                {g.kinds[0] === "VolumeSnapshot" ? "Volume snapshots" : (STEP_WORDS[g.step] ?? g.step)}
              </span>
              {g.step === "CleanKubernetesResources" && view.skipCleanup && g.kinds[0] === "Service"
                ? " (Services and volume claims only)"
                : ""}
              :{" "}
              {g.skipped ? (
                "skipped"
              ) : g.error ? (
                <span className="text-red-800">the annotation cannot be read, so this step fails: {g.error}</span>
              ) : (
                <>
                  finalized after {describeSeconds(g.finalizeAfterSeconds!)}
                  {g.finalizeAfterSeconds === g.defaultFinalizeAfterSeconds ? " (default)" : ""}, deleted with a{" "}
                  {describeSeconds(g.gracePeriodSeconds!)} grace period
                  {g.finalizeAfterSeconds === 0 && (
                    <span className="text-red-800"> — at once, which may orphan infrastructure</span>
                  )}
                </>
              )}
              <span className="block text-slate-500 [overflow-wrap:anywhere]">
                {g.annotation}
                {g.value !== null ? ` = "${g.value}"` : " not set"}
              </span>
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}

// What a maintenance will change, one row per change: where (control plane or a worker pool),
// what (Kubernetes or machine image), from which version to which, and Gardener's reason. A
// change the engine cannot make (a forced update that finds no version) is shown in red: the
// cluster will be stuck.
import { ArrowRight, CircleSlash, Cpu, HardDrive } from "lucide-react";
import type { PlannedChange } from "@/lib/ui/api-types";
import { isFailedChange } from "@/lib/ui/expiry-outlook";

const whereOf = (c: PlannedChange) => (c.target === "controlPlane" ? "Control plane" : `Worker pool “${c.target}”`);
const whatOf = (c: PlannedChange) =>
  c.kind === "kubernetes" ? "Kubernetes version" : c.kind === "machineImage" ? "Machine image" : c.kind;

export function PlannedChanges({ changes }: { changes: readonly PlannedChange[] }) {
  return (
    <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200" aria-label="Planned changes">
      {changes.map((c, i) => {
        const failed = isFailedChange(c);
        return (
          <li
            key={`${c.target}-${c.kind}-${i}`}
            className={`flex items-start gap-3 px-3 py-2.5 ${failed ? "bg-red-50" : ""}`}
          >
            {failed ? (
              <CircleSlash aria-hidden className="mt-0.5 size-4 shrink-0 text-red-600" />
            ) : c.target === "controlPlane" ? (
              <Cpu aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-500" />
            ) : (
              <HardDrive aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-500" />
            )}
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-x-2 text-sm">
                <span className="font-medium text-slate-900">{whereOf(c)}</span>
                <span className="text-slate-500">{whatOf(c)}</span>
                {failed ? (
                  <>
                    <span className="font-mono text-[13px] text-slate-900">{c.from}</span>
                    <span className="font-semibold text-red-800">
                      cannot update: no suitable version — the cluster will be stuck
                    </span>
                  </>
                ) : (
                  <span className="inline-flex items-center gap-1 font-mono text-[13px] text-slate-900">
                    {c.from}
                    <ArrowRight aria-label="to" className="size-3.5 text-slate-400" />
                    {c.to}
                  </span>
                )}
              </p>
              {failed && c.description && <p className="mt-0.5 text-xs text-red-800">{c.description}</p>}
              <p className="mt-0.5 text-xs text-slate-600">{c.reason}</p>
              {c.kind === "machineImage" && !failed && (
                <p className="mt-0.5 text-xs text-amber-800">Every node of this pool is drained and replaced.</p>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

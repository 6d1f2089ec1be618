// The icon of a step in a flow the page follows live (a migration's steps, a deletion's cleanup):
// one look for each state wherever steps are listed.
import { AlertTriangle, CheckCircle2, Circle, Loader2, MinusCircle, XCircle } from "lucide-react";

export type StepIconState = "done" | "running" | "retrying" | "failed" | "skipped" | "waiting";

export function StepIcon({ state }: { state: StepIconState }) {
  switch (state) {
    case "done":
      return <CheckCircle2 aria-hidden className="size-4 text-emerald-600" />;
    case "running":
      return <Loader2 aria-hidden className="size-4 animate-spin text-sky-600" />;
    case "retrying":
      return <AlertTriangle aria-hidden className="size-4 text-amber-600" />;
    case "failed":
      return <XCircle aria-hidden className="size-4 text-red-600" />;
    case "skipped":
      return <MinusCircle aria-hidden className="size-4 text-slate-400" />;
    case "waiting":
      return <Circle aria-hidden className="size-4 text-slate-300" />;
  }
}

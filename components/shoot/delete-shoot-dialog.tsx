"use client";

// Deleting a cluster: the person types its name, then Almanac does what Gardener requires, the
// confirmation annotation confirmation.gardener.cloud/deletion=true (PATCH), then DELETE; and
// follows the cleanup step by step (GET .../deletion, refreshed by the live feed and polled every
// second) until the shoot is gone. A refusal at either request is shown with the server's words.
import { useQuery } from "@tanstack/react-query";
import { AlertOctagon, AlertTriangle, CheckCircle2, Loader2, Trash2, XCircle } from "lucide-react";
import Link from "next/link";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { StepIcon } from "@/components/ui/step-icon";
import { ProgressBar } from "@/components/ui/progress";
import { useShootChange } from "@/lib/client/use-shoot-change";
import { RequestError } from "@/lib/ui/api";
import type { Shoot } from "@/lib/ui/api-types";
import { getShootDeletion } from "@/lib/api/operations/shoots";
import { shootPartQuery } from "@/lib/client/queries";
import {
  CONFIRM_DELETION_PATCH,
  deletionProgress,
  nameConfirmed,
  type CleanupStepState,
} from "@/lib/ui/shoot-operations";
import { CleanupPreview } from "./cleanup-preview";
import { inputClass } from "./field-message";

const STEP_WORD: Record<CleanupStepState, string> = {
  done: "Done",
  running: "Running",
  failed: "Failed",
  skipped: "Skipped",
  waiting: "Waiting",
};

const STEP_TITLE: Record<string, string> = {
  CleanWebhooks: "Remove the cluster's webhooks",
  CleanExtendedAPIs: "Remove custom resource definitions and API services",
  CleanKubernetesResources: "Remove workloads, services and volumes",
  DeleteShoot: "Delete the control plane and the shoot",
};

export function DeleteShootDialog({ shoot, onClose }: { shoot: Shoot; onClose: () => void }) {
  const namespace = shoot.metadata.namespace ?? "";
  const name = shoot.metadata.name;
  const inputId = useId();
  const [typed, setTyped] = useState("");
  // The two requests are steps of one change: "confirming" (the annotation), then "deleting".
  const change = useShootChange<void>(namespace, name);
  const sending = change.pending ? change.step : null;
  const error = change.error != null ? { during: change.step, error: change.error } : null;
  const started = change.result?.outcome === "done";
  const confirmed = nameConfirmed(typed, name);

  const deletion = useQuery({
    ...shootPartQuery(getShootDeletion, namespace, name),
    enabled: started,
    refetchInterval: (q) => (q.state.data && deletionProgress(q.state.data).finished ? false : 1_000),
  });
  const view = deletion.data;
  const progress = view ? deletionProgress(view) : undefined;

  function submit() {
    if (!confirmed || change.pending) return;
    change.act(async (send) => {
      await send("PATCH", "", { body: CONFIRM_DELETION_PATCH, step: "confirming" });
      await send("DELETE", "", { step: "deleting" });
    });
  }

  const gone = view?.state === "Succeeded";
  const footer = started ? (
    <>
      {gone && (
        <Link
          href="/shoots"
          className="inline-flex items-center rounded-md px-3 py-1.5 text-sm font-medium text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          Back to the fleet
        </Link>
      )}
      <Button variant="primary" onClick={onClose}>
        {gone ? "Done" : "Close; keep following it"}
      </Button>
    </>
  ) : (
    <>
      <Button onClick={onClose}>Cancel</Button>
      <Button
        variant="danger"
        type="submit"
        form={`${inputId}-form`}
        disabled={!confirmed || change.pending}
        aria-describedby={confirmed ? undefined : `${inputId}-hint`}
      >
        <Trash2 aria-hidden className="size-4" />
        {sending === "confirming" ? "Confirming…" : sending === "deleting" ? "Deleting…" : `Delete ${name}`}
      </Button>
    </>
  );

  return (
    <Dialog
      open
      onClose={onClose}
      title={started ? `Deleting ${name}` : `Delete ${name}`}
      description={
        started ? undefined : (
          <>
            The cluster, its control plane and the resources in it are deleted: workloads, services, load balancers and
            volumes, all but what is labelled to be left (below). This cannot be undone.
          </>
        )
      }
      footer={footer}
    >
      {!started ? (
        <form
          id={`${inputId}-form`}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
          className="space-y-3 text-sm"
        >
          <p className="flex items-start gap-2 rounded-lg bg-red-50 p-3 text-red-900 ring-1 ring-inset ring-red-600/20">
            <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-red-600" />
            {/* The annotation is one long word: on a phone it breaks where it must. */}
            <span className="min-w-0 [overflow-wrap:anywhere]">
              Almanac first annotates the cluster with{" "}
              <code className="font-mono text-xs">confirmation.gardener.cloud/deletion=true</code>, as Gardener
              requires, then deletes it. The cleanup runs in steps, shown here as they happen.
            </span>
          </p>
          <CleanupPreview namespace={namespace} name={name} />
          <div>
            <label htmlFor={inputId} className="block font-medium text-slate-800">
              Type <span className="font-mono font-semibold">{name}</span> to confirm
            </label>
            <input
              id={inputId}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              data-autofocus
              aria-describedby={`${inputId}-hint`}
              className={inputClass(false, "mt-1 w-full font-mono")}
            />
            <p id={`${inputId}-hint`} className="mt-1 text-xs text-slate-500">
              {confirmed ? "The name matches." : `The Delete button is enabled once the name is typed exactly.`}
            </p>
          </div>
          {error && (
            <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-900">
              <p className="flex items-center gap-1.5 font-medium">
                <AlertOctagon aria-hidden className="size-4 text-red-600" />
                {error.during === "confirming"
                  ? "The deletion could not be confirmed; nothing was deleted"
                  : "The deletion was refused; the cluster was annotated but not deleted"}
              </p>
              <p className="mt-1" data-testid="delete-error">
                {error.error instanceof RequestError || error.error instanceof Error
                  ? error.error.message
                  : String(error.error)}
              </p>
            </div>
          )}
        </form>
      ) : (
        <div role="status" aria-live="polite" className="space-y-3 text-sm">
          {!progress ? (
            <p className="flex items-center gap-2 text-slate-600">
              <Loader2 aria-hidden className="size-4 animate-spin text-sky-600" />
              Deletion started; loading the cleanup steps…
            </p>
          ) : (
            <>
              <p className="flex items-start gap-2 text-slate-800" data-testid="deletion-summary">
                {gone ? (
                  <>
                    <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" />
                    The cluster is gone: every cleanup step finished and the shoot was deleted.
                  </>
                ) : view?.state === "Failed" ? (
                  <>
                    <XCircle aria-hidden className="mt-0.5 size-4 shrink-0 text-red-600" />
                    The deletion failed; Gardener stopped at the failed step.
                  </>
                ) : (
                  <>
                    <Loader2 aria-hidden className="mt-0.5 size-4 shrink-0 animate-spin text-sky-600" />
                    Cleaning up: {progress.done} of {progress.total} steps done
                    {view?.state === "Error" ? " (the last attempt failed; Gardener retries it)" : ""}.
                  </>
                )}
              </p>
              <ProgressBar
                value={progress.percent}
                label="Deletion steps done"
                tone={gone ? "green" : view?.state === "Failed" ? "red" : "blue"}
              />
              <ol aria-label="Cleanup steps" className="space-y-2">
                {progress.steps.map((s) => (
                  <li key={s.name} data-step={s.name} data-state={s.state} className="flex gap-2">
                    <span className="mt-0.5 shrink-0">
                      <StepIcon state={s.state} />
                    </span>
                    <div className="min-w-0 flex-1">
                      <div className="flex items-baseline justify-between gap-2">
                        <span className={s.state === "waiting" ? "text-slate-500" : "text-slate-900"}>
                          {STEP_TITLE[s.name] ?? s.name}
                        </span>
                        <span className="shrink-0 text-xs font-medium text-slate-600">{STEP_WORD[s.state]}</span>
                      </div>
                      {(s.deletes.length > 0 || s.keeps.length > 0) && (
                        <p className="text-xs text-slate-500">
                          {s.deletes.length > 0 && `${s.deletes.length} to delete`}
                          {s.deletes.length > 0 && s.keeps.length > 0 && "; "}
                          {s.keeps.length > 0 && `${s.keeps.length} left alone`}
                          {s.forced && "; stuck finalizers are removed by force"}
                        </p>
                      )}
                      {s.errors.length > 0 && (
                        <p className="break-words text-xs text-red-800">{s.errors[s.errors.length - 1]}</p>
                      )}
                    </div>
                  </li>
                ))}
              </ol>
            </>
          )}
          {deletion.error != null && !view && (
            <p role="alert" className="text-red-800">
              The cleanup steps could not be loaded:{" "}
              {deletion.error instanceof Error ? deletion.error.message : String(deletion.error)}
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}

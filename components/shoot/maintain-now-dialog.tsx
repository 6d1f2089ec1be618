"use client";

// "Maintain now": first what the maintenance will change if it runs now (the engine's run at the
// moment the dialog opened, on the shoot and its cloud profile read fresh), then, once confirmed
// (POST .../maintain), how far it has come: queued, run, rolled out, with the result Gardener
// wrote into status.lastMaintenance.
import { AlertTriangle, CheckCircle2, Circle, Loader2, Wrench, XCircle } from "lucide-react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ProgressBar } from "@/components/ui/progress";
import { ErrorState, LoadingBlock } from "@/components/ui/states";
import { DualTime } from "@/components/ui/time";
import { useShootChange } from "@/lib/client/use-shoot-change";
import type { MaintainNowAnswer, Shoot } from "@/lib/ui/api-types";
import { realChanges } from "@/lib/ui/expiry-outlook";
import { planIfRunNow, type MaintainProgress } from "@/lib/ui/maintain-now";
import { shootProfileQuery, shootQuery } from "@/lib/client/queries";
import { queryKeys } from "@/lib/client/query-keys";
import { PlannedChanges } from "./planned-changes";
import { UpdateRiskNote } from "./update-risk-note";
import { shootProfileName } from "./use-shoot-cloud-profile";

export interface MaintainRun {
  readonly answer: MaintainNowAnswer;
  readonly since: number;
  readonly lastMaintenanceBefore?: string;
}

export function MaintainNowDialog({
  shoot,
  open,
  openedAt,
  onClose,
  run,
  progress,
  onStarted,
}: {
  shoot: Shoot;
  open: boolean;
  /** When it was opened (epoch ms). */
  openedAt: number;
  onClose: () => void;
  run: MaintainRun | null;
  progress?: MaintainProgress;
  onStarted: (run: MaintainRun) => void;
}) {
  const namespace = shoot.metadata.namespace ?? "";
  const name = shoot.metadata.name;
  const queryClient = useQueryClient();
  // `openedAt`, the moment the dialog opened: the preview is what a run at that moment does. GET
  // .../maintenance-plan answers for the next window instead (even with ?at=, it plans the next
  // window at or after that moment), where a version expiring before then would already be forced.
  const readShoot = () => queryClient.fetchQuery({ ...shootQuery(namespace, name), staleTime: 0 });
  const plan = useQuery({
    queryKey: queryKeys.shootPart(namespace, name, `maintenance-plan-now?at=${openedAt}`),
    queryFn: async () => {
      const current = await readShoot();
      const profileName = shootProfileName(current);
      // fetchQuery does not heed `enabled`: without a name it would ask for the list of profiles.
      if (!profileName)
        throw new Error(`${name} names no cloud profile, so what a maintenance would change cannot be computed.`);
      const profile = await queryClient.fetchQuery(shootProfileQuery(current));
      return planIfRunNow(current, profile, openedAt);
    },
    enabled: open,
  });
  const change = useShootChange<MaintainRun>(namespace, name);
  const finished = progress && progress.step !== "queued" && progress.step !== "rolling-out";

  function confirm() {
    change.act(
      async (send) => {
        // The last result as stored right now, not as the (possibly stale) cached shoot has it:
        // a window run recorded just before must not be taken for this run's result.
        const lastMaintenanceBefore = (await readShoot()).status?.lastMaintenance?.triggeredTime;
        const answer = await send<MaintainNowAnswer>("POST", "maintain");
        return { answer, since: Number(answer.resourceVersion), lastMaintenanceBefore };
      },
      { onSuccess: (result) => result.outcome === "done" && onStarted(result.answer) },
    );
  }

  const preconditions = shoot.status?.constraints?.find(
    (c) => c.type === "MaintenancePreconditionsSatisfied" && c.status !== "True",
  );
  const footer = run ? (
    <Button variant={finished ? "primary" : "secondary"} onClick={onClose}>
      {finished ? "Done" : "Close; keep watching in the header"}
    </Button>
  ) : (
    <>
      <Button onClick={onClose}>Cancel</Button>
      <Button variant="primary" onClick={confirm} disabled={change.pending || !plan.data}>
        <Wrench aria-hidden className="size-4" />
        {change.pending ? "Starting…" : "Maintain now"}
      </Button>
    </>
  );

  return (
    <Dialog
      open={open}
      onClose={onClose}
      wide
      title={`Maintain ${name} now`}
      footer={footer}
      description="Runs the maintenance outside the window, exactly as Gardener would run it in the window: forced updates of expired versions, and the automatic updates that are switched on."
    >
      {run ? (
        <RunStatus shoot={shoot} run={run} progress={progress} />
      ) : (
        <div className="space-y-4">
          {plan.isPending && <LoadingBlock label="Loading what the maintenance will change if it runs now" lines={4} />}
          {plan.error && !plan.data && (
            <ErrorState
              title="What the maintenance would change if it runs now could not be computed"
              error={plan.error}
              onRetry={() => void plan.refetch()}
            />
          )}
          {plan.data &&
            (plan.data.changes.length > 0 ? (
              <div className="space-y-2">
                <p className="text-sm text-slate-700">
                  {nowSentence(
                    realChanges(plan.data.changes).length,
                    plan.data.changes.length - realChanges(plan.data.changes).length,
                  )}
                </p>
                <PlannedChanges changes={plan.data.changes} />
              </div>
            ) : (
              <p className="flex items-start gap-2 rounded-lg bg-slate-50 p-3 text-sm text-slate-700 ring-1 ring-inset ring-slate-200">
                <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" />
                If it runs now, nothing will change: every version is already where Gardener&apos;s maintenance would
                put it. The run only records that it happened.
              </p>
            ))}
          {plan.data && plan.data.errors.length > 0 && (
            <Warning>The run will report problems: {plan.data.errors.join("; ")}</Warning>
          )}
          {/* What it promises may not happen: the shoot's record says why. */}
          {plan.data && realChanges(plan.data.changes).length > 0 && <UpdateRiskNote shoot={shoot} />}
          {preconditions && !(plan.data && realChanges(plan.data.changes).length > 0) && (
            <Warning>
              Maintenance preconditions are not satisfied ({preconditions.reason ?? preconditions.status}):{" "}
              {preconditions.message ?? "see the cluster's constraints"}. Gardener still runs the maintenance, but a
              rolling update of the nodes may get stuck.
            </Warning>
          )}
          {plan.data && (
            <p className="text-xs text-slate-500">
              Computed for a run now (<DualTime at={plan.data.at} />
              ), with the rules the run applies; the next scheduled window may do more, for example force a version that
              expires before it.
            </p>
          )}
          {change.error != null && <ErrorState title="The maintenance was not started" error={change.error} />}
        </div>
      )}
    </Dialog>
  );
}

/** "If it runs now, the maintenance will make these 2 changes (1 more cannot be made):" */
function nowSentence(made: number, failed: number): string {
  const fails = failed === 0 ? "" : failed === 1 ? "; 1 update cannot be made" : `; ${failed} updates cannot be made`;
  if (made === 0) return `If it runs now, the maintenance will make no change${fails}:`;
  return `If it runs now, the maintenance will make ${made === 1 ? "this change" : `these ${made} changes`}${fails}:`;
}

function Warning({ children }: { children: ReactNode }) {
  return (
    <p className="flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-600/25">
      <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600" />
      <span>{children}</span>
    </p>
  );
}

type StepState = "done" | "active" | "waiting" | "failed";

function Step({ state, title, children }: { state: StepState; title: string; children?: ReactNode }) {
  const icon =
    state === "done" ? (
      <CheckCircle2 aria-hidden className="size-5 text-emerald-600" />
    ) : state === "active" ? (
      <Loader2 aria-hidden className="size-5 animate-spin text-sky-600" />
    ) : state === "failed" ? (
      <XCircle aria-hidden className="size-5 text-red-600" />
    ) : (
      <Circle aria-hidden className="size-5 text-slate-300" />
    );
  const word =
    state === "done" ? "done" : state === "active" ? "in progress" : state === "failed" ? "failed" : "waiting";
  return (
    <li className="flex gap-3">
      <span className="mt-0.5 shrink-0">{icon}</span>
      <div className="min-w-0 flex-1 pb-4">
        <p className="text-sm font-medium text-slate-900">
          {title} <span className="sr-only">({word})</span>
        </p>
        {children && <div className="mt-1 space-y-1 text-sm text-slate-700">{children}</div>}
      </div>
    </li>
  );
}

/** The run's progress as three steps, and the outcome in words once it is known. */
function RunStatus({ shoot, run, progress }: { shoot: Shoot; run: MaintainRun; progress?: MaintainProgress }) {
  const step = progress?.step ?? "queued";
  const ran = step !== "queued";
  const result = progress?.result;
  const operation = shoot.status?.lastOperation;
  return (
    <div className="space-y-3">
      <ol aria-label="Maintenance progress">
        <Step state="done" title={run.answer.queued ? "Requested" : "Already requested"}>
          <p>{run.answer.message}</p>
        </Step>
        <Step
          state={step === "failed" ? "failed" : ran ? "done" : "active"}
          title={ran ? "Maintenance ran" : "Waiting for the maintenance to run"}
        >
          {result && (
            <>
              <p>
                <span className="font-medium">{result.state}</span> at <DualTime at={result.triggeredTime} />
              </p>
              <p className="text-slate-600">{result.description}</p>
              {result.failureReason && <p className="text-red-800">{result.failureReason}</p>}
            </>
          )}
          {ran && !result && <p className="text-slate-600">It changed nothing.</p>}
        </Step>
        <Step
          state={
            step === "done"
              ? "done"
              : step === "rolling-out"
                ? "active"
                : step === "rollout-failed"
                  ? "failed"
                  : "waiting"
          }
          title="Changes rolled out"
        >
          {step === "rolling-out" && <ProgressBar value={progress?.progress ?? 0} label="Reconcile progress" />}
          {step === "done" && (
            <p className="text-slate-600">
              {operation ? (
                <>
                  {operation.type} {operation.state.toLowerCase()}
                  {operation.lastUpdateTime ? (
                    <>
                      {" "}
                      at <DualTime at={operation.lastUpdateTime} relative={false} />
                    </>
                  ) : null}
                  .
                </>
              ) : (
                "Nothing to roll out."
              )}
            </p>
          )}
          {step === "rollout-failed" && operation && <p className="text-red-800">{operation.description}</p>}
        </Step>
      </ol>
      {progress && step !== "queued" && step !== "rolling-out" && (
        <p
          role="status"
          className={`flex items-start gap-2 rounded-lg p-3 text-sm ring-1 ring-inset ${
            step === "done"
              ? "bg-emerald-50 text-emerald-900 ring-emerald-600/20"
              : "bg-red-50 text-red-900 ring-red-600/20"
          }`}
        >
          {step === "done" ? (
            <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" />
          ) : (
            <XCircle aria-hidden className="mt-0.5 size-4 shrink-0 text-red-600" />
          )}
          <span>
            <span className="font-semibold">
              {step === "done" ? "Maintenance finished. " : "Maintenance did not finish. "}
            </span>
            {step === "done"
              ? `${shoot.metadata.name} now runs Kubernetes ${shoot.spec.kubernetes.version}${result ? "; every change is rolled out." : "; nothing needed to change."}`
              : progress.message}
          </span>
        </p>
      )}
      {(step === "queued" || step === "rolling-out") && (
        <p className="text-xs text-slate-500" aria-live="polite">
          {progress?.message ?? "Queued."}
        </p>
      )}
    </div>
  );
}

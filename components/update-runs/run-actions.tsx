"use client";

// A run's four actions: approve (the next stage), pause, resume and cancel. Each asks to be
// confirmed, saying what it does; each is disabled with the reason beside it when the run's state
// or the caller's role does not allow it (the server refuses the same either way).
import { useQuery } from "@tanstack/react-query";
import { Ban, PauseCircle, PlayCircle, UserCheck } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-field";
import { describedBy } from "@/components/ui/not-allowed";
import { allows } from "@/lib/api/roles";
import { meQuery } from "@/lib/client/queries";
import { formProblems } from "@/lib/ui/access";
import { projectOfNamespace } from "@/lib/ui/permissions";
import type { UpdateRunAnswer } from "@/lib/api/update-runs";
import { runActions, type RunAction } from "@/lib/ui/update-run-text";
import { useRunAction } from "./update-run-queries";

interface ActionWords {
  readonly label: string;
  readonly icon: ReactNode;
  readonly title: (run: UpdateRunAnswer) => string;
  readonly body: (run: UpdateRunAnswer) => ReactNode;
  readonly confirm: string;
  readonly busy: string;
  readonly danger?: boolean;
}

const ICON = "size-4";

/** The stage an approval lets start: the first that waits for one. */
const waitingStage = (run: UpdateRunAnswer) =>
  run.stages.find((s) => s.state === "WaitingForApproval") ?? run.stages.find((s) => s.approval && !s.startedAt);

const WORDS: Record<RunAction, ActionWords> = {
  approve: {
    label: "Approve",
    icon: <UserCheck aria-hidden className={ICON} />,
    title: (run) => `Approve the stage ${waitingStage(run)?.name ?? "that waits"}?`,
    body: (run) => {
      const stage = waitingStage(run);
      const n = stage?.items.length ?? 0;
      return (
        <>
          <p>
            The stage <span className="font-medium text-slate-900">{stage?.name}</span> then starts on its {n}{" "}
            {n === 1 ? "cluster" : "clusters"}
            {stage?.when === "window" ? ", each in its next maintenance window" : " now"}.
          </p>
          <p>The approval is recorded in the audit log under your name.</p>
        </>
      );
    },
    confirm: "Approve stage",
    busy: "Approving…",
  },
  pause: {
    label: "Pause",
    icon: <PauseCircle aria-hidden className={ICON} />,
    title: () => "Pause this run?",
    body: () => (
      <p>
        Clusters already being updated finish their update; no further cluster is started, and no stage begins, until
        the run is resumed.
      </p>
    ),
    confirm: "Pause run",
    busy: "Pausing…",
  },
  resume: {
    label: "Resume",
    icon: <PlayCircle aria-hidden className={ICON} />,
    title: () => "Resume this run?",
    body: (run) => (
      <p>The run goes on where it stopped{run.healthGate ? "; a health gate that held it is checked again" : ""}.</p>
    ),
    confirm: "Resume run",
    busy: "Resuming…",
  },
  cancel: {
    label: "Cancel run",
    icon: <Ban aria-hidden className={ICON} />,
    title: () => "Cancel this run?",
    body: () => (
      <>
        <p>No further cluster is started and the run ends as Cancelled. This cannot be undone.</p>
        <p>
          Clusters already updated keep their new versions: Gardener does not roll an update back. An update under way
          finishes.
        </p>
      </>
    ),
    confirm: "Cancel run",
    busy: "Cancelling…",
    danger: true,
  },
};

const ORDER: readonly RunAction[] = ["approve", "pause", "resume", "cancel"];

/** Whether the caller's role may act on every cluster of the run (operator on their projects). */
function useRoleReason(run: UpdateRunAnswer): string | undefined {
  const me = useQuery(meQuery);
  if (!me.data) return undefined;
  const namespaces = new Set(run.stages.flatMap((s) => s.items.map((i) => i.namespace)));
  for (const namespace of namespaces) {
    const project = projectOfNamespace(me.data.bindings, namespace);
    if (!allows(me.data.bindings, "operate", project))
      return `Your role does not allow changing the clusters of ${project ? `project ${project}` : `namespace ${namespace}`}; it needs operator.`;
  }
  return undefined;
}

export function RunActions({ run }: { run: UpdateRunAnswer }) {
  const [asking, setAsking] = useState<RunAction>();
  const allowed = runActions(run.state);
  const roleReason = useRoleReason(run);
  const act = useRunAction(run.id);
  const close = () => {
    act.reset();
    setAsking(undefined);
  };
  const words = asking ? WORDS[asking] : undefined;
  return (
    <div className="flex flex-col items-stretch gap-2 sm:items-end">
      <div className="flex flex-wrap gap-2" role="group" aria-label="Run actions">
        {ORDER.map((action) => {
          const state = allowed[action];
          const reason = state.reason ?? roleReason;
          const enabled = state.enabled && roleReason === undefined;
          const reasonId = `run-${action}-reason`;
          return (
            <Button
              key={action}
              variant={action === "approve" ? "primary" : action === "cancel" ? "danger-secondary" : "secondary"}
              disabled={!enabled}
              aria-describedby={describedBy(!enabled && reason ? reasonId : undefined)}
              title={!enabled ? reason : undefined}
              onClick={() => setAsking(action)}
            >
              {WORDS[action].icon}
              {WORDS[action].label}
            </Button>
          );
        })}
      </div>
      {/* Each disabled button's reason, for screen readers (and on hover); one line shows the main one. */}
      <div className="sr-only">
        {ORDER.map((action) => {
          const reason = allowed[action].reason ?? roleReason;
          return !(allowed[action].enabled && roleReason === undefined) && reason ? (
            <span key={action} id={`run-${action}-reason`}>
              {reason}
            </span>
          ) : null;
        })}
      </div>
      {roleReason ? (
        <p className="text-xs text-slate-500" data-testid="not-allowed">
          {roleReason}
        </p>
      ) : (
        !allowed.approve.enabled &&
        !allowed.cancel.enabled && <p className="text-xs text-slate-500">{allowed.cancel.reason}</p>
      )}
      <Dialog
        open={asking !== undefined}
        onClose={close}
        title={words ? words.title(run) : ""}
        footer={
          words && asking ? (
            <>
              <Button onClick={close} data-autofocus>
                {asking === "cancel" ? "Keep running" : "Back"}
              </Button>
              <Button
                variant={words.danger ? "danger" : "primary"}
                disabled={act.isPending}
                onClick={() => act.mutate(asking, { onSuccess: close })}
              >
                {act.isPending ? words.busy : words.confirm}
              </Button>
            </>
          ) : undefined
        }
      >
        {words && (
          <div className="space-y-3 text-sm text-slate-700">
            {words.body(run)}
            <FormAlert message={formProblems(act.error).message} />
          </div>
        )}
      </Dialog>
    </div>
  );
}

"use client";

// The lifecycle page's operations: reconcile (or retry a failed operation), hibernate or wake up,
// and delete. Each asks first in a dialog, then follows what it started there and, once the dialog
// is closed, in a small status button beside them (the page refreshes live from /api/v1/events;
// while an operation is under way the shoot is also polled every second). Reconcile, retry and
// hibernation need the operator role on the cluster's project, deleting the admin role; below it
// a button is disabled and says why, as it does when the cluster's state does not allow it.
import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { AlertOctagon, CheckCircle2, Loader2, Moon, RefreshCw, RotateCw, Sun, Trash2, XCircle } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { describedBy, NotAllowed, reasonId } from "@/components/ui/not-allowed";
import { ProgressBar } from "@/components/ui/progress";
import { usePermissions } from "@/components/use-permissions";
import { useShootChange } from "@/lib/client/use-shoot-change";
import { RequestError } from "@/lib/ui/api";
import type { Shoot } from "@/lib/ui/api-types";
import { shootQuery } from "@/lib/client/queries";
import {
  deletionUnavailable,
  hibernationWarning,
  operationOffers,
  operationPatch,
  operationProgress,
  operationUnderWay,
  type OperationProgress,
  type OperationWatch,
  type ShootOperation,
} from "@/lib/ui/shoot-operations";
import { usePreload } from "./use-preload";

// The delete dialog opens only on a click: its code loads then, not with the page.
const loadDeleteShootDialog = () => import("./delete-shoot-dialog").then((m) => m.DeleteShootDialog);
const DeleteShootDialog = dynamic(loadDeleteShootDialog, { ssr: false });

const OPERATION: Record<ShootOperation, { label: string; icon: ReactNode; title: string; verb: string }> = {
  reconcile: {
    label: "Reconcile",
    icon: <RefreshCw aria-hidden className="size-4" />,
    title: "Reconcile",
    verb: "Reconcile now",
  },
  retry: {
    label: "Retry operation",
    icon: <RotateCw aria-hidden className="size-4" />,
    title: "Retry the failed operation of",
    verb: "Retry now",
  },
  hibernate: {
    label: "Hibernate",
    icon: <Moon aria-hidden className="size-4" />,
    title: "Hibernate",
    verb: "Hibernate",
  },
  wake: { label: "Wake up", icon: <Sun aria-hidden className="size-4" />, title: "Wake up", verb: "Wake up" },
};

function explanation(operation: ShootOperation, shoot: Shoot): ReactNode {
  const last = shoot.status?.lastOperation;
  switch (operation) {
    case "reconcile":
      return "Gardener reconciles the cluster once more with its current specification (annotation gardener.cloud/operation=reconcile). Nothing in the specification changes; workloads keep running.";
    case "retry":
      return (
        <>
          The last operation ({last?.type}) failed
          {last?.description ? (
            <>
              : <span className="italic">{last.description}</span>
            </>
          ) : (
            ""
          )}
          . Gardener does not try a failed operation again by itself; this asks it to (annotation
          gardener.cloud/operation=retry).
        </>
      );
    case "hibernate":
      return "The control plane is scaled down and every worker node is deleted; workloads stop until the cluster is woken up. Persistent volumes and the cluster's state are kept.";
    case "wake":
      return "The control plane is scaled up and the worker nodes are created again; workloads start once the nodes are ready.";
  }
}

function StepIcon({ progress }: { progress: OperationProgress }) {
  if (operationUnderWay(progress)) return <Loader2 aria-hidden className="size-4 animate-spin text-sky-600" />;
  if (progress.step === "failed") return <XCircle aria-hidden className="size-4 text-red-600" />;
  return <CheckCircle2 aria-hidden className="size-4 text-emerald-600" />;
}

export function OperationActions({ shoot }: { shoot: Shoot }) {
  const namespace = shoot.metadata.namespace ?? "";
  const name = shoot.metadata.name;
  const { operate, administer } = usePermissions(namespace);
  const [open, setOpen] = useState<ShootOperation | "delete" | null>(null);
  usePreload(loadDeleteShootDialog);
  const [watch, setWatch] = useState<OperationWatch | null>(null);
  const progress = watch ? operationProgress(shoot, watch) : undefined;
  const underWay = operationUnderWay(progress);
  useQuery({ ...shootQuery(namespace, name), enabled: underWay, refetchInterval: underWay ? 1_000 : false });

  const offers = operationOffers(shoot);
  const cannotDelete = deletionUnavailable(shoot);
  const operateWhy = reasonId("operations-not-allowed", operate);

  return (
    <div className="flex flex-col items-start gap-1.5 sm:items-end">
      <div
        role="group"
        aria-label="Cluster operations"
        className="flex flex-wrap items-center justify-start gap-2 sm:justify-end"
      >
        {watch && progress && open !== watch.operation && (
          <button
            type="button"
            onClick={() => setOpen(watch.operation)}
            data-testid="operation-status"
            className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-xs font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            <StepIcon progress={progress} />
            {OPERATION[watch.operation].label}:{" "}
            {progress.step === "queued"
              ? "asked"
              : progress.step === "running" || progress.step === "retrying"
                ? `${progress.progress ?? 0}%`
                : progress.step === "done"
                  ? "done"
                  : progress.step === "failed"
                    ? "failed"
                    : "nothing to do"}
          </button>
        )}
        {offers.map((offer) => {
          const meta = OPERATION[offer.operation];
          const unavailableId = offer.unavailable ? `operation-${offer.operation}-unavailable` : undefined;
          return (
            <Button
              key={offer.operation}
              onClick={() => setOpen(offer.operation)}
              disabled={!operate.allowed || !!offer.unavailable || (underWay && watch?.operation === offer.operation)}
              aria-describedby={describedBy(operateWhy, unavailableId)}
            >
              {meta.icon}
              {meta.label}
            </Button>
          );
        })}
        <Button
          variant="danger-secondary"
          onClick={() => setOpen("delete")}
          disabled={!administer.allowed || !!cannotDelete}
          aria-describedby={describedBy(
            reasonId("delete-not-allowed", administer),
            !!cannotDelete && !offers.some((o) => o.unavailable) && "delete-unavailable",
            !!cannotDelete && offers.some((o) => o.unavailable) && `operation-${offers[0].operation}-unavailable`,
          )}
        >
          <Trash2 aria-hidden className="size-4" />
          Delete…
        </Button>
      </div>
      <NotAllowed id="operations-not-allowed" allowance={operate} />
      {operate.allowed && <NotAllowed id="delete-not-allowed" allowance={administer} className="text-right" />}
      {!operate.allowed && !administer.allowed && administer.reason && (
        // The delete button's own reason, when the operator's reason is already shown above.
        <span id="delete-not-allowed" className="sr-only">
          {administer.reason}
        </span>
      )}
      {offers
        .filter((o) => o.unavailable)
        .slice(0, 1)
        .map((o) => (
          <p key={o.operation} id={`operation-${o.operation}-unavailable`} className="text-xs text-slate-500">
            {o.unavailable}
          </p>
        ))}
      {cannotDelete && !offers.some((o) => o.unavailable) && (
        <p id="delete-unavailable" className="text-xs text-slate-500">
          {cannotDelete}
        </p>
      )}
      {offers.map((offer) => (
        <OperationDialog
          key={offer.operation}
          shoot={shoot}
          operation={offer.operation}
          open={open === offer.operation}
          onClose={() => setOpen(null)}
          watch={watch?.operation === offer.operation ? watch : null}
          progress={watch?.operation === offer.operation ? progress : undefined}
          onStarted={setWatch}
        />
      ))}
      {/* The dialog of an operation the offers no longer list (a retry that succeeded, a wake after hibernating). */}
      {watch && !offers.some((o) => o.operation === watch.operation) && (
        <OperationDialog
          shoot={shoot}
          operation={watch.operation}
          open={open === watch.operation}
          onClose={() => setOpen(null)}
          watch={watch}
          progress={progress}
          onStarted={setWatch}
        />
      )}
      {open === "delete" && <DeleteShootDialog shoot={shoot} onClose={() => setOpen(null)} />}
    </div>
  );
}

function OperationDialog({
  shoot,
  operation,
  open,
  onClose,
  watch,
  progress,
  onStarted,
}: {
  shoot: Shoot;
  operation: ShootOperation;
  open: boolean;
  onClose: () => void;
  watch: OperationWatch | null;
  progress: OperationProgress | undefined;
  onStarted: (watch: OperationWatch) => void;
}) {
  const name = shoot.metadata.name;
  // An operation asks, it does not edit: its patch carries no resourceVersion (operationPatch).
  const change = useShootChange<Shoot>(shoot.metadata.namespace ?? "", name);
  const error = change.error;
  const meta = OPERATION[operation];
  const warning = operation === "hibernate" ? hibernationWarning(shoot) : undefined;
  // A finished operation's dialog asks again when opened from its button.
  const [asking, setAsking] = useState(!watch);
  const showProgress = !!watch && !!progress && !asking;

  function start() {
    const before = shoot.metadata.generation ?? 0;
    change.act((send) => send<Shoot>("PATCH", "", { body: operationPatch(operation) }), {
      onSuccess: (result) => {
        if (result.outcome !== "done") return;
        const generation = result.answer.metadata.generation ?? 0;
        onStarted({ operation, generation, started: generation > before });
        setAsking(false);
      },
    });
  }
  const close = () => {
    change.reset();
    if (!operationUnderWay(progress)) setAsking(true);
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title={`${meta.title} ${name}`}
      description={showProgress ? undefined : explanation(operation, shoot)}
      footer={
        showProgress ? (
          <Button variant="primary" onClick={close}>
            {operationUnderWay(progress) ? "Close; keep following it" : "Done"}
          </Button>
        ) : (
          <>
            <Button onClick={close}>Cancel</Button>
            <Button variant="primary" onClick={start} disabled={change.pending}>
              {meta.icon}
              {change.pending ? "Asking…" : meta.verb}
            </Button>
          </>
        )
      }
    >
      {showProgress ? (
        <div role="status" aria-live="polite" className="space-y-2 text-sm">
          <p className="flex items-start gap-2 text-slate-800">
            <span className="mt-0.5 shrink-0">
              <StepIcon progress={progress} />
            </span>
            <span data-testid="operation-progress">{progress.message}</span>
          </p>
          {(progress.step === "running" || progress.step === "retrying" || progress.step === "done") && (
            <ProgressBar
              value={progress.progress ?? 0}
              label={`${meta.label} progress`}
              tone={progress.step === "done" ? "green" : progress.step === "retrying" ? "red" : "blue"}
            />
          )}
          {operationUnderWay(progress) && (
            <p className="text-xs text-slate-500">
              You can close this dialog: the page keeps following the operation beside the buttons.
            </p>
          )}
        </div>
      ) : (
        <div className="space-y-3 text-sm">
          {warning && (
            <p className="flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-amber-900 ring-1 ring-inset ring-amber-600/25">
              <AlertOctagon aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600" />
              <span>
                Gardener will probably refuse: the HibernationPossible constraint is {warning.status}
                {warning.message ? ` (${warning.message.replace(/\.$/, "")})` : ""}.
              </span>
            </p>
          )}
          {!warning && error == null && <p className="text-slate-600">Confirm to ask Gardener now.</p>}
          {error != null && (
            <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-900">
              <p className="flex items-center gap-1.5 font-medium">
                <AlertOctagon aria-hidden className="size-4 text-red-600" />
                {error instanceof RequestError ? `Refused: ${error.title}` : "Not sent"}
              </p>
              <p className="mt-1" data-testid="operation-error">
                {error instanceof Error ? error.message : String(error)}
              </p>
            </div>
          )}
        </div>
      )}
    </Dialog>
  );
}

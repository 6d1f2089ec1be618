"use client";

// A running bulk action: its state, a progress bar, the count per state, and each cluster's
// outcome (failures and refusals first once it has ended), read every second until it ends. It can
// be cancelled (after a confirmation: clusters already changed stay changed); its changes are in
// the audit log under its id.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Ban, CheckCircle2, CircleDashed, History, Loader2, XCircle } from "lucide-react";
import Link from "next/link";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-field";
import { ProgressBar } from "@/components/ui/progress";
import { ErrorState, Skeleton } from "@/components/ui/states";
import { BULK_ITEM_STATES, type BulkActionAnswer, type BulkItemState } from "@/lib/api/bulk-actions";
import { cancelBulkAction, getBulkAction } from "@/lib/api/operations/bulk-actions";
import { queryKeys } from "@/lib/client/query-keys";
import { formProblems } from "@/lib/ui/access";
import { choiceOf, isFinalBulkState, outcomeOrder } from "@/lib/ui/bulk-actions";
import { call } from "@/lib/ui/call";
import type { Tone } from "@/lib/ui/status";
import { BulkItemList, type BulkLine } from "./bulk-item-list";

const POLL_MS = 1_000;

const ITEM_META: Record<BulkItemState, { word: string; tone: Tone; icon: ReactNode }> = {
  Pending: { word: "Waiting", tone: "grey", icon: <CircleDashed aria-hidden className="size-3.5" /> },
  Acting: { word: "Acting", tone: "blue", icon: <Loader2 aria-hidden className="size-3.5 animate-spin" /> },
  Succeeded: { word: "Done", tone: "green", icon: <CheckCircle2 aria-hidden className="size-3.5" /> },
  Failed: { word: "Failed", tone: "red", icon: <XCircle aria-hidden className="size-3.5" /> },
  Refused: { word: "Refused", tone: "amber", icon: <Ban aria-hidden className="size-3.5" /> },
  Cancelled: { word: "Cancelled", tone: "grey", icon: <Ban aria-hidden className="size-3.5" /> },
};

/** The action's state in words, with the icon of the item state it looks like. */
const STATE_WORDS: Record<BulkActionAnswer["state"], { text: string; tone: Tone; like: BulkItemState }> = {
  Running: { text: "Running", tone: "blue", like: "Acting" },
  Succeeded: { text: "Succeeded", tone: "green", like: "Succeeded" },
  Failed: { text: "Finished with failures", tone: "red", like: "Failed" },
  Cancelled: { text: "Cancelled", tone: "grey", like: "Cancelled" },
};

export const bulkActionKey = (id: string) => [...queryKeys.fleet, "bulk-action", id] as const;

export function BulkProgress({ id, onClose }: { id: string; onClose: () => void }) {
  const client = useQueryClient();
  const action = useQuery({
    queryKey: bulkActionKey(id),
    queryFn: ({ signal }) => call(getBulkAction, { params: { id } }, { signal }),
    refetchInterval: (query) => (query.state.data && isFinalBulkState(query.state.data.state) ? false : POLL_MS),
  });
  const final = action.data !== undefined && isFinalBulkState(action.data.state);
  // The fleet shows what changed once the action has ended.
  useEffect(() => {
    if (final) void client.invalidateQueries({ queryKey: queryKeys.fleet, refetchType: "active" });
  }, [final, client]);

  if (action.isPending) {
    return (
      <div role="status" className="space-y-2">
        <span className="sr-only">Loading the action</span>
        <Skeleton className="h-6 w-1/2" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (action.isError && !action.data) {
    return (
      <ErrorState
        title="The action's progress could not be read"
        error={action.error}
        onRetry={() => void action.refetch()}
      />
    );
  }
  return <ProgressView answer={action.data} onClose={onClose} />;
}

function ProgressView({ answer, onClose }: { answer: BulkActionAnswer; onClose: () => void }) {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation({
    mutationFn: () => call(cancelBulkAction, { params: { id: answer.id } }),
    onSuccess: (next) => {
      client.setQueryData(bulkActionKey(answer.id), next);
      setConfirming(false);
    },
  });
  const final = isFinalBulkState(answer.state);
  const state = STATE_WORDS[answer.state];
  const done = Math.round(answer.progress * 100);
  const lines = useMemo<BulkLine[]>(
    () =>
      (final ? outcomeOrder(answer.items) : answer.items).map((item) => {
        const meta = ITEM_META[item.state];
        return {
          namespace: item.namespace,
          name: item.name,
          badge: (
            <Badge tone={meta.tone} icon={meta.icon}>
              {meta.word}
            </Badge>
          ),
          message: item.message,
          changes: item.state === "Succeeded" ? item.changes : [],
        };
      }),
    [answer.items, final],
  );
  const shown = BULK_ITEM_STATES.filter((s) => answer.counts[s] > 0);
  return (
    <div className="space-y-4" data-testid="bulk-progress" data-state={answer.state}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-700">
          {choiceOf(answer.action).label} on {answer.total.toLocaleString("en")}{" "}
          {answer.total === 1 ? "cluster" : "clusters"}, started by {answer.actor}.
        </p>
        <Badge tone={state.tone} icon={ITEM_META[state.like].icon}>
          <span data-testid="bulk-state">{state.text}</span>
        </Badge>
      </div>
      <div className="space-y-1.5" aria-live="polite">
        <ProgressBar
          value={done}
          label="Clusters done"
          tone={answer.state === "Failed" ? "red" : final ? "green" : "blue"}
        />
        <p className="text-xs text-slate-600">
          {answer.total - answer.counts.Pending - answer.counts.Acting} of {answer.total} done ({done}%)
          {shown.length > 0 && " · "}
          {shown.map((s) => `${answer.counts[s]} ${ITEM_META[s].word.toLowerCase()}`).join(", ")}
        </p>
      </div>
      {final && (answer.counts.Failed > 0 || answer.counts.Refused > 0) && (
        <p className="flex items-start gap-1.5 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-inset ring-red-200">
          <XCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
          {answer.counts.Failed + answer.counts.Refused}{" "}
          {answer.counts.Failed + answer.counts.Refused === 1 ? "cluster was" : "clusters were"} not changed: the
          reasons are listed first.
        </p>
      )}
      <BulkItemList lines={lines} label="Each cluster's outcome" />
      {confirming && !final && (
        <div
          role="alertdialog"
          aria-labelledby="bulk-cancel-question"
          className="space-y-2 rounded-lg bg-amber-50 px-3 py-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200"
        >
          <p id="bulk-cancel-question" className="font-medium">
            Cancel this action?
          </p>
          <p>
            Clusters not yet acted on are left alone; those already changed stay changed ({answer.counts.Succeeded} so
            far).
          </p>
          <FormAlert message={formProblems(cancel.error).message} />
          <div className="flex flex-wrap justify-end gap-2">
            <Button onClick={() => setConfirming(false)} autoFocus>
              Keep running
            </Button>
            <Button variant="danger" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
              {cancel.isPending ? "Cancelling…" : "Cancel the rest"}
            </Button>
          </div>
        </div>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-4">
        <Link
          href={`/audit?bulkAction=${answer.id}`}
          className="inline-flex items-center gap-1.5 text-sm font-medium text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          <History aria-hidden className="size-4" />
          Its changes in the audit log
        </Link>
        <div className="flex flex-wrap gap-2">
          {!final && !confirming && (
            <Button variant="danger-secondary" onClick={() => setConfirming(true)}>
              Cancel action…
            </Button>
          )}
          <Button variant={final ? "primary" : "secondary"} onClick={onClose}>
            {final ? "Done" : "Close (it keeps running)"}
          </Button>
        </div>
      </div>
    </div>
  );
}

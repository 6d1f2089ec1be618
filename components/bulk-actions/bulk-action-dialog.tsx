"use client";

// One bulk action, from the choice to the outcome: its parameters (if it takes any), then the
// preview per cluster (POST /bulk-actions with dryRun: what it will change, what is unchanged,
// what is refused and why), then Start, and the progress view of the running action (its own
// component, polling until it ends). Nothing starts without the preview shown first.
import { useMutation } from "@tanstack/react-query";
import { AlertTriangle, CheckCircle2, MinusCircle, XCircle } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-field";
import { Skeleton } from "@/components/ui/states";
import type { BulkActionName, BulkActionRequest, BulkPreviewAnswer, BulkPreviewItem } from "@/lib/api/bulk-actions";
import { startBulkAction } from "@/lib/api/operations/bulk-actions";
import { formProblems } from "@/lib/ui/access";
import { RequestError } from "@/lib/ui/api";
import { bulkParams, choiceOf, DEFAULT_PARAMS, paramsSummary, type BulkParamsDraft } from "@/lib/ui/bulk-actions";
import { call } from "@/lib/ui/call";
import { BulkItemList, type BulkLine } from "./bulk-item-list";
import { BulkParamsForm } from "./bulk-params-form";
import { BulkProgress } from "./bulk-progress";

/** What the action is asked of: shoots by key, or a fleet-list filter (its query as an object). */
export type BulkTarget =
  | { readonly kind: "keys"; readonly shoots: readonly { namespace: string; name: string }[] }
  | { readonly kind: "filter"; readonly filter: Readonly<Record<string, string>>; readonly total?: number };

const targetBody = (target: BulkTarget) =>
  target.kind === "keys" ? { shoots: [...target.shoots] } : { filter: { ...target.filter } };

/** The problem's own words (a 422's detail names the field), or the connection's. */
const problemText = (error: unknown) => (error instanceof RequestError ? error.message : formProblems(error).message);

export function BulkActionDialog({
  action,
  target,
  selectionText,
  onClose,
}: {
  action: BulkActionName | undefined;
  target: BulkTarget;
  /** "2 shoots", "all 64 shoots this filter selects": what the heading says is acted on. */
  selectionText: string;
  onClose: () => void;
}) {
  const [started, setStarted] = useState<string>();
  const close = () => {
    setStarted(undefined);
    onClose();
  };
  const choice = action ? choiceOf(action) : undefined;
  return (
    <Dialog
      open={action !== undefined}
      onClose={close}
      wide
      title={started ? `${choice?.label}: progress` : `${choice?.label ?? ""} · ${selectionText}`}
      description={started ? undefined : choice?.help}
    >
      {action &&
        (started ? (
          <BulkProgress id={started} onClose={close} />
        ) : (
          <PreviewStep action={action} target={target} onStarted={setStarted} onCancel={close} />
        ))}
    </Dialog>
  );
}

function PreviewStep({
  action,
  target,
  onStarted,
  onCancel,
}: {
  action: BulkActionName;
  target: BulkTarget;
  onStarted: (id: string) => void;
  onCancel: () => void;
}) {
  const choice = choiceOf(action);
  const [draft, setDraft] = useState<BulkParamsDraft>(DEFAULT_PARAMS);
  const body = (dryRun: boolean): BulkActionRequest => {
    const params = bulkParams(action, draft);
    return { action, ...targetBody(target), ...(params ? { params } : {}), ...(dryRun ? { dryRun } : {}) };
  };
  const preview = useMutation({
    mutationFn: () => call(startBulkAction, { body: body(true) }) as Promise<BulkPreviewAnswer>,
  });
  const start = useMutation({
    mutationFn: () => call(startBulkAction, { body: body(false) }) as Promise<{ id: string; total: number }>,
    onSuccess: (answer) => onStarted(answer.id),
  });
  // The actions without parameters preview at once.
  const asked = useRef(false);
  useEffect(() => {
    if (!choice.hasParams && !asked.current) {
      asked.current = true;
      preview.mutate();
    }
  }, [choice.hasParams, preview]);
  // Other parameters make the preview stale: it is asked again.
  const change = (next: BulkParamsDraft) => {
    setDraft(next);
    preview.reset();
    start.reset();
  };
  const { fields } = formProblems(preview.error);
  const answer = preview.data;
  const summary = paramsSummary(action, draft);

  return (
    <div className="space-y-4">
      {choice.hasParams && (
        <form
          className="space-y-3"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            preview.mutate();
          }}
        >
          <BulkParamsForm action={action} draft={draft} onChange={change} fields={fields} />
          {!answer && (
            <div className="flex justify-end">
              <Button type="submit" variant="primary" disabled={preview.isPending}>
                {preview.isPending ? "Previewing…" : "Preview"}
              </Button>
            </div>
          )}
        </form>
      )}
      {preview.isPending && (
        <div role="status" aria-live="polite" className="space-y-2">
          <span className="text-sm text-slate-600">Working out what happens to each cluster…</span>
          <Skeleton className="h-16 w-full" />
        </div>
      )}
      <FormAlert message={problemText(preview.error)} />
      {answer && <PreviewAnswer answer={answer} summary={summary} changesSay={!MESSAGE_NEEDED.has(action)} />}
      <FormAlert message={problemText(start.error)} />
      <div className="flex flex-wrap items-center justify-end gap-2 border-t border-slate-200 pt-4">
        <Button onClick={onCancel}>Cancel</Button>
        {answer && (
          <Button
            variant={choice.disruptive ? "danger" : "primary"}
            disabled={start.isPending || answer.counts.act === 0}
            onClick={() => start.mutate()}
            title={answer.counts.act === 0 ? "No cluster would change." : undefined}
          >
            {start.isPending
              ? "Starting…"
              : `Start: ${choice.label.toLowerCase()} on ${answer.counts.act.toLocaleString("en")} ${answer.counts.act === 1 ? "cluster" : "clusters"}`}
          </Button>
        )}
      </div>
    </div>
  );
}

/**
 * The actions whose sentence says more than their field changes (maintain now's plan); for the
 * others a change is the field's before and after, which the list shows as such.
 */
const MESSAGE_NEEDED = new Set<BulkActionName>(["maintain", "hibernate", "wake"]);

const OUTCOME_ORDER: Record<BulkPreviewItem["outcome"], number> = { refused: 0, act: 1, unchanged: 2 };

function PreviewAnswer({
  answer,
  summary,
  changesSay,
}: {
  answer: BulkPreviewAnswer;
  summary: string | undefined;
  /** Whether a cluster's field changes say all its sentence would (then only refusals keep theirs). */
  changesSay: boolean;
}) {
  // Refusals first: they are what the person should read before starting.
  const lines = useMemo<BulkLine[]>(
    () =>
      [...answer.items]
        .sort((a, b) => OUTCOME_ORDER[a.outcome] - OUTCOME_ORDER[b.outcome])
        .map((item) => ({
          namespace: item.namespace,
          name: item.name,
          badge: <OutcomeBadge outcome={item.outcome} />,
          message: changesSay && item.outcome === "act" && item.changes.length > 0 ? undefined : item.message,
          changes: item.changes,
        })),
    [answer, changesSay],
  );
  return (
    <section aria-label="Preview" className="space-y-3" data-testid="bulk-preview">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">
          Preview of {answer.total.toLocaleString("en")} {answer.total === 1 ? "cluster" : "clusters"}
        </h3>
        {summary && <span className="text-xs text-slate-500">{summary}</span>}
      </div>
      <dl className="grid grid-cols-3 gap-2 text-center" data-testid="bulk-preview-counts">
        <Count label="will change" value={answer.counts.act} tone="text-emerald-700" testId="act" />
        <Count label="unchanged" value={answer.counts.unchanged} tone="text-slate-700" testId="unchanged" />
        <Count label="refused" value={answer.counts.refused} tone="text-red-700" testId="refused" />
      </dl>
      {answer.counts.refused > 0 && (
        <p className="flex items-start gap-1.5 text-xs text-slate-600">
          <AlertTriangle aria-hidden className="mt-px size-3.5 shrink-0 text-amber-600" />
          Refused clusters are left alone; the action runs on the others. The reasons are listed first.
        </p>
      )}
      <BulkItemList lines={lines} label="Each cluster's preview" />
    </section>
  );
}

function Count({ label, value, tone, testId }: { label: string; value: number; tone: string; testId: string }) {
  return (
    <div
      className="flex flex-col-reverse rounded-lg bg-slate-50 px-2 py-2 ring-1 ring-inset ring-slate-200"
      data-count={testId}
    >
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className={`text-xl font-semibold tabular-nums ${value === 0 ? "text-slate-500" : tone}`}>
        {value.toLocaleString("en")}
      </dd>
    </div>
  );
}

function OutcomeBadge({ outcome }: { outcome: BulkPreviewItem["outcome"] }) {
  if (outcome === "act")
    return (
      <Badge tone="green" icon={<CheckCircle2 aria-hidden className="size-3.5" />}>
        Will change
      </Badge>
    );
  if (outcome === "unchanged")
    return (
      <Badge tone="grey" icon={<MinusCircle aria-hidden className="size-3.5" />}>
        Unchanged
      </Badge>
    );
  return (
    <Badge tone="red" icon={<XCircle aria-hidden className="size-3.5" />}>
      Refused
    </Badge>
  );
}

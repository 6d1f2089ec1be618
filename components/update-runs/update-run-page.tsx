"use client";

// /update-runs/{id}: one run, live. At the top what it is (target, health gate, who started it),
// how far it has come and what it waits for now; then its stages as a vertical progression, each
// with its moments (started, soaking until, approved by), what it waits for, and its clusters with
// their state. Approve / pause / resume / cancel beside the title. Read again every two seconds
// until the run ends.
import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, CalendarClock, HeartPulse, History, Timer, UserCheck, Zap } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { ProgressBar } from "@/components/ui/progress";
import { EmptyState, ErrorState, LoadingBlock, NeedsRoleState, RefreshFailed } from "@/components/ui/states";
import { DualTime, useMounted, useNow } from "@/components/ui/time";
import { isForbidden } from "@/lib/ui/access";
import { RequestError } from "@/lib/ui/api";
import { shootPage } from "@/lib/ui/page-links";
import { formatSpan } from "@/lib/ui/time";
import type { UpdateRunAnswer } from "@/lib/api/update-runs";
import {
  RUN_STATE_META,
  durationText,
  isDonePart,
  isFinalRun,
  itemCounts,
  itemStateMeta,
  stageStateMeta,
  runProgress,
  stageWaitText,
  targetText,
} from "@/lib/ui/update-run-text";
import { RunActions } from "./run-actions";
import { StateBadge, StateIcon } from "./run-state-badge";
import { updateRunQuery } from "./update-run-queries";

type Stage = UpdateRunAnswer["stages"][number];

export function UpdateRunPage({ id }: { id: string }) {
  const run = useQuery(updateRunQuery(id));
  const back = (
    <Link
      href="/update-runs"
      className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-accent-700 focus-visible:outline-2 focus-visible:outline-accent-600"
    >
      <ArrowLeft aria-hidden className="size-4" /> Update runs
    </Link>
  );
  if (run.isPending)
    return (
      <div className="space-y-6">
        <PageHeader eyebrow={back} title="Update run" />
        <Panel>
          <LoadingBlock label="Loading the update run" lines={8} />
        </Panel>
      </div>
    );
  if (!run.data) {
    const missing = run.error instanceof RequestError && run.error.status === 404;
    return (
      <div className="space-y-6">
        <PageHeader eyebrow={back} title="Update run" />
        {isForbidden(run.error) ? (
          <NeedsRoleState title="Your role does not show this update run." error={run.error} />
        ) : missing ? (
          <EmptyState title="No such update run">
            It may have been made on another Almanac, or the link is incomplete.{" "}
            <Link href="/update-runs" className="text-accent-700 underline">
              See every run
            </Link>
            .
          </EmptyState>
        ) : (
          <ErrorState title="The update run could not be loaded" error={run.error} onRetry={() => void run.refetch()} />
        )}
      </div>
    );
  }
  return (
    <RunView
      run={run.data}
      back={back}
      refreshError={run.isRefetchError ? run.error : undefined}
      onRetry={() => void run.refetch()}
    />
  );
}

function RunView({
  run,
  back,
  refreshError,
  onRetry,
}: {
  run: UpdateRunAnswer;
  back: React.ReactNode;
  refreshError: unknown;
  onRetry: () => void;
}) {
  const now = useNow(1_000);
  const meta = RUN_STATE_META[run.state];
  return (
    <div className="space-y-6" data-run-state={run.state}>
      <PageHeader
        eyebrow={back}
        title={
          <span className="inline-flex flex-wrap items-center gap-3">
            {run.name}
            <span data-testid="run-state">
              <StateBadge meta={meta} />
            </span>
          </span>
        }
        description={targetText(run.target)}
        actions={<RunActions run={run} />}
      />
      {refreshError !== undefined && <RefreshFailed what="the run" error={refreshError} onRetry={onRetry} />}
      <Overview run={run} now={now} />
      <Panel title="Stages" id="run-stages">
        <ol className="relative" aria-label="Stages, in the order they run">
          {run.stages.map((stage, i) => (
            <StageStep
              key={`${i}-${stage.name}`}
              run={run}
              stage={stage}
              index={i}
              last={i === run.stages.length - 1}
              now={now}
            />
          ))}
        </ol>
      </Panel>
    </div>
  );
}

function Overview({ run, now }: { run: UpdateRunAnswer; now: number }) {
  const progress = runProgress(run);
  const percent = progress.total === 0 ? 0 : Math.round((progress.done / progress.total) * 100);
  const tone =
    run.state === "Failed" ? "red" : run.state === "Succeeded" ? "green" : run.state === "Paused" ? "amber" : "blue";
  const callout =
    run.state === "Paused" || run.state === "Failed"
      ? "border-amber-200 bg-amber-50 text-amber-950"
      : run.state === "WaitingForApproval"
        ? "border-violet-200 bg-violet-50 text-violet-950"
        : "border-sky-200 bg-sky-50 text-sky-950";
  return (
    <Panel>
      <div className="grid gap-5 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="min-w-0 space-y-3">
          <div className="flex items-baseline justify-between gap-3">
            <p className="text-sm font-medium text-slate-900">
              {progress.done} of {progress.total} clusters done
            </p>
            <p className="text-xs text-slate-500">
              {progress.stagesDone} of {run.stages.length} stages
              {progress.failed > 0 && <span className="text-red-700"> · {progress.failed} failed or refused</span>}
            </p>
          </div>
          <ProgressBar value={percent} label="Clusters done" tone={tone} />
          {run.message && (
            <p
              role="status"
              data-testid="run-message"
              className={`rounded-lg border px-3 py-2 text-sm ${isFinalRun(run.state) ? "border-slate-200 bg-slate-50 text-slate-800" : callout}`}
            >
              {run.message}
            </p>
          )}
        </div>
        <dl className="grid min-w-0 grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
          <dt className="text-slate-500">Health gate</dt>
          <dd className="text-slate-800">
            {run.healthGate
              ? `After each stage, every cluster Healthy with its last operation Succeeded for ${durationText(run.healthGate.healthySeconds)}`
              : "None: the next stage starts after the soak time"}
          </dd>
          <dt className="text-slate-500">Started by</dt>
          <dd className="break-all text-slate-800">{run.actor}</dd>
          <dt className="text-slate-500">Created</dt>
          <dd className="text-slate-800">
            <DualTime at={run.createdAt} now={now} />
          </dd>
          {run.finishedAt ? (
            <>
              <dt className="text-slate-500">Ended</dt>
              <dd className="text-slate-800">
                <DualTime at={run.finishedAt} now={now} />
                <span className="block text-xs text-slate-500">
                  after {formatSpan(Date.parse(run.finishedAt) - Date.parse(run.startedAt ?? run.createdAt))}
                </span>
              </dd>
            </>
          ) : (
            <>
              <dt className="text-slate-500">Expected end</dt>
              <dd className="text-slate-800" data-testid="expected-end">
                {run.expectedEnd ? (
                  <>
                    <DualTime at={run.expectedEnd} now={now} />
                    <span className="block text-xs text-slate-500">
                      {run.state === "WaitingForApproval"
                        ? "If approved now and nothing holds it."
                        : run.state === "Paused"
                          ? "If resumed now and nothing holds it."
                          : "If nothing holds it."}
                    </span>
                  </>
                ) : (
                  <span className="text-slate-500">Not known yet</span>
                )}
              </dd>
            </>
          )}
          <dt className="text-slate-500">History</dt>
          <dd>
            <Link
              href={`/audit?updateRun=${encodeURIComponent(run.id)}`}
              className="inline-flex items-center gap-1 text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
            >
              <History aria-hidden className="size-4" /> The run&apos;s events in the audit log
            </Link>
          </dd>
        </dl>
      </div>
    </Panel>
  );
}

function StageStep({
  run,
  stage,
  index,
  last,
  now,
}: {
  run: UpdateRunAnswer;
  stage: Stage;
  index: number;
  last: boolean;
  now: number;
}) {
  const meta = stageStateMeta(stage.state);
  const waits = stageWaitText(stage, run, now);
  const done = isDonePart(stage.state);
  const marker =
    meta.tone === "green"
      ? "bg-emerald-600 text-white"
      : meta.tone === "red"
        ? "bg-red-600 text-white"
        : meta.tone === "blue"
          ? "bg-sky-600 text-white"
          : meta.tone === "violet"
            ? "bg-violet-600 text-white"
            : meta.tone === "amber"
              ? "bg-amber-500 text-white"
              : "bg-white text-slate-600 ring-2 ring-inset ring-slate-300";
  return (
    <li className="relative flex gap-4 pb-6 last:pb-0" data-stage={stage.name} data-state={stage.state}>
      {!last && <span aria-hidden className="absolute left-4 top-9 -bottom-0 w-0.5 -translate-x-1/2 bg-slate-200" />}
      <span
        aria-hidden
        className={`relative z-10 flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-semibold ${marker}`}
      >
        {done || meta.tone !== "grey" ? <StateIcon icon={meta.icon} className="size-4" /> : index + 1}
      </span>
      <div className="min-w-0 flex-1 space-y-2 pt-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-semibold text-slate-900">
            <span className="sr-only">Stage {index + 1}: </span>
            {stage.name}
          </h3>
          <StateBadge meta={meta} />
        </div>
        <ul className="flex flex-wrap gap-1.5 text-xs" aria-label={`How stage ${stage.name} runs`}>
          <li>
            <Badge
              tone="grey"
              icon={
                stage.when === "now" ? (
                  <Zap aria-hidden className="size-3.5" />
                ) : (
                  <CalendarClock aria-hidden className="size-3.5" />
                )
              }
            >
              {stage.when === "now" ? "Now" : "In each cluster's maintenance window"}
            </Badge>
          </li>
          <li>
            <Badge tone="grey" icon={<Timer aria-hidden className="size-3.5" />}>
              Soak {durationText(stage.soakSeconds)}
            </Badge>
          </li>
          {stage.approval && (
            <li>
              <Badge tone={stage.approvedAt ? "green" : "violet"} icon={<UserCheck aria-hidden className="size-3.5" />}>
                {stage.approvedAt ? "Approved" : "Needs approval"}
              </Badge>
            </li>
          )}
          {run.healthGate && (
            <li>
              <Badge tone="grey" icon={<HeartPulse aria-hidden className="size-3.5" />}>
                Health gate {durationText(run.healthGate.healthySeconds)}
              </Badge>
            </li>
          )}
        </ul>
        {waits && (
          <p
            className={`rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset ${
              (stage.holding ?? []).length > 0
                ? "bg-amber-50 text-amber-950 ring-amber-600/20"
                : run.state === "WaitingForApproval"
                  ? "bg-violet-50 text-violet-950 ring-violet-600/20"
                  : "bg-sky-50 text-sky-950 ring-sky-600/20"
            }`}
            data-testid="stage-waits"
          >
            {waits}
          </p>
        )}
        <StageMoments stage={stage} now={now} />
        <StageClusters stage={stage} now={now} open={!done || stage.items.some((i) => i.state === "Failed")} />
      </div>
    </li>
  );
}

function StageMoments({ stage, now }: { stage: Stage; now: number }) {
  const mounted = useMounted();
  if (!mounted || (!stage.startedAt && !stage.finishedAt && !stage.approvedAt && !stage.soakUntil)) return null;
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs text-slate-600">
      {stage.approvedAt && (
        <>
          <dt className="text-slate-500">Approved</dt>
          <dd>
            by <span className="font-medium text-slate-800">{stage.approvedBy}</span>,{" "}
            <DualTime at={stage.approvedAt} now={now} />
          </dd>
        </>
      )}
      {stage.startedAt && (
        <>
          <dt className="text-slate-500">Started</dt>
          <dd>
            <DualTime at={stage.startedAt} now={now} />
          </dd>
        </>
      )}
      {stage.soakUntil && (
        <>
          <dt className="text-slate-500">Soak until</dt>
          <dd>
            <DualTime at={stage.soakUntil} now={now} />
          </dd>
        </>
      )}
      {stage.finishedAt && (
        <>
          <dt className="text-slate-500">Finished</dt>
          <dd>
            <DualTime at={stage.finishedAt} now={now} />
          </dd>
        </>
      )}
    </dl>
  );
}

function StageClusters({ stage, now, open }: { stage: Stage; now: number; open: boolean }) {
  const counts = itemCounts(stage.items);
  const n = stage.items.length;
  return (
    <details open={open} className="group rounded-lg ring-1 ring-slate-200">
      <summary className="flex cursor-pointer flex-wrap items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600">
        <span className="font-medium text-slate-900">
          {n} {n === 1 ? "cluster" : "clusters"}
        </span>
        {counts.map(({ state, count }) => {
          const m = itemStateMeta(state);
          return <StateBadge key={state} meta={{ ...m, word: `${count} ${m.word.toLowerCase()}` }} />;
        })}
      </summary>
      <ul
        className="max-h-96 divide-y divide-slate-100 overflow-y-auto border-t border-slate-100"
        aria-label={`Clusters of stage ${stage.name}`}
      >
        {stage.items.map((item) => (
          <li
            key={`${item.namespace}/${item.name}`}
            className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 px-3 py-2"
            data-item={`${item.namespace}/${item.name}`}
            data-state={item.state}
          >
            <div className="min-w-0">
              <Link
                href={shootPage(item.namespace, item.name)}
                className="font-medium text-slate-900 hover:text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
              >
                {item.name}
              </Link>{" "}
              <span className="text-xs text-slate-500">{item.namespace}</span>
              {item.message && <p className="break-words text-xs text-slate-600">{item.message}</p>}
              {item.dueAt && !isDonePart(item.state) && (
                <p className="text-xs text-slate-600">
                  Its window: <DualTime at={item.dueAt} now={now} />
                </p>
              )}
            </div>
            <StateBadge meta={itemStateMeta(item.state)} />
          </li>
        ))}
      </ul>
    </details>
  );
}

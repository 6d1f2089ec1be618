"use client";

// /update-runs: every update run, newest first: its state, target, how far it has come (clusters
// done of all, the stage it is in) and what it waits for, who started it and when it ends. Polled
// while a run is under way; older runs a page at a time.
import { useQuery } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { ProgressBar } from "@/components/ui/progress";
import { ScrollBox } from "@/components/ui/scroll-box";
import { EmptyState, ErrorState, LoadingBlock, NeedsRoleState, RefreshFailed } from "@/components/ui/states";
import { DualTime, RelativeTime, useNow } from "@/components/ui/time";
import { isForbidden } from "@/lib/ui/access";
import type { UpdateRunSummary } from "@/lib/api/update-runs";
import { RUN_STATE_META, isDonePart, isFinalRun, runProgress, targetShort } from "@/lib/ui/update-run-text";
import { StateBadge } from "./run-state-badge";
import { updateRunListQuery, updateRunQuery } from "./update-run-queries";

// Below lg each run is a card: its name and state, then target, progress, who and when, each named
// (the column headings stay for screen readers only).
const CARDS_BELOW_LG = [
  "max-lg:block max-lg:[&_thead]:sr-only max-lg:[&_tbody]:block",
  "max-lg:[&_tbody_tr]:grid max-lg:[&_tbody_tr]:grid-cols-2 max-lg:[&_tbody_tr]:gap-x-3 max-lg:[&_tbody_tr]:py-3 max-lg:[&_td]:px-4 max-lg:[&_td]:py-1",
  "max-lg:[&_td:first-child]:col-span-2 max-lg:[&_td:nth-child(3)]:col-span-2",
  "max-lg:[&_td]:before:block max-lg:[&_td]:before:text-xs max-lg:[&_td]:before:font-medium max-lg:[&_td]:before:text-slate-500",
  "max-lg:[&_td:nth-child(2)]:before:content-['Target'] max-lg:[&_td:nth-child(3)]:before:content-['Progress']",
  "max-lg:[&_td:nth-child(4)]:before:content-['Started_by'] max-lg:[&_td:nth-child(5)]:before:content-['Ends']",
].join(" ");

export const NEW_RUN_LINK =
  "inline-flex items-center justify-center gap-1.5 rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-accent-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600";

export function UpdateRunsPage() {
  // The cursors of the pages shown after the first, in order ("" is the first).
  const [cursors, setCursors] = useState<readonly string[]>([""]);
  const first = useQuery(updateRunListQuery(""));
  const newRun = (
    <Link href="/update-runs/new" className={NEW_RUN_LINK}>
      <Plus aria-hidden className="size-4" /> New update run
    </Link>
  );
  return (
    <div className="space-y-6">
      <PageHeader
        title="Update runs"
        description="Move many clusters to a target in ordered stages, with soak times, a health gate and approvals between them. Each run shows what it waits for."
        actions={newRun}
      />
      {first.isPending ? (
        <Panel>
          <LoadingBlock label="Loading update runs" lines={6} />
        </Panel>
      ) : !first.data ? (
        isForbidden(first.error) ? (
          <NeedsRoleState title="Your role does not show update runs." error={first.error} />
        ) : (
          <ErrorState
            title="The update runs could not be loaded"
            error={first.error}
            onRetry={() => void first.refetch()}
          />
        )
      ) : first.data.items.length === 0 ? (
        <EmptyState title="No update run yet" action={newRun}>
          A run moves a set of clusters to a Kubernetes version, a machine image or their maintenance, a stage at a
          time: a canary first, production last, each waiting for the one before to stay healthy.
        </EmptyState>
      ) : (
        <Panel title="Runs, newest first" id="update-runs">
          {first.isRefetchError && (
            <div className="mb-3">
              <RefreshFailed what="the update runs" error={first.error} onRetry={() => void first.refetch()} />
            </div>
          )}
          <RunsTable cursors={cursors} onMore={(cursor) => setCursors((c) => [...c, cursor])} />
        </Panel>
      )}
    </div>
  );
}

function RunsTable({ cursors, onMore }: { cursors: readonly string[]; onMore: (cursor: string) => void }) {
  const now = useNow(30_000);
  return (
    <ScrollBox label="Update runs table" className="-mx-4 -my-4 sm:-mx-5 sm:-my-5">
      <table className={`w-full text-left text-sm ${CARDS_BELOW_LG}`}>
        <caption className="sr-only">Update runs, newest first</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-5 py-2.5">
              Run
            </th>
            <th scope="col" className="px-5 py-2.5">
              Target
            </th>
            <th scope="col" className="px-5 py-2.5">
              Progress
            </th>
            <th scope="col" className="px-5 py-2.5">
              Started by
            </th>
            <th scope="col" className="px-5 py-2.5">
              Ends
            </th>
          </tr>
        </thead>
        {cursors.map((cursor, i) => (
          <RunsPage key={cursor} cursor={cursor} now={now} last={i === cursors.length - 1} onMore={onMore} />
        ))}
      </table>
    </ScrollBox>
  );
}

function RunsPage({
  cursor,
  now,
  last,
  onMore,
}: {
  cursor: string;
  now: number;
  last: boolean;
  onMore: (cursor: string) => void;
}) {
  const page = useQuery(updateRunListQuery(cursor));
  if (!page.data) {
    return (
      <tbody>
        <tr>
          <td colSpan={5} className="px-5 py-3">
            {page.isError ? (
              <ErrorState
                title="Older runs could not be loaded"
                error={page.error}
                onRetry={() => void page.refetch()}
              />
            ) : (
              <LoadingBlock label="Loading older runs" lines={2} />
            )}
          </td>
        </tr>
      </tbody>
    );
  }
  const next = page.data.nextCursor;
  return (
    <tbody className="divide-y divide-slate-100 border-b border-slate-100">
      {page.data.items.map((run) => (
        <RunRow key={run.id} run={run} now={now} />
      ))}
      {last && next && (
        <tr className="max-lg:!block">
          <td colSpan={5} className="px-5 py-3 text-center max-lg:before:!content-none">
            <button
              type="button"
              onClick={() => onMore(next)}
              className="rounded-md px-3 py-1.5 text-sm font-medium text-accent-700 hover:bg-accent-50 focus-visible:outline-2 focus-visible:outline-accent-600"
            >
              Show older runs
            </button>
          </td>
        </tr>
      )}
    </tbody>
  );
}

function RunRow({ run, now }: { run: UpdateRunSummary; now: number }) {
  const meta = RUN_STATE_META[run.state];
  return (
    <tr className="align-top hover:bg-slate-50" data-run-id={run.id} data-state={run.state}>
      <td className="px-5 py-3">
        <div className="flex flex-wrap items-center gap-2">
          <Link
            href={`/update-runs/${encodeURIComponent(run.id)}`}
            className="font-medium text-slate-900 hover:text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            {run.name}
          </Link>
          <StateBadge meta={meta} />
        </div>
        {run.message && !isFinalRun(run.state) && <p className="mt-1 max-w-md text-xs text-slate-600">{run.message}</p>}
      </td>
      <td className="whitespace-nowrap px-5 py-3 text-slate-800">{targetShort(run.target)}</td>
      <td className="min-w-48 px-5 py-3">
        {isFinalRun(run.state) ? (
          <p className="text-sm text-slate-700">
            {run.total} {run.total === 1 ? "cluster" : "clusters"}
          </p>
        ) : (
          <LiveProgress run={run} />
        )}
      </td>
      <td className="whitespace-nowrap px-5 py-3 text-slate-700 max-lg:whitespace-normal">
        <span className="break-words">{run.actor}</span>
        <div className="text-xs text-slate-500">
          <RelativeTime at={run.createdAt} now={now} />
        </div>
      </td>
      <td className="whitespace-nowrap px-5 py-3 text-slate-700 max-lg:whitespace-normal">
        {run.finishedAt ? (
          <>
            <span className="block text-xs text-slate-500">Ended</span>
            <DualTime at={run.finishedAt} now={now} relative={false} />
          </>
        ) : run.expectedEnd ? (
          <>
            <span className="block text-xs text-slate-500">Expected</span>
            <DualTime at={run.expectedEnd} now={now} />
          </>
        ) : (
          <span className="text-slate-500">{run.state === "WaitingForApproval" ? "After the approval" : "–"}</span>
        )}
      </td>
    </tr>
  );
}

/**
 * A run under way, with its clusters done and the stage it is in: the list carries no stages, so
 * each run under way (a few at most) is read on its own, as its page reads it.
 */
function LiveProgress({ run }: { run: UpdateRunSummary }) {
  const detail = useQuery(updateRunQuery(run.id));
  if (!detail.data)
    return (
      <p className="text-sm text-slate-700">
        {run.total} {run.total === 1 ? "cluster" : "clusters"}
      </p>
    );
  const progress = runProgress(detail.data);
  const stages = detail.data.stages;
  const current = stages.findIndex((s) => !isDonePart(s.state));
  const percent = progress.total === 0 ? 0 : Math.round((progress.done / progress.total) * 100);
  return (
    <>
      <ProgressBar
        value={percent}
        label={`${run.name}: clusters done`}
        tone={run.state === "Paused" ? "amber" : "blue"}
      />
      <p className="mt-1 text-xs text-slate-600">
        {progress.done} of {progress.total} clusters{progress.failed > 0 ? `, ${progress.failed} failed` : ""}
        {current >= 0 && (
          <span className="block text-slate-500">
            Stage {current + 1} of {stages.length}: {stages[current]!.name}
          </span>
        )}
      </p>
    </>
  );
}

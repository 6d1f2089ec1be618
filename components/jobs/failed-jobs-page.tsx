"use client";

// /jobs: background jobs whose retries ran out (a maintenance, a reconcile step, a migration
// step), newest first, with what they were for and the error they ended with. An admin runs one
// again with Retry; the list refreshes every 30 s. Others see that the page needs the admin role.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RotateCcw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { EmptyState, ErrorState, LoadingBlock, NeedsRoleState } from "@/components/ui/states";
import { DualTime } from "@/components/ui/time";
import { isForbidden } from "@/lib/ui/access";
import { retryFailedJob } from "@/lib/api/operations/upkeep";
import { call } from "@/lib/ui/call";
import type { FailedJob } from "@/lib/ui/api-types";
import { failedJobsQuery } from "@/lib/client/queries";
import { queryKeys } from "@/lib/client/query-keys";

export function FailedJobsPage() {
  const jobs = useQuery(failedJobsQuery);
  const forbidden = isForbidden(jobs.error);
  return (
    <div>
      <PageHeader
        title="Failed jobs"
        description="Background work that failed after all its retries: scheduled maintenance, reconcile steps, migration and deletion steps. Nothing here runs again by itself; retry a job once its cause is fixed."
      />
      {forbidden ? (
        <NeedsRoleState title="You need the admin role on the whole landscape to see failed jobs." error={jobs.error} />
      ) : (
        <Panel>
          {jobs.isPending ? (
            <LoadingBlock label="Loading failed jobs" lines={4} />
          ) : jobs.isError ? (
            <ErrorState
              title="The failed jobs could not be loaded"
              error={jobs.error}
              onRetry={() => void jobs.refetch()}
            />
          ) : jobs.data.items.length === 0 ? (
            <EmptyState title="No failed jobs">Every background job has run or is still being retried.</EmptyState>
          ) : (
            <>
              {jobs.data.total > jobs.data.items.length && (
                <p className="mb-3 text-sm text-slate-600">
                  The newest {jobs.data.items.length} of {jobs.data.total} failed jobs.
                </p>
              )}
              <ul className="divide-y divide-slate-100" aria-label="Failed jobs">
                {jobs.data.items.map((job) => (
                  <FailedJobRow key={job.id} job={job} />
                ))}
              </ul>
            </>
          )}
        </Panel>
      )}
    </div>
  );
}

function FailedJobRow({ job }: { job: FailedJob }) {
  const client = useQueryClient();
  const retry = useMutation({
    mutationFn: () => call(retryFailedJob, { params: { id: job.id } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.failedJobs }),
  });
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3 first:pt-0 last:pb-0" data-job={job.id}>
      <div className="min-w-0 flex-1 space-y-1">
        <p className="text-sm font-medium text-slate-900 first-letter:uppercase">{job.what}</p>
        <p className="break-words text-sm text-red-800">{job.error}</p>
        <p className="text-xs text-slate-600">
          Queue <span className="font-mono">{job.queue}</span> · {job.attempts} {job.attempts === 1 ? "run" : "runs"} ·
          failed {job.failedAt ? <DualTime at={job.failedAt} /> : "at an unknown time"} ·{" "}
          <span className="font-mono">{job.id}</span>
        </p>
        {retry.isError && (
          <p role="alert" className="text-sm text-red-800">
            Not retried: {(retry.error as Error).message}
          </p>
        )}
      </div>
      <Button onClick={() => retry.mutate()} disabled={retry.isPending} aria-label={`Retry ${job.what}`}>
        <RotateCcw aria-hidden className="size-4" />
        {retry.isPending ? "Retrying…" : "Retry"}
      </Button>
    </li>
  );
}

"use client";

// The update runs' data: the list (newest first, a page at a time) and one run, each polled while
// a run is under way, so the pages follow a run live without a change stream of their own; and
// the run's actions (approve, pause, resume, cancel), after which the run is read again at once.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "@/lib/client/query-keys";
import { retryUnlessRefused } from "@/lib/ui/access";
import {
  approveUpdateRun,
  cancelUpdateRun,
  getUpdateRun,
  listUpdateRuns,
  pauseUpdateRun,
  resumeUpdateRun,
  startUpdateRun,
} from "@/lib/api/operations/update-runs";
import type { UpdateRunPreview } from "@/lib/api/update-run-preview";
import type { UpdateRunStartAnswer } from "@/lib/api/update-runs";
import { call } from "@/lib/ui/call";
import type { UpdateRunBody } from "@/lib/ui/update-run-form";
import { isFinalRun, type RunAction } from "@/lib/ui/update-run-text";

/** How often a run under way is read again (its clusters change every few seconds in the simulated garden). */
export const RUN_POLL_MS = 2_000;
/** How often the list is read while a run in it is under way; every half minute otherwise (runs others start). */
const LIST_POLL_MS = 5_000;
const LIST_IDLE_MS = 30_000;

export const updateRunListQuery = (cursor = "") =>
  queryOptions({
    queryKey: queryKeys.updateRunList(cursor),
    queryFn: ({ signal }) => call(listUpdateRuns, { query: { cursor } }, { signal }),
    refetchInterval: (q) => (q.state.data?.items.some((r) => !isFinalRun(r.state)) ? LIST_POLL_MS : LIST_IDLE_MS),
    retry: retryUnlessRefused,
  });

export const updateRunQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.updateRun(id),
    queryFn: ({ signal }) => call(getUpdateRun, { params: { id } }, { signal }),
    refetchInterval: (q) => (q.state.data && isFinalRun(q.state.data.state) ? false : RUN_POLL_MS),
    retry: retryUnlessRefused,
  });

const ACTIONS = {
  approve: approveUpdateRun,
  pause: pauseUpdateRun,
  resume: resumeUpdateRun,
  cancel: cancelUpdateRun,
} as const satisfies Record<RunAction, unknown>;

/** POST /api/v1/update-runs with dryRun: the run's preview (200). */
export const previewRun = (body: UpdateRunBody) =>
  call(startUpdateRun, { body: { ...body, stages: [...body.stages], dryRun: true } }) as Promise<UpdateRunPreview>;

/** POST /api/v1/update-runs: the run is made and starts (201). */
export const startRun = (body: UpdateRunBody) =>
  call(startUpdateRun, {
    body: { ...body, stages: [...body.stages], dryRun: undefined },
  }) as Promise<UpdateRunStartAnswer>;

/**
 * POST /api/v1/update-runs/{id}/{action}: 202 with the run as it stands, shown at once; then the
 * list is read again.
 */
export function useRunAction(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: RunAction) => call(ACTIONS[action], { params: { id } }),
    onSuccess: (run) => client.setQueryData(queryKeys.updateRun(id), run),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.updateRuns }),
  });
}

"use client";

// /migrations: control-plane migrations across the fleet. Running ones first, each with its
// progress and current step; then the finished ones. Keys start with ["migrations"] (live
// events refresh them); while something runs, the page also polls, as steps advance by the second.
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { ScopeNote } from "@/components/scope-note";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { EmptyState, ErrorState, LoadingBlock } from "@/components/ui/states";
import { useNow } from "@/components/ui/time";
import { listMigrations } from "@/lib/api/operations/migrations";
import { call } from "@/lib/ui/call";
import { isActiveMigration, splitMigrations } from "@/lib/ui/migration-progress";
import { queryKeys } from "@/lib/client/query-keys";
import { ActiveMigration } from "./active-migration";
import { FinishedMigrations } from "./finished-migrations";

const RECENT = 100;

export function MigrationsPage() {
  const now = useNow(1_000);
  const running = useQuery({
    queryKey: queryKeys.migrations("active=true"),
    queryFn: ({ signal }) => call(listMigrations, { query: { active: "true", limit: 500 } }, { signal }),
    refetchInterval: (q) => ((q.state.data?.items.length ?? 0) > 0 ? 2_000 : false),
  });
  const recent = useQuery({
    queryKey: queryKeys.migrations(`limit=${RECENT}`),
    queryFn: ({ signal }) => call(listMigrations, { query: { limit: RECENT } }, { signal }),
    refetchInterval: () => ((running.data?.items.length ?? 0) > 0 ? 2_000 : false),
  });

  // A migration that leaves the running list has just finished: read the finished ones again.
  const runningIds = (running.data?.items ?? []).map((m) => m.id).join(",");
  const refetchRecent = recent.refetch;
  const runningLoaded = running.data !== undefined;
  useEffect(() => {
    if (runningLoaded) void refetchRecent();
  }, [runningIds, runningLoaded, refetchRecent]);

  const { active } = splitMigrations(running.data?.items ?? []);
  // The full list may still show a migration as running for a moment after the active list
  // dropped it, or the other way round: each list decides for its own section.
  const { finished } = splitMigrations((recent.data?.items ?? []).filter((m) => !isActiveMigration(m)));

  return (
    <div>
      <PageHeader
        title="Migrations"
        description="Control planes moving from one seed to another: the flow migrates (stops the API server, backs up etcd, writes the ShootState, scales down) and then restores in the destination seed. A failing step is retried with backoff; one that keeps failing ends Failed until someone retries it."
      />
      <ScopeNote subject="migrations" />
      <div className="space-y-6">
        <Panel id="running" title={`Running${running.data ? ` (${active.length})` : ""}`}>
          {running.isPending ? (
            <LoadingBlock label="Loading running migrations" lines={3} />
          ) : running.error ? (
            <ErrorState
              title="The running migrations could not be loaded"
              error={running.error}
              onRetry={() => void running.refetch()}
            />
          ) : active.length === 0 ? (
            <p className="text-sm text-slate-600">
              No migration is running. Start one from a shoot&apos;s page, in its Migration panel.
            </p>
          ) : (
            <ul className="grid gap-4 xl:grid-cols-2">
              {active.map((m) => (
                <li key={m.id}>
                  <ActiveMigration migration={m} now={now} />
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel id="finished" title="Finished">
          {recent.isPending ? (
            <LoadingBlock label="Loading finished migrations" lines={5} />
          ) : recent.error ? (
            <ErrorState
              title="The finished migrations could not be loaded"
              error={recent.error}
              onRetry={() => void recent.refetch()}
            />
          ) : finished.length === 0 ? (
            <EmptyState title="No finished migrations">Migrations appear here once they succeed or fail.</EmptyState>
          ) : (
            <FinishedMigrations
              migrations={finished}
              now={now}
              limited={(recent.data?.items.length ?? 0) >= RECENT ? RECENT : undefined}
            />
          )}
        </Panel>
      </div>
    </div>
  );
}

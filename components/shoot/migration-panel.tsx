"use client";

// Where the control plane runs, moving it to another seed, and the latest migration step by step.
// The live feed refreshes the migration (its key starts with ["shoot", ns, name]); while one runs
// or retries, the panel also polls every 2 s in case an event is missed. Migrating needs the admin
// role on the cluster's project, retrying a failed migration the operator role; below them the
// buttons are disabled and say why.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowRight, CheckCircle2, ChevronDown, ChevronRight, RotateCw, Server, Truck } from "lucide-react";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { describedBy, NotAllowed, reasonId } from "@/components/ui/not-allowed";
import { usePermissions } from "@/components/use-permissions";
import { Panel } from "@/components/ui/page-header";
import { ProgressBar } from "@/components/ui/progress";
import { StepIcon } from "@/components/ui/step-icon";
import { ErrorState, LoadingBlock } from "@/components/ui/states";
import { toneIcon } from "@/components/ui/status-badges";
import { RelativeTime, useNow } from "@/components/ui/time";
import { ANNOTATION_OPERATION } from "@/lib/engine/operation-annotations";
import { MINUTE_MS } from "@/lib/engine/time-units";
import { useShootChange } from "@/lib/client/use-shoot-change";
import { RequestError } from "@/lib/ui/api";
import type { MigrationStep, MigrationView, Shoot } from "@/lib/ui/api-types";
import {
  STEP_STATE_META,
  migrationActive,
  stepPhase,
  stepState,
  stepTitle,
  stepsDone,
  type StepState,
} from "@/lib/ui/migration-steps";
import { getShootMigration } from "@/lib/api/operations/migrations";
import { shootPartQuery } from "@/lib/client/queries";
import { queryKeys } from "@/lib/client/query-keys";
import type { Allowance } from "@/lib/ui/permissions";
import { formatBoth } from "@/lib/ui/time";
import { RefreshFailed } from "@/components/ui/states";
import { MigrationDialog } from "./migration-dialog";

const POLL_MS = 2_000;
const RECENT_MS = 15 * MINUTE_MS;

const clock = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });

function duration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / MINUTE_MS)} min`;
}

const MIGRATION_STATE: Record<MigrationView["state"], { word: string; tone: "blue" | "amber" | "red" | "green" }> = {
  Processing: { word: "Migrating", tone: "blue" },
  Error: { word: "Error, retrying", tone: "amber" },
  Failed: { word: "Failed", tone: "red" },
  Succeeded: { word: "Succeeded", tone: "green" },
};

export function MigrationPanel({ shoot }: { shoot: Shoot }) {
  const namespace = shoot.metadata.namespace ?? "";
  const name = shoot.metadata.name;
  const queryClient = useQueryClient();
  const [dialogOpen, setDialogOpen] = useState(false);
  const { administer, operate } = usePermissions(namespace);
  const query = useQuery({
    ...shootPartQuery(getShootMigration, namespace, name),
    refetchInterval: (q) => (migrationActive(q.state.data?.migration) ? POLL_MS : false),
  });
  const answer = query.data;
  const migration = answer?.migration ?? null;

  // When a migration ends, the shoot's seed and status change too: refresh the whole page even if
  // the live feed is down (the polling saw it first).
  const lastState = useRef<string | undefined>(undefined);
  useEffect(() => {
    const state = migration?.state;
    if (lastState.current && lastState.current !== state && !migrationActive(migration)) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.shoot(namespace, name) });
    }
    lastState.current = state;
  }, [migration, queryClient, namespace, name]);

  const retry = useShootChange<Shoot>(namespace, name);
  const retryMigration = () =>
    retry.act((send) =>
      send<Shoot>("PATCH", "", {
        body: {
          metadata: {
            resourceVersion: shoot.metadata.resourceVersion,
            annotations: { [ANNOTATION_OPERATION]: "retry" },
          },
        },
      }),
    );

  // Only without cached data does an error replace the panel; a failed refresh keeps the content.
  if (query.error && !answer) {
    return (
      <Panel title="Control plane seed">
        <ErrorState
          title="The migration status could not be loaded"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      </Panel>
    );
  }
  if (!answer) {
    return (
      <Panel title="Control plane seed">
        <LoadingBlock label="Loading the seed and migrations" lines={4} />
      </Panel>
    );
  }

  const active = migrationActive(migration);
  const candidates = answer.destinations.filter((d) => !d.current);
  const possible = candidates.filter((d) => d.reasons.length === 0);
  const current = answer.destinations.find((d) => d.current);
  const disabledWhy = active
    ? "A migration is under way; wait until it has finished."
    : !answer.seed
      ? "The cluster was never created on a seed, so there is no control plane to move."
      : possible.length === 0
        ? "No other seed can take this control plane (open the list to see why)."
        : undefined;

  return (
    <Panel id="migration" title="Control plane seed">
      {query.error && (
        <div className="mb-3">
          <RefreshFailed what="the migration status" error={query.error} onRetry={() => void query.refetch()} />
        </div>
      )}
      <div className="flex items-start gap-3">
        <Server aria-hidden className="mt-0.5 size-5 shrink-0 text-slate-400" />
        <div className="min-w-0 text-sm">
          <p className="text-slate-600">Runs on seed</p>
          <p data-testid="current-seed" className="text-base font-semibold text-slate-900">
            {answer.seed ? (
              <Link
                href={`/shoots?seed=${encodeURIComponent(answer.seed)}`}
                className="hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
              >
                {answer.seed}
              </Link>
            ) : (
              "none"
            )}
          </p>
          {current && (
            <p className="text-xs text-slate-500">
              {current.provider} · {current.region}
              {current.ready ? "" : " · seed not ready"}
            </p>
          )}
        </div>
      </div>

      <div className="mt-4">
        <Button
          onClick={() => setDialogOpen(true)}
          disabled={active || !answer.seed || !administer.allowed}
          aria-describedby={describedBy(reasonId("migrate-not-allowed", administer), !!disabledWhy && "migrate-why")}
        >
          <Truck aria-hidden className="size-4" />
          Migrate control plane…
        </Button>
        <NotAllowed id="migrate-not-allowed" allowance={administer} className="mt-1.5" />
        {disabledWhy && (
          <p id="migrate-why" className="mt-1.5 text-xs text-slate-500">
            {disabledWhy}
          </p>
        )}
        {!disabledWhy && (
          <p className="mt-1.5 text-xs text-slate-500">
            {possible.length} of {candidates.length} seeds can take it: {possible.map((d) => d.name).join(", ")}.
          </p>
        )}
      </div>

      {migration && (
        <MigrationProgress
          migration={migration}
          onRetry={retryMigration}
          retrying={retry.pending}
          retryAllowance={operate}
          retryError={retry.error}
        />
      )}

      <MigrationDialog
        shoot={shoot}
        answer={answer}
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        onStarted={() => setDialogOpen(false)}
      />
    </Panel>
  );
}

function MigrationProgress({
  migration,
  onRetry,
  retrying,
  retryAllowance,
  retryError,
}: {
  migration: MigrationView;
  onRetry: () => void;
  retrying: boolean;
  retryAllowance: Allowance;
  retryError: unknown;
}) {
  const active = migrationActive(migration);
  const finishedAt = migration.finishedAt ? Date.parse(migration.finishedAt) : undefined;
  const now = useNow(MINUTE_MS);
  const recent = finishedAt !== undefined && now - finishedAt < RECENT_MS;
  const [showSteps, setShowSteps] = useState<boolean | null>(null);
  const open = showSteps ?? (active || recent || migration.state === "Failed");
  const meta = MIGRATION_STATE[migration.state];
  const { done, total } = stepsDone(migration);
  const started = migration.startedAt ? Date.parse(migration.startedAt) : undefined;

  return (
    <section aria-labelledby="migration-latest" aria-live="polite" className="mt-5 border-t border-slate-100 pt-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="migration-latest" className="flex items-center gap-1.5 text-sm font-semibold text-slate-900">
          {migration.source} <ArrowRight aria-label="to" className="size-3.5 text-slate-400" /> {migration.destination}
        </h3>
        <Badge tone={meta.tone} icon={toneIcon(meta.tone, active)}>
          <span data-testid="migration-state">{meta.word}</span>
        </Badge>
      </div>
      <p className="mt-1 text-xs text-slate-500">
        Started by {migration.actor}
        {migration.startedAt && (
          <>
            {" "}
            <RelativeTime at={migration.startedAt} />
          </>
        )}
        {finishedAt !== undefined && started !== undefined && (
          <>
            ; {migration.state === "Succeeded" ? "took" : "ended after"} {duration(finishedAt - started)}
          </>
        )}
      </p>
      <div className="mt-2">
        <ProgressBar
          value={Math.round((done / total) * 100)}
          label={`Migration steps done: ${done} of ${total}`}
          tone={migration.state === "Failed" ? "red" : migration.state === "Succeeded" ? "green" : "blue"}
        />
      </div>
      <p className="mt-1 text-xs text-slate-600">
        {done} of {total} steps · {migration.lastOperation.type}: {migration.lastOperation.description}
      </p>
      {migration.state === "Succeeded" && (
        <p className="mt-2 flex items-start gap-1.5 text-sm text-emerald-800">
          <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>
            The control plane moved to {migration.destination}
            {finishedAt !== undefined && (
              <>
                {" "}
                <RelativeTime at={finishedAt} />
              </>
            )}
            ; the source seed&apos;s namespace was deleted.
          </span>
        </p>
      )}
      {migration.state === "Error" && migration.retryAt && (
        <p className="mt-1 text-xs text-amber-800">
          The failing step is tried again <RelativeTime at={migration.retryAt} />.
        </p>
      )}
      {migration.state === "Failed" && (
        <div className="mt-2 rounded-lg bg-red-50 p-3 text-sm text-red-900 ring-1 ring-red-200">
          <p>
            The migration gave up after retrying for the retry duration. The control plane stays where the failed step
            left it until you retry.
          </p>
          <Button
            variant="secondary"
            className="mt-2"
            onClick={onRetry}
            disabled={retrying || !retryAllowance.allowed}
            aria-describedby={describedBy(reasonId("migration-retry-not-allowed", retryAllowance))}
          >
            <RotateCw aria-hidden className="size-4" />
            {retrying ? "Asking…" : "Retry the migration"}
          </Button>
          <NotAllowed id="migration-retry-not-allowed" allowance={retryAllowance} className="mt-1.5" />
          {retryError != null && (
            <p role="alert" className="mt-1 text-xs">
              {retryError instanceof RequestError ? retryError.message : String(retryError)}
            </p>
          )}
        </div>
      )}
      <button
        type="button"
        onClick={() => setShowSteps(!open)}
        aria-expanded={open}
        aria-controls="migration-steps"
        className="mt-3 inline-flex items-center gap-1 rounded text-xs font-medium text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
      >
        {open ? <ChevronDown aria-hidden className="size-3.5" /> : <ChevronRight aria-hidden className="size-3.5" />}
        {open ? "Hide the steps" : "Show the steps"}
      </button>
      {open && (
        <div id="migration-steps" className="mt-2 space-y-3">
          {PHASES.map((phase) => {
            const indexed = migration.steps
              .map((step, i) => ({ step, i }))
              .filter(({ step }) => (stepPhase(step.name) ?? "Migrate") === phase.operation);
            if (indexed.length === 0) return null;
            return (
              <div key={phase.operation}>
                <h4 className="text-xs font-semibold text-slate-600">{phase.title(migration)}</h4>
                <ol aria-label={`${phase.operation} steps`} className="mt-1 space-y-1.5">
                  {indexed.map(({ step, i }) => (
                    <StepRow key={step.name} step={step} state={stepState(step, i, migration)} />
                  ))}
                </ol>
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}

const PHASES = [
  { operation: "Migrate", title: (m: MigrationView) => `Migrate, in the source seed ${m.source}` },
  { operation: "Restore", title: (m: MigrationView) => `Restore, in the destination seed ${m.destination}` },
] as const;

const STEP_WORD_CLASS: Record<StepState, string> = {
  done: "text-emerald-700",
  running: "text-sky-700",
  retrying: "text-amber-800",
  failed: "text-red-700",
  waiting: "text-slate-500",
};

function StepRow({ step, state }: { step: MigrationStep; state: StepState }) {
  const began = step.startedAt ? Date.parse(step.startedAt) : undefined;
  const ended = step.endedAt ? Date.parse(step.endedAt) : undefined;
  return (
    <li data-step={step.name} data-state={state} className="flex gap-2 text-[13px]">
      <span className="mt-0.5 shrink-0">
        <StepIcon state={state} />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline justify-between gap-2">
          <span className={state === "waiting" ? "text-slate-500" : "text-slate-900"}>{stepTitle(step.name)}</span>
          <span className={`shrink-0 text-xs font-medium ${STEP_WORD_CLASS[state]}`}>
            {STEP_STATE_META[state].word}
          </span>
        </div>
        {(began !== undefined || step.attempts > 1) && (
          <p className="text-xs text-slate-500">
            {began !== undefined && (
              <time dateTime={step.startedAt} title={formatBoth(began)}>
                {clock.format(began)}
              </time>
            )}
            {ended !== undefined && state !== "running" && (
              <>
                {" "}
                –{" "}
                <time dateTime={step.endedAt} title={formatBoth(ended)}>
                  {clock.format(ended)}
                </time>{" "}
                ({duration(ended - (began ?? ended))})
              </>
            )}
            {step.attempts > 1 && <> · attempt {step.attempts}</>}
          </p>
        )}
        {step.message && state !== "waiting" && (
          <p
            className={`break-words text-xs ${state === "failed" || state === "retrying" ? "text-red-800" : "text-slate-500"}`}
          >
            {step.message}
          </p>
        )}
      </div>
    </li>
  );
}

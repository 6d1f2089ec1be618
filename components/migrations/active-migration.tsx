"use client";

// One running migration: which shoot moves from where to where, its progress, the step it is at
// (each step a mark with its own state), and when a failing step will be tried again.
import Link from "next/link";
import { AlertTriangle, ArrowRight, Check, Loader2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { ProgressBar } from "@/components/ui/progress";
import { RelativeTime } from "@/components/ui/time";
import type { FleetMigration, MigrationStep } from "@/lib/ui/api-types";
import { currentStepIndex, migrationDuration, stepDescription, stepPhase } from "@/lib/ui/migration-progress";
import { shootPage } from "@/lib/ui/page-links";
import { formatBoth, formatSpan } from "@/lib/ui/time";

export function ActiveMigration({ migration: m, now }: { migration: FleetMigration; now: number }) {
  const index = currentStepIndex(m);
  const step = index >= 0 ? m.steps[index] : undefined;
  const erroring = m.state === "Error";
  return (
    <article
      aria-label={`Migration of ${m.namespace}/${m.name}`}
      className="rounded-lg border border-slate-200 p-4"
      data-state={m.state}
      data-migration-id={m.id}
    >
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <Link
            href={shootPage(m.namespace, m.name)}
            className="font-semibold text-slate-900 hover:text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            {m.name}
          </Link>
          <span className="ml-1.5 text-xs text-slate-500">{m.namespace}</span>
          <div className="mt-0.5 flex items-center gap-1.5 text-sm text-slate-700">
            <span className="font-medium">{m.source}</span>
            <ArrowRight aria-hidden className="size-3.5 text-slate-400" />
            <span className="sr-only">to</span>
            <span className="font-medium">{m.destination}</span>
          </div>
        </div>
        {erroring ? (
          <Badge tone="amber" icon={<AlertTriangle aria-hidden className="size-3.5" />}>
            Error, retrying
          </Badge>
        ) : (
          <Badge tone="blue" icon={<Loader2 aria-hidden className="size-3.5 animate-spin" />}>
            {m.lastOperation.state === "Pending"
              ? "Waiting for the destination"
              : m.lastOperation.type === "Restore"
                ? "Restoring"
                : "Migrating"}
          </Badge>
        )}
      </header>
      <div className="mt-3 space-y-1.5">
        <div className="flex items-baseline justify-between gap-2 text-sm">
          <span className="text-slate-800">
            {step ? (
              <>
                Step {index + 1} of {m.steps.length}: {stepDescription(step.name)}
              </>
            ) : (
              m.lastOperation.description
            )}
          </span>
          <span className="tabular-nums text-slate-600">{m.lastOperation.progress}%</span>
        </div>
        <ProgressBar
          value={m.lastOperation.progress}
          label={`Migration of ${m.name}`}
          tone={erroring ? "red" : "blue"}
        />
        <StepMarks steps={m.steps} current={index} />
      </div>
      {erroring && (
        <p className="mt-2 text-sm text-amber-900">
          {m.lastOperation.description}
          {m.retryAt && (
            <>
              {" "}
              The step is tried again <RelativeTime at={m.retryAt} now={now} />.
            </>
          )}
        </p>
      )}
      <p className="mt-2 text-xs text-slate-500">
        Started by {m.actor} {m.startedAt ? <RelativeTime at={m.startedAt} now={now} /> : "just now"}; running for{" "}
        {formatSpan(migrationDuration(m, now))}.
      </p>
    </article>
  );
}

/** One mark per step: done, running, failing or waiting, named in the tooltip and for screen readers. */
function StepMarks({ steps, current }: { steps: readonly MigrationStep[]; current: number }) {
  return (
    <ol className="flex gap-1" aria-label="Steps">
      {steps.map((s, i) => {
        const state =
          s.outcome === "Succeeded"
            ? "done"
            : i === current
              ? s.outcome === "Error"
                ? "failing"
                : "running"
              : "waiting";
        const colour =
          state === "done"
            ? "bg-emerald-500"
            : state === "running"
              ? "bg-sky-500"
              : state === "failing"
                ? "bg-amber-500"
                : "bg-slate-200";
        const word =
          state === "done"
            ? "done"
            : state === "running"
              ? "running"
              : state === "failing"
                ? "failed, to be retried"
                : "waiting";
        const when = s.startedAt ? ` (started ${formatBoth(s.startedAt)})` : "";
        return (
          <li
            key={s.name}
            title={`${stepPhase(s.name) ?? ""} · ${stepDescription(s.name)}: ${word}${when}${s.message ? ` — ${s.message}` : ""}`}
            className={`flex h-4 flex-1 items-center justify-center rounded-sm ${colour}`}
          >
            {state === "done" && <Check aria-hidden className="size-3 text-white" />}
            <span className="sr-only">
              {stepDescription(s.name)}: {word}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

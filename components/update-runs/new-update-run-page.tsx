"use client";

// /update-runs/new: a run is named, given a target and its stages (each selecting clusters by the
// fleet's filters or a list, now or in their windows, with a soak after it and an approval before
// it) and a health gate; "Preview" shows what it will do (the dry run), stage by stage and cluster
// by cluster; "Start run" starts exactly what was previewed and opens its live page. The server's
// problems show beside the fields they are about.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Eye, Play, Plus } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert, TextField } from "@/components/ui/form-field";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { queryKeys } from "@/lib/client/query-keys";
import { formProblems } from "@/lib/ui/access";
import {
  draftToRequest,
  draftWithFilter,
  moveStage,
  newStage,
  problemsByPart,
  type RunDraft,
  type StageDraft,
  type StageFilter,
  type UpdateRunBody,
} from "@/lib/ui/update-run-form";
import { DurationField } from "./form-controls";
import { RunPreview } from "./run-preview";
import { StageCard } from "./stage-card";
import { TargetField } from "./target-field";
import { previewRun, startRun } from "./update-run-queries";

export function NewUpdateRunPage({ initialFilter = {} }: { initialFilter?: StageFilter }) {
  const router = useRouter();
  const client = useQueryClient();
  const [draft, setDraft] = useState<RunDraft>(() => draftWithFilter(initialFilter));
  const body = JSON.stringify(draftToRequest(draft, false));
  const preview = useMutation({
    mutationFn: previewRun,
  });
  // The request the preview shown was made for: Start sends exactly that, and only while the form
  // still says the same.
  const [previewed, setPreviewed] = useState<string>();
  const start = useMutation({
    mutationFn: startRun,
    onSuccess: (answer) => {
      void client.invalidateQueries({ queryKey: queryKeys.updateRuns });
      router.push(`/update-runs/${encodeURIComponent(answer.id)}`);
    },
  });
  const stale = previewed !== undefined && previewed !== body;
  const fresh = preview.data !== undefined && previewed === body;
  const error = start.error ?? preview.error;
  const { fields, message } = formProblems(error);
  const problems = problemsByPart(fields);

  const change = (c: Partial<RunDraft>) => setDraft((d) => ({ ...d, ...c }));
  const changeStage = (i: number, c: Partial<StageDraft>) =>
    setDraft((d) => ({ ...d, stages: d.stages.map((s, j) => (j === i ? { ...s, ...c } : s)) }));

  const runPreview = () => {
    start.reset();
    const request = draftToRequest(draft, false);
    preview.mutate(request, { onSuccess: () => setPreviewed(JSON.stringify(draftToRequest(draft, false))) });
  };

  return (
    <form
      className="max-w-5xl space-y-6"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        runPreview();
      }}
    >
      <PageHeader
        eyebrow={
          <Link
            href="/update-runs"
            className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-accent-700 focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            <ArrowLeft aria-hidden className="size-4" /> Update runs
          </Link>
        }
        title="New update run"
        description="Stages run in order. After each one the run waits for its soak time and, with a health gate, until its clusters stay healthy; a stage that asks for approval waits for a person."
      />
      <Panel title="The run" id="run-what">
        <div className="space-y-5">
          <TextField
            label="Run name"
            value={draft.name}
            onChange={(e) => change({ name: e.target.value })}
            placeholder="Kubernetes 1.33, canary first"
            maxLength={100}
            autoComplete="off"
            data-autofocus
            error={problems.run.name}
            className="max-w-md"
          />
          <TargetField draft={draft} onChange={change} problem={problems.run.target} />
        </div>
      </Panel>
      <section aria-labelledby="run-stages-title" className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <div>
            <h2 id="run-stages-title" className="text-base font-semibold text-slate-900">
              Stages
            </h2>
            <p className="text-sm text-slate-600">
              In the order they run; each cluster in one stage only. A canary first, production last.
            </p>
          </div>
        </div>
        {problems.run.stages && <FormAlert message={problems.run.stages} />}
        <ol className="space-y-4">
          {draft.stages.map((stage, i) => (
            <StageCard
              key={stage.key}
              stage={stage}
              index={i}
              count={draft.stages.length}
              problems={problems.stages[i] ?? {}}
              onChange={(c) => changeStage(i, c)}
              onMove={(by) => change({ stages: moveStage(draft.stages, i, by) })}
              onRemove={() => change({ stages: draft.stages.filter((_, j) => j !== i) })}
            />
          ))}
        </ol>
        <Button onClick={() => change({ stages: [...draft.stages, newStage(draft.stages.length)] })}>
          <Plus aria-hidden className="size-4" /> Add a stage
        </Button>
      </section>
      <Panel title="Health gate" id="run-gate">
        <div className="space-y-3">
          <label className="flex items-start gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={draft.gate}
              onChange={(e) => change({ gate: e.target.checked })}
              className="mt-0.5 size-4 accent-[var(--color-accent-600)] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
            />
            <span>
              <span className="font-medium text-slate-900">After each stage, wait until its clusters are healthy</span>
              <span className="block text-xs text-slate-500">
                Every cluster Healthy with its last operation Succeeded for the time below; otherwise the run pauses and
                names the clusters that hold it.
              </span>
            </span>
          </label>
          <div className="pl-6">
            <DurationField
              label="Healthy for"
              value={draft.gateValue}
              unit={draft.gateUnit}
              disabled={!draft.gate}
              onChange={(gateValue, gateUnit) => change({ gateValue, gateUnit })}
              error={problems.run.healthGate}
            />
          </div>
        </div>
      </Panel>
      <Panel
        title="Preview"
        id="run-preview"
        actions={
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant={fresh ? "secondary" : "primary"} disabled={preview.isPending}>
              <Eye aria-hidden className="size-4" />{" "}
              {preview.isPending ? "Previewing…" : fresh ? "Preview again" : "Preview"}
            </Button>
            <Button
              variant={fresh ? "primary" : "secondary"}
              disabled={!fresh || start.isPending}
              aria-describedby={fresh ? undefined : "start-needs-preview"}
              onClick={() => previewed && start.mutate(JSON.parse(previewed) as UpdateRunBody)}
            >
              <Play aria-hidden className="size-4" /> {start.isPending ? "Starting…" : "Start run"}
            </Button>
          </div>
        }
      >
        <div className="space-y-4">
          {!fresh && (
            <p id="start-needs-preview" className="text-sm text-slate-600">
              {stale
                ? "The form changed since this preview: preview again to start the run."
                : "Preview the run first: it shows when each stage and cluster is reached, what changes, what is refused and why, and when the run ends."}
            </p>
          )}
          <FormAlert message={message} />
          {preview.data && <RunPreview preview={preview.data} stale={stale} />}
        </div>
      </Panel>
    </form>
  );
}

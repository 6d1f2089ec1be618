"use client";

// The run's preview (POST /api/v1/update-runs with dryRun): what to know first (Gardener's forced
// updates before the run arrives, freezes), how many clusters change, stay or are refused, when
// the run is expected to end; then per stage, when it starts and ends and, per cluster, the
// planned moment (local time and UTC), the change, or why it is refused, with the forced update
// and the freeze that concern it.
import { AlertTriangle, CalendarClock, Snowflake, UserCheck } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { ScrollBox } from "@/components/ui/scroll-box";
import { DualTime } from "@/components/ui/time";
import { shootPage } from "@/lib/ui/page-links";
import type { UpdateRunPreview } from "@/lib/api/update-run-preview";
import { changeText, durationText } from "@/lib/ui/update-run-text";

type PreviewStage = UpdateRunPreview["stages"][number];
type PreviewItem = PreviewStage["items"][number];
type Counts = UpdateRunPreview["counts"];

/** Clusters listed per stage before "Show all". */
const FIRST_ITEMS = 25;

// Below lg each cluster is a card: its name, then the planned moment and the change, each named.
const CARDS_BELOW_LG = [
  "max-lg:block max-lg:[&_thead]:sr-only max-lg:[&_tbody]:block",
  "max-lg:[&_tbody_tr]:grid max-lg:[&_tbody_tr]:grid-cols-1 max-lg:[&_tbody_tr]:py-2 max-lg:[&_td]:px-4 max-lg:[&_td]:py-1",
  "max-lg:[&_td]:before:block max-lg:[&_td]:before:text-xs max-lg:[&_td]:before:font-medium max-lg:[&_td]:before:text-slate-500",
  "max-lg:[&_td:nth-child(2)]:before:content-['Planned'] max-lg:[&_td:nth-child(3)]:before:content-['What_it_does']",
].join(" ");

export function RunPreview({ preview, stale }: { preview: UpdateRunPreview; stale: boolean }) {
  return (
    <div className={`space-y-5 ${stale ? "opacity-60" : ""}`} data-testid="run-preview">
      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0 space-y-2">
          <p className="text-sm text-slate-800">
            <span className="text-lg font-semibold text-slate-900">{preview.total}</span>{" "}
            {preview.total === 1 ? "cluster" : "clusters"} in {preview.stages.length}{" "}
            {preview.stages.length === 1 ? "stage" : "stages"}
          </p>
          <CountBadges counts={preview.counts} />
        </div>
        <div className="min-w-0 rounded-lg bg-slate-50 px-3 py-2 text-sm ring-1 ring-inset ring-slate-200">
          <p className="text-xs font-medium text-slate-500">
            Expected end{preview.afterApproval ? " (at the earliest: an approval comes first)" : ""}
          </p>
          <p className="font-medium text-slate-900" data-testid="preview-expected-end">
            <DualTime at={preview.expectedEnd} />
          </p>
          <p className="mt-0.5 text-xs text-slate-500">
            Counting {durationText(preview.actingSeconds)} per cluster
            {preview.healthGate ? `, a health gate of ${durationText(preview.healthGate.healthySeconds)}` : ""} and each
            stage&apos;s soak.
          </p>
        </div>
      </div>
      {preview.warnings.length > 0 && (
        <div
          role="note"
          className="flex gap-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950"
          data-testid="preview-warnings"
        >
          <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-600" />
          <ul className="space-y-1">
            {preview.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}
      <ol className="space-y-4" aria-label="The preview, stage by stage">
        {preview.stages.map((stage, i) => (
          <PreviewStageCard key={`${i}-${stage.name}`} stage={stage} index={i} />
        ))}
      </ol>
    </div>
  );
}

function CountBadges({ counts }: { counts: Counts }) {
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Clusters by what the run does">
      <li>
        <Badge tone="blue">{counts.act} will change</Badge>
      </li>
      <li>
        <Badge tone="grey">{counts.unchanged} unchanged</Badge>
      </li>
      {counts.refused > 0 && (
        <li>
          <Badge tone="red">{counts.refused} refused</Badge>
        </li>
      )}
      {counts.forcedBefore > 0 && (
        <li>
          <Badge tone="amber" icon={<CalendarClock aria-hidden className="size-3.5" />}>
            {counts.forcedBefore} forced by Gardener first
          </Badge>
        </li>
      )}
      {counts.inFreeze > 0 && (
        <li>
          <Badge tone="amber" icon={<Snowflake aria-hidden className="size-3.5" />}>
            {counts.inFreeze} inside a freeze
          </Badge>
        </li>
      )}
    </ul>
  );
}

function PreviewStageCard({ stage, index }: { stage: PreviewStage; index: number }) {
  const [all, setAll] = useState(false);
  const items = all ? stage.items : stage.items.slice(0, FIRST_ITEMS);
  return (
    <li className="rounded-xl border border-slate-200" data-preview-stage={stage.name}>
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-4 py-3">
        <div className="min-w-0 space-y-1">
          <h3 className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
            <span className="flex size-6 items-center justify-center rounded-full bg-slate-800 text-xs text-white">
              {index + 1}
            </span>
            {stage.name}
            {stage.approval && (
              <Badge tone="violet" icon={<UserCheck aria-hidden className="size-3.5" />}>
                Needs approval
              </Badge>
            )}
          </h3>
          <p className="text-sm text-slate-600">{stage.message}</p>
          <CountBadges counts={stage.counts} />
        </div>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs text-slate-600">
          <dt className="text-slate-500">Starts{stage.afterApproval ? " (earliest)" : ""}</dt>
          <dd>
            <DualTime at={stage.earliestStart} />
          </dd>
          <dt className="text-slate-500">Ends{stage.afterApproval ? " (earliest)" : ""}</dt>
          <dd>
            <DualTime at={stage.expectedEnd} />
          </dd>
          <dt className="text-slate-500">Soak after</dt>
          <dd>{durationText(stage.soakSeconds)}</dd>
        </dl>
      </div>
      {stage.items.length === 0 ? (
        <p className="px-4 py-3 text-sm text-slate-600">This stage selects no cluster.</p>
      ) : (
        <ScrollBox label={`Clusters of stage ${stage.name}`}>
          <table className={`w-full text-left text-sm ${CARDS_BELOW_LG}`}>
            <caption className="sr-only">What stage {stage.name} does to each cluster, and when</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-2">
                  Cluster
                </th>
                <th scope="col" className="px-4 py-2">
                  Planned
                </th>
                <th scope="col" className="px-4 py-2">
                  What it does
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {items.map((item) => (
                <PreviewRow key={`${item.namespace}/${item.name}`} item={item} />
              ))}
            </tbody>
          </table>
          {stage.items.length > FIRST_ITEMS && (
            <div className="border-t border-slate-100 px-4 py-2 text-center">
              <button
                type="button"
                onClick={() => setAll((a) => !a)}
                className="rounded-md px-3 py-1 text-sm font-medium text-accent-700 hover:bg-accent-50 focus-visible:outline-2 focus-visible:outline-accent-600"
              >
                {all ? `Show the first ${FIRST_ITEMS}` : `Show all ${stage.items.length} clusters`}
              </button>
            </div>
          )}
        </ScrollBox>
      )}
    </li>
  );
}

function PreviewRow({ item }: { item: PreviewItem }) {
  return (
    <tr className="align-top" data-preview-item={`${item.namespace}/${item.name}`} data-outcome={item.outcome}>
      <td className="px-4 py-2">
        <Link
          href={shootPage(item.namespace, item.name)}
          className="font-medium text-slate-900 hover:text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          {item.name}
        </Link>
        <div className="text-xs text-slate-500">{item.namespace}</div>
      </td>
      <td className="whitespace-nowrap px-4 py-2 text-slate-700">
        <DualTime at={item.plannedAt} />
      </td>
      <td className="px-4 py-2">
        <div className="flex flex-wrap items-start gap-2">
          {item.outcome === "refused" ? (
            <Badge tone="red">Refused</Badge>
          ) : item.outcome === "unchanged" ? (
            <Badge tone="grey">Unchanged</Badge>
          ) : null}
          <div className="min-w-0 space-y-0.5">
            {item.outcome === "act" && item.changes.length > 0 ? (
              <ul className="text-slate-800">
                {item.changes.map((c) => (
                  <li key={c.field}>{changeText(c)}</li>
                ))}
              </ul>
            ) : null}
            <p className={`text-xs ${item.outcome === "refused" ? "text-red-800" : "text-slate-600"}`}>
              {item.message}
            </p>
            {item.errors?.map((e) => (
              <p key={`${e.field}-${e.detail}`} className="text-xs text-red-800">
                {e.field}: {e.detail}
              </p>
            ))}
          </div>
        </div>
        {item.forcedBefore && (
          <p className="mt-1 flex items-start gap-1 text-xs text-amber-900" data-testid="forced-before">
            <CalendarClock aria-hidden className="mt-px size-3.5 shrink-0 text-amber-600" />
            <span>
              Gardener forces {item.forcedBefore.from} → {item.forcedBefore.to}
              {item.forcedBefore.worker ? ` (worker ${item.forcedBefore.worker})` : ""} first, at{" "}
              <DualTime at={item.forcedBefore.at} relative={false} />: {item.forcedBefore.reason}.
            </span>
          </p>
        )}
        {item.freeze && (
          <p className="mt-1 flex items-start gap-1 text-xs text-amber-900" data-testid="freeze-mark">
            <Snowflake aria-hidden className="mt-px size-3.5 shrink-0 text-accent-600" />
            <span>
              Inside the freeze &ldquo;{item.freeze.reason}&rdquo; (until{" "}
              <DualTime at={item.freeze.end} relative={false} />
              ): the run waits for its end.
            </span>
          </p>
        )}
      </td>
    </tr>
  );
}

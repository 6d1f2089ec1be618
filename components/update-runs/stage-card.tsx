"use client";

// One stage of a new run: its name; its clusters, by the fleet list's filters (the fleet page's
// controls, with how many clusters they select right now and a link to see them) or as a list;
// when it acts (now, or in each cluster's next maintenance window); the soak after it; and whether
// it waits for approval. Moved up or down, or removed, with labelled buttons.
import { useQuery } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, ExternalLink, Trash2 } from "lucide-react";
import Link from "next/link";
import { useId } from "react";
import { SegmentedControl, SelectFilter, TextFilter } from "@/components/ui/filter-controls";
import { TextField } from "@/components/ui/form-field";
import { LabelSelectorInput } from "@/components/fleet/label-selector-field";
import { useReadableProjects } from "@/components/use-readable-projects";
import { SHOOT_PURPOSES } from "@/lib/engine/shoot-purpose";
import { MINUTE_MS } from "@/lib/engine/time-units";
import { labelSelectorProblem, purposeWord } from "@/lib/ui/fleet-filters";
import { cloudProfilesQuery, fleetSummaryQuery, projectsQuery, seedsQuery } from "@/lib/client/queries";
import { offersProject } from "@/lib/ui/permissions";
import { CLASSIFICATION_META, CLASSIFICATIONS, STATUS_DISPLAY_ORDER, STATUS_META } from "@/lib/ui/status";
import { parseShootList, stageFilterQuery, type StageDraft, type StageFilter } from "@/lib/ui/update-run-form";
import { ChoiceGroup, DurationField, Problem, TextAreaField } from "./form-controls";

const LISTS_STALE_MS = 5 * MINUTE_MS;
const names = (answer: { items: readonly { metadata: { name: string } }[] }) =>
  answer.items.map((i) => i.metadata.name).sort();
/** The names as choices, with the current value among them even before (or without) the list. */
const asOptions = (list: readonly string[] | undefined, current?: string) =>
  [...(current && !(list ?? []).includes(current) ? [current] : []), ...(list ?? [])].map((n) => ({
    value: n,
    label: n,
  }));

const EXPIRY_CHOICES = [
  { value: "0", label: "Already expired" },
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
];

const ICON_BUTTON =
  "inline-flex size-8 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-accent-600 disabled:text-slate-300 disabled:hover:bg-transparent";

export function StageCard({
  stage,
  index,
  count,
  problems,
  onChange,
  onMove,
  onRemove,
}: {
  stage: StageDraft;
  index: number;
  count: number;
  problems: Readonly<Record<string, string>>;
  onChange: (change: Partial<StageDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const label = stage.name.trim() || `stage ${index + 1}`;
  return (
    <li className="rounded-xl border border-slate-200 bg-white shadow-sm" data-stage-editor={index}>
      <fieldset aria-label={`Stage ${index + 1}`}>
        <div className="flex items-start gap-3 border-b border-slate-100 px-4 py-3 sm:px-5">
          <span
            aria-hidden
            className="mt-6 flex size-7 shrink-0 items-center justify-center rounded-full bg-accent-600 text-sm font-semibold text-white"
          >
            {index + 1}
          </span>
          <TextField
            label={`Stage ${index + 1} name`}
            value={stage.name}
            onChange={(e) => onChange({ name: e.target.value })}
            maxLength={63}
            autoComplete="off"
            error={problems.name}
            className="min-w-0 max-w-md flex-1"
          />
          <div className="ml-auto mt-6 flex shrink-0 gap-0.5">
            <button
              type="button"
              className={ICON_BUTTON}
              onClick={() => onMove(-1)}
              disabled={index === 0}
              aria-label={`Move ${label} up`}
              title="Move up"
            >
              <ArrowUp aria-hidden className="size-4" />
            </button>
            <button
              type="button"
              className={ICON_BUTTON}
              onClick={() => onMove(1)}
              disabled={index === count - 1}
              aria-label={`Move ${label} down`}
              title="Move down"
            >
              <ArrowDown aria-hidden className="size-4" />
            </button>
            <button
              type="button"
              className={`${ICON_BUTTON} hover:text-red-700`}
              onClick={onRemove}
              disabled={count === 1}
              aria-label={`Remove ${label}`}
              title={count === 1 ? "A run needs one stage at least" : "Remove"}
            >
              <Trash2 aria-hidden className="size-4" />
            </button>
          </div>
        </div>
        <div className="space-y-5 px-4 py-4 sm:px-5">
          <div className="space-y-3">
            <div className="flex">
              <SegmentedControl
                label="Clusters"
                value={stage.select}
                onChange={(select) => onChange({ select })}
                options={[
                  { value: "filter", label: "By fleet filter" },
                  { value: "shoots", label: "A list" },
                ]}
              />
            </div>
            {stage.select === "filter" ? (
              <FilterEditor
                filter={stage.filter}
                onChange={(filter) => onChange({ filter })}
                problem={problems.filter ?? problems.stage}
              />
            ) : (
              <ListEditor
                text={stage.shoots}
                onChange={(shoots) => onChange({ shoots })}
                problem={problems.shoots ?? problems.stage}
              />
            )}
          </div>
          <ChoiceGroup
            legend="When"
            name={`${stage.key}-when`}
            value={stage.when}
            onChange={(when) => onChange({ when })}
            error={problems.when}
            options={[
              { value: "now", label: "Now", hint: "As soon as the stage starts, cluster after cluster." },
              {
                value: "window",
                label: "In each cluster's window",
                hint: "Each cluster in its next maintenance window, in its own time zone.",
              },
            ]}
          />
          <div className="flex flex-wrap items-start gap-x-8 gap-y-4">
            <DurationField
              label="Soak after it"
              value={stage.soak}
              unit={stage.soakUnit}
              placeholder="0"
              onChange={(soak, soakUnit) => onChange({ soak, soakUnit })}
              hint="How long to wait after this stage before the next one starts."
              error={problems.soakSeconds}
            />
            <label className="flex max-w-sm items-start gap-2 pt-6 text-sm text-slate-700">
              <input
                type="checkbox"
                checked={stage.approval}
                onChange={(e) => onChange({ approval: e.target.checked })}
                className="mt-0.5 size-4 accent-[var(--color-accent-600)] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
              />
              <span>
                <span className="font-medium text-slate-900">Ask for approval before it starts</span>
                <span className="block text-xs text-slate-500">
                  A person with the operator role approves it on the run&apos;s page; the approval is audited.
                </span>
              </span>
            </label>
          </div>
          <Problem id={`${stage.key}-approval-error`} text={problems.approval} />
        </div>
      </fieldset>
    </li>
  );
}

function FilterEditor({
  filter,
  onChange,
  problem,
}: {
  filter: StageFilter;
  onChange: (filter: StageFilter) => void;
  problem?: string;
}) {
  const projects = useQuery({ ...projectsQuery, staleTime: LISTS_STALE_MS, select: names });
  const readable = useReadableProjects();
  const profiles = useQuery({ ...cloudProfilesQuery, staleTime: LISTS_STALE_MS, select: names });
  const seeds = useQuery({ ...seedsQuery, staleTime: LISTS_STALE_MS, select: names });
  const set = (key: keyof StageFilter) => (value: string | undefined) => onChange({ ...filter, [key]: value ?? "" });
  const search = new URLSearchParams(stageFilterQuery(filter)).toString();
  const problemId = useId();
  return (
    <div className="space-y-2 rounded-lg bg-slate-50 p-3 ring-1 ring-inset ring-slate-200">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4 [&_select]:min-w-0">
        <TextFilter
          className="max-lg:col-span-2"
          label="Search"
          type="search"
          value={filter.q ?? ""}
          onChange={set("q")}
          placeholder="Name, version, region…"
        />
        <SelectFilter
          label="Project"
          allLabel="All projects"
          value={filter.project || undefined}
          onChange={set("project")}
          options={asOptions(
            projects.data?.filter((p) => offersProject(readable, p)),
            filter.project,
          )}
        />
        <SelectFilter
          label="Status"
          allLabel="Any status"
          value={filter.status || undefined}
          onChange={set("status")}
          options={STATUS_DISPLAY_ORDER.map((s) => ({ value: s, label: STATUS_META[s].word }))}
        />
        <SelectFilter
          label="Purpose"
          allLabel="Any purpose"
          value={filter.purpose || undefined}
          onChange={set("purpose")}
          options={[
            // Several purposes come only from the fleet page's link: kept, shown as they are.
            ...(filter.purpose?.includes(",")
              ? [{ value: filter.purpose, label: filter.purpose.split(",").map(purposeWord).join(", ") }]
              : []),
            ...SHOOT_PURPOSES.map((p) => ({ value: p, label: purposeWord(p) })),
          ]}
        />
        <LabelSelectorInput
          value={filter.labels ?? ""}
          onChange={(labels) => onChange({ ...filter, labels })}
          applied={!!filter.labels?.trim()}
          reason={labelSelectorProblem(filter.labels ?? "")}
        />
        <SelectFilter
          label="Kubernetes version"
          allLabel="Any classification"
          value={filter.classification || undefined}
          onChange={set("classification")}
          options={CLASSIFICATIONS.map((c) => ({ value: c, label: CLASSIFICATION_META[c].word }))}
        />
        <SelectFilter
          label="Expiring within"
          allLabel="Any time"
          value={filter.expiringWithinDays || undefined}
          onChange={set("expiringWithinDays")}
          options={EXPIRY_CHOICES}
        />
        <SelectFilter
          label="Cloud profile"
          allLabel="All profiles"
          value={filter.cloudProfile || undefined}
          onChange={set("cloudProfile")}
          options={asOptions(profiles.data, filter.cloudProfile)}
        />
        <SelectFilter
          label="Seed"
          allLabel="All seeds"
          value={filter.seed || undefined}
          onChange={set("seed")}
          options={asOptions(seeds.data, filter.seed)}
        />
      </div>
      <SelectionCount search={search} />
      <Problem id={problemId} text={problem} />
    </div>
  );
}

/** How many clusters the filter selects now (the fleet's summary), and a link to see them. */
function SelectionCount({ search }: { search: string }) {
  const summary = useQuery({ ...fleetSummaryQuery(search), staleTime: 10_000 });
  const params = new URLSearchParams(search);
  const status = params.get("status");
  const count = summary.data
    ? status
      ? (summary.data.byStatus[status as keyof typeof summary.data.byStatus] ?? 0)
      : summary.data.statusTotal
    : undefined;
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" aria-live="polite" data-testid="stage-selects">
      <span className={count === 0 ? "font-medium text-red-700" : "text-slate-700"}>
        {count === undefined
          ? summary.isError
            ? "The count could not be read."
            : "Counting…"
          : count === 0
            ? "Selects no cluster now."
            : `Selects ${count} ${count === 1 ? "cluster" : "clusters"} now${search ? "" : ": the whole fleet"}.`}
      </span>
      <Link
        href={`/shoots${search ? `?${search}` : ""}`}
        target="_blank"
        className="inline-flex items-center gap-1 text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
      >
        See them in the fleet <ExternalLink aria-hidden className="size-3.5" />
        <span className="sr-only">(opens a new tab)</span>
      </Link>
    </p>
  );
}

function ListEditor({ text, onChange, problem }: { text: string; onChange: (text: string) => void; problem?: string }) {
  const parsed = parseShootList(text);
  const n = parsed.shoots.length;
  return (
    <div className="space-y-1">
      <TextAreaField
        label="Clusters, as namespace/name"
        rows={4}
        value={text}
        onChange={(e) => onChange(e.target.value)}
        placeholder={"garden-dev/api-canary\ngarden-dev/web-canary"}
        spellCheck={false}
        error={
          problem ??
          (parsed.unreadable.length > 0
            ? `Not namespace/name: ${parsed.unreadable.slice(0, 5).join(", ")}${parsed.unreadable.length > 5 ? " …" : ""}`
            : undefined)
        }
        hint="One a line, or separated by commas or spaces."
      />
      <p className="text-sm text-slate-700" aria-live="polite">
        {n === 0 ? "No cluster named yet." : `${n} ${n === 1 ? "cluster" : "clusters"}.`}
      </p>
    </div>
  );
}

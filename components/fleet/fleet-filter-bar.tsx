"use client";

// Search and filters of the fleet table. Typing is debounced (300 ms) before it reaches the URL
// and the server (use-search-text.ts); the select boxes apply at once, each as a change of the
// latest filters. "/" anywhere on the page (but in another field) puts the cursor in the search.
import { useQuery } from "@tanstack/react-query";
import { Search, X } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { SelectFilter } from "@/components/ui/filter-controls";
import { useReadableProjects } from "@/components/use-readable-projects";
import { SHOOT_PURPOSES, type ShootPurpose } from "@/lib/engine/shoot-purpose";
import { MINUTE_MS } from "@/lib/engine/time-units";
import {
  activeFilterCount,
  DEFAULT_FILTERS,
  type FleetChange,
  type FleetFilters,
  purposeWord,
} from "@/lib/ui/fleet-filters";
import { offersProject } from "@/lib/ui/permissions";
import { LabelSelectorField } from "./label-selector-field";
import { cloudProfilesQuery, projectsQuery, seedsQuery } from "@/lib/client/queries";
import {
  CLASSIFICATION_META,
  CLASSIFICATIONS,
  STATUS_DISPLAY_ORDER,
  STATUS_META,
  type Classification,
  type StatusLabel,
} from "@/lib/ui/status";

const EXPIRY_CHOICES = [
  { value: "0", label: "Already expired" },
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
];

// Projects, profiles and seeds change rarely: their lists are kept for minutes, and only the
// names are shown.
const LISTS_STALE_MS = 5 * MINUTE_MS;
const names = (answer: { items: readonly { metadata: { name: string } }[] }) =>
  answer.items.map((i) => i.metadata.name).sort();

export function FleetFilterBar({
  filters,
  onChange,
  text,
  onType,
}: {
  filters: FleetFilters;
  onChange: (change: FleetChange) => void;
  /** The search box's text, as typed. */
  text: string;
  onType: (text: string) => void;
}) {
  const searchId = useId();
  const searchBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const focusSearch = (e: KeyboardEvent) => {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      if (typesText(e.target)) return;
      e.preventDefault();
      searchBox.current?.focus();
    };
    document.addEventListener("keydown", focusSearch);
    return () => document.removeEventListener("keydown", focusSearch);
  }, []);

  const projects = useQuery({ ...projectsQuery, staleTime: LISTS_STALE_MS, select: names });
  // A caller with roles on some projects only is offered those (the server refuses the others).
  const readable = useReadableProjects();
  const projectNames = projects.data?.filter((name) => offersProject(readable, name));
  const profiles = useQuery({ ...cloudProfilesQuery, staleTime: LISTS_STALE_MS, select: names });
  const seeds = useQuery({ ...seedsQuery, staleTime: LISTS_STALE_MS, select: names });
  const count = activeFilterCount(filters);
  const purposes = filters.purpose ?? [];
  const failed = [projects, profiles, seeds].find((q) => q.isError);

  return (
    <div className="flex flex-wrap items-end gap-3" role="search" aria-label="Filter the fleet">
      <div className="min-w-64 flex-1">
        <label htmlFor={searchId} className="mb-1 block text-xs font-medium text-slate-600">
          Search
        </label>
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-slate-400"
          />
          <input
            id={searchId}
            ref={searchBox}
            type="search"
            value={text}
            onChange={(e) => onType(e.target.value)}
            aria-keyshortcuts="/"
            placeholder="Name, namespace, version, seed, region…"
            className="peer w-full rounded-md border-0 bg-white py-1.5 pl-8 pr-8 text-sm shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:outline-2 focus:outline-offset-0 focus:outline-accent-600"
          />
          <kbd
            title="Press / to search"
            className="pointer-events-none absolute right-2 top-1/2 -translate-y-1/2 rounded border border-slate-300 px-1 font-mono text-xs leading-4 text-slate-500 peer-focus:hidden"
          >
            /
          </kbd>
        </div>
      </div>
      <SelectFilter
        label="Status"
        allLabel="Any status"
        value={filters.status.length === 1 ? filters.status[0] : filters.status.length ? "many" : undefined}
        onChange={(v) => onChange((f) => ({ ...f, status: v ? [v as StatusLabel] : [] }))}
        options={[
          // Several labels come only from a link; shown, but not offered as a choice.
          ...(filters.status.length > 1
            ? [{ value: "many", label: filters.status.map((s) => STATUS_META[s].word).join(", "), disabled: true }]
            : []),
          ...STATUS_DISPLAY_ORDER.map((s) => ({ value: s, label: STATUS_META[s].word })),
        ]}
      />
      <SelectFilter
        label="Purpose"
        allLabel="Any purpose"
        value={purposes.length === 1 ? purposes[0] : purposes.length ? "many" : undefined}
        onChange={(v) => onChange((f) => ({ ...f, purpose: v ? [v as ShootPurpose] : undefined }))}
        options={[
          // Several purposes come only from a link; shown, but not offered as a choice.
          ...(purposes.length > 1
            ? [{ value: "many", label: purposes.map(purposeWord).join(", "), disabled: true }]
            : []),
          ...SHOOT_PURPOSES.map((p) => ({ value: p, label: purposeWord(p) })),
        ]}
      />
      <LabelSelectorField
        value={filters.labels ?? ""}
        onApply={(labels) => onChange((f) => ({ ...f, labels }))}
        className="w-56"
      />
      <SelectFilter
        label="Kubernetes version"
        allLabel="Any classification"
        value={filters.classification}
        onChange={(v) => onChange((f) => ({ ...f, classification: v as Classification | undefined }))}
        options={CLASSIFICATIONS.map((c) => ({ value: c, label: CLASSIFICATION_META[c].word }))}
      />
      <SelectFilter
        label="Expiring within"
        allLabel="Any time"
        value={filters.expiringWithinDays === undefined ? undefined : String(filters.expiringWithinDays)}
        onChange={(v) => onChange((f) => ({ ...f, expiringWithinDays: v === undefined ? undefined : Number(v) }))}
        options={[
          ...(filters.expiringWithinDays !== undefined &&
          !EXPIRY_CHOICES.some((c) => c.value === String(filters.expiringWithinDays))
            ? [{ value: String(filters.expiringWithinDays), label: `${filters.expiringWithinDays} days` }]
            : []),
          ...EXPIRY_CHOICES,
        ]}
      />
      <SelectFilter
        label="Project"
        allLabel="All projects"
        value={filters.project}
        onChange={(project) => onChange((f) => ({ ...f, project }))}
        options={withCurrent(projectNames, filters.project).map(asOption)}
      />
      <SelectFilter
        label="Cloud profile"
        allLabel="All profiles"
        value={filters.cloudProfile}
        onChange={(cloudProfile) => onChange((f) => ({ ...f, cloudProfile }))}
        options={withCurrent(profiles.data, filters.cloudProfile).map(asOption)}
      />
      <SelectFilter
        label="Seed"
        allLabel="All seeds"
        value={filters.seed}
        onChange={(seed) => onChange((f) => ({ ...f, seed }))}
        options={withCurrent(seeds.data, filters.seed).map(asOption)}
      />
      {filters.namespace && (
        <span className="inline-flex items-center gap-1 rounded-md bg-accent-50 px-2 py-1.5 text-sm text-accent-700 ring-1 ring-inset ring-accent-500/30">
          Namespace {filters.namespace}
          <button
            type="button"
            aria-label={`Remove the namespace filter ${filters.namespace}`}
            onClick={() => onChange((f) => ({ ...f, namespace: undefined }))}
            className="rounded p-0.5 hover:bg-accent-100"
          >
            <X aria-hidden className="size-3.5" />
          </button>
        </span>
      )}
      {failed && (
        <p role="alert" className="flex items-center gap-2 text-xs text-red-700">
          The lists of projects, cloud profiles or seeds could not be loaded ({failed.error?.message}).
          <button
            type="button"
            onClick={() => {
              void projects.refetch();
              void profiles.refetch();
              void seeds.refetch();
            }}
            className="font-medium underline"
          >
            Retry
          </button>
        </p>
      )}
      <button
        type="button"
        disabled={count === 0}
        onClick={() => onChange((f) => ({ ...DEFAULT_FILTERS, sort: f.sort, descending: f.descending }))}
        className="rounded-md px-2.5 py-1.5 text-sm font-medium text-accent-700 hover:bg-accent-50 focus-visible:outline-2 focus-visible:outline-accent-600 disabled:text-slate-400 disabled:hover:bg-transparent"
      >
        Reset filters{count ? ` (${count})` : ""}
      </button>
    </div>
  );
}

const asOption = (name: string) => ({ value: name, label: name });

const withCurrent = (names: string[] | undefined, current?: string) =>
  current && !(names ?? []).includes(current) ? [current, ...(names ?? [])] : (names ?? []);

/** Whether a key pressed in `target` types into it (a "/" there is text, not a shortcut). */
function typesText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"].includes(target.type);
}

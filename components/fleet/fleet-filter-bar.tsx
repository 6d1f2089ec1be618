"use client";

// Search and filters of the fleet table. Typing is debounced (300 ms) before it reaches the URL
// and the server; the select boxes apply at once.
import { useQuery } from "@tanstack/react-query";
import { Search, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { MINUTE_MS } from "@/lib/engine/time-units";
import { apiGet } from "@/lib/ui/api";
import { activeFilterCount, DEFAULT_FILTERS, type FleetFilters } from "@/lib/ui/fleet-filters";
import { queryKeys } from "@/lib/ui/query-keys";
import { CLASSIFICATION_META, CLASSIFICATIONS, STATUS_DISPLAY_ORDER, STATUS_META, type Classification, type StatusLabel } from "@/lib/ui/status";

interface Named { metadata: { name: string }; spec?: { namespace?: string } }

const EXPIRY_CHOICES = [
  { value: "0", label: "Already expired" },
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
];

function useNames(key: readonly unknown[], path: string) {
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiGet<{ items: Named[] }>(path, signal),
    staleTime: 5 * MINUTE_MS,
    select: (d) => d.items.map((i) => i.metadata.name).sort(),
  });
}

export function FleetFilterBar({ filters, onChange, onType }: { filters: FleetFilters; onChange: (f: FleetFilters) => void; onType: (f: FleetFilters) => void }) {
  const [text, setText] = useState(filters.q);
  const searchId = useId();
  // What was last sent to the URL. The URL arrives a server round trip later; when it is the
  // value sent, the field keeps what was typed meanwhile. Any other value came from elsewhere
  // (back button, a tile, reset), and the field follows it.
  const sent = useRef(filters.q);
  useEffect(() => {
    if (filters.q !== sent.current) {
      sent.current = filters.q;
      setText(filters.q);
    }
  }, [filters.q]);
  useEffect(() => {
    // Compared trimmed, as the URL keeps it: a space typed between two words stays in the field.
    if (text.trim() === sent.current) return;
    const t = setTimeout(() => {
      sent.current = text.trim();
      onType({ ...filters, q: text });
    }, 300);
    return () => clearTimeout(t);
  }, [text, filters, onType]);

  const projects = useNames(queryKeys.projects, "/projects");
  const profiles = useNames(queryKeys.cloudProfiles, "/cloudprofiles");
  const seeds = useNames(queryKeys.seeds, "/seeds");
  const count = activeFilterCount(filters);
  const failed = [projects, profiles, seeds].find((q) => q.isError);

  return (
    <div className="flex flex-wrap items-end gap-3" role="search" aria-label="Filter the fleet">
      <div className="min-w-64 flex-1">
        <label htmlFor={searchId} className="mb-1 block text-xs font-medium text-slate-600">Search</label>
        <div className="relative">
          <Search aria-hidden className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-slate-400" />
          <input id={searchId} type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Name, namespace, version, seed, region…"
            className="w-full rounded-md border border-slate-300 bg-white py-1.5 pl-8 pr-3 text-sm shadow-sm placeholder:text-slate-400 focus:border-accent-500 focus:outline-2 focus:outline-accent-500/40" />
        </div>
      </div>
      <FilterSelect label="Status" value={filters.status.length === 1 ? filters.status[0] : filters.status.length ? "many" : ""}
        onChange={(v) => onChange({ ...filters, status: v ? [v as StatusLabel] : [] })}>
        <option value="">Any status</option>
        {filters.status.length > 1 && <option value="many" disabled>{filters.status.map((s) => STATUS_META[s].word).join(", ")}</option>}
        {STATUS_DISPLAY_ORDER.map((s) => <option key={s} value={s}>{STATUS_META[s].word}</option>)}
      </FilterSelect>
      <FilterSelect label="Kubernetes version" value={filters.classification ?? ""} onChange={(v) => onChange({ ...filters, classification: (v || undefined) as Classification | undefined })}>
        <option value="">Any classification</option>
        {CLASSIFICATIONS.map((c) => <option key={c} value={c}>{CLASSIFICATION_META[c].word}</option>)}
      </FilterSelect>
      <FilterSelect label="Expiring within" value={filters.expiringWithinDays === undefined ? "" : String(filters.expiringWithinDays)}
        onChange={(v) => onChange({ ...filters, expiringWithinDays: v === "" ? undefined : Number(v) })}>
        <option value="">Any time</option>
        {filters.expiringWithinDays !== undefined && !EXPIRY_CHOICES.some((c) => c.value === String(filters.expiringWithinDays)) &&
          <option value={String(filters.expiringWithinDays)}>{filters.expiringWithinDays} days</option>}
        {EXPIRY_CHOICES.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
      </FilterSelect>
      <FilterSelect label="Project" value={filters.project ?? ""} onChange={(v) => onChange({ ...filters, project: v || undefined })}>
        <option value="">All projects</option>
        {withCurrent(projects.data, filters.project).map((p) => <option key={p} value={p}>{p}</option>)}
      </FilterSelect>
      <FilterSelect label="Cloud profile" value={filters.cloudProfile ?? ""} onChange={(v) => onChange({ ...filters, cloudProfile: v || undefined })}>
        <option value="">All profiles</option>
        {withCurrent(profiles.data, filters.cloudProfile).map((p) => <option key={p} value={p}>{p}</option>)}
      </FilterSelect>
      <FilterSelect label="Seed" value={filters.seed ?? ""} onChange={(v) => onChange({ ...filters, seed: v || undefined })}>
        <option value="">All seeds</option>
        {withCurrent(seeds.data, filters.seed).map((p) => <option key={p} value={p}>{p}</option>)}
      </FilterSelect>
      {filters.namespace && (
        <span className="inline-flex items-center gap-1 rounded-md bg-accent-50 px-2 py-1.5 text-sm text-accent-700 ring-1 ring-inset ring-accent-500/30">
          Namespace {filters.namespace}
          <button type="button" aria-label={`Remove the namespace filter ${filters.namespace}`} onClick={() => onChange({ ...filters, namespace: undefined })} className="rounded p-0.5 hover:bg-accent-100"><X aria-hidden className="size-3.5" /></button>
        </span>
      )}
      {failed && (
        <p role="alert" className="flex items-center gap-2 text-xs text-red-700">
          The lists of projects, cloud profiles or seeds could not be loaded ({failed.error?.message}).
          <button type="button" onClick={() => { void projects.refetch(); void profiles.refetch(); void seeds.refetch(); }} className="font-medium underline">Retry</button>
        </p>
      )}
      <button type="button" disabled={count === 0} onClick={() => onChange({ ...DEFAULT_FILTERS, sort: filters.sort, descending: filters.descending })}
        className="rounded-md px-2.5 py-1.5 text-sm font-medium text-accent-700 hover:bg-accent-50 focus-visible:outline-2 focus-visible:outline-accent-600 disabled:text-slate-400 disabled:hover:bg-transparent">
        Reset filters{count ? ` (${count})` : ""}
      </button>
    </div>
  );
}

const withCurrent = (names: string[] | undefined, current?: string) =>
  current && !(names ?? []).includes(current) ? [current, ...(names ?? [])] : (names ?? []);

function FilterSelect({ label, value, onChange, children }: { label: string; value: string; onChange: (v: string) => void; children: React.ReactNode }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-slate-600">{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}
        className={`rounded-md border bg-white py-1.5 pl-2.5 pr-8 text-sm shadow-sm focus:border-accent-500 focus:outline-2 focus:outline-accent-500/40 ${value ? "border-accent-500 text-accent-700" : "border-slate-300"}`}>
        {children}
      </select>
    </div>
  );
}

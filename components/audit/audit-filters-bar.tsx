"use client";

// The audit log's filters. Text fields apply shortly after typing stops (so each keystroke is not
// a request), selects and dates at once, taking along what is typed and not yet applied; every
// change is applied to the latest filters, so quick changes of several fields all land in the URL.
import { X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { SelectFilter, TextFilter } from "@/components/ui/filter-controls";
import type { FilterUpdate } from "@/components/ui/use-url-filters";
import { actionMeta } from "@/lib/ui/audit-format";
import { hasAuditFilters, KNOWN_AUDIT_ACTIONS, type AuditFilters } from "@/lib/ui/audit-filters";

const TEXT_KEYS = ["actor", "namespace", "name"] as const;
type TextKey = (typeof TEXT_KEYS)[number];

export function AuditFiltersBar({
  filters,
  onChange,
}: {
  filters: AuditFilters;
  onChange: (update: FilterUpdate<AuditFilters>) => void;
}) {
  const [draft, setDraft] = useState<Record<TextKey, string>>(() => textOf(filters));
  // The URL may change from elsewhere (back button, reset): the fields follow it, adjusted while
  // rendering (React's way to reset state when a prop changes) rather than one render late. What
  // was typed and is the same once trimmed stays as typed.
  const applied = keyOf(textOf(filters));
  const [followed, setFollowed] = useState(applied);
  if (applied !== followed) {
    setFollowed(applied);
    if (applied !== keyOf(draft)) setDraft(textOf(filters));
  }
  // The fields as last typed, for the delayed apply and the changes that take them along.
  const typed = useRef(draft);
  useEffect(() => {
    typed.current = draft;
  }, [draft]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  // Every text field typed since the last apply goes out together.
  const type = (key: TextKey, value: string) => {
    const next = { ...typed.current, [key]: value };
    typed.current = next;
    setDraft(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onChange((f) => ({ ...f, ...trimmed(typed.current) })), 400);
  };
  // A select, a date or Enter: at once, with the text typed so far.
  const applyNow = (change: Partial<AuditFilters>) => {
    clearTimeout(timer.current);
    onChange((f) => ({ ...f, ...trimmed(typed.current), ...change }));
  };

  const actions: { value: string; label: string }[] = KNOWN_AUDIT_ACTIONS.map((a) => ({
    value: a,
    label: `${actionMeta(a).word} (${a})`,
  }));
  if (filters.action && !actions.some((a) => a.value === filters.action))
    actions.push({ value: filters.action, label: filters.action });

  return (
    <form
      role="search"
      aria-label="Audit log filters"
      onSubmit={(e) => {
        e.preventDefault();
        applyNow({});
      }}
      className="mb-5 flex flex-wrap items-end gap-x-4 gap-y-3 rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm"
    >
      <SelectFilter
        label="Action"
        value={filters.action}
        onChange={(action) => applyNow({ action })}
        options={actions}
        allLabel="All actions"
        className="w-64"
      />
      <TextFilter
        label="Actor"
        value={draft.actor}
        onChange={(v) => type("actor", v)}
        placeholder="alice (part of the name)"
        className="w-48"
      />
      <TextFilter
        label="Namespace"
        value={draft.namespace}
        onChange={(v) => type("namespace", v)}
        placeholder="garden-dev"
        className="w-40"
      />
      <TextFilter
        label="Shoot"
        value={draft.name}
        onChange={(v) => type("name", v)}
        placeholder="shoot name"
        className="w-44"
      />
      <SelectFilter
        label="Object"
        value={filters.kind}
        onChange={(kind) => applyNow({ kind })}
        allLabel="All kinds"
        options={[
          { value: "Shoot", label: "Shoot" },
          { value: "Landscape", label: "Landscape" },
          { value: "Account", label: "Account" },
          { value: "ApiToken", label: "API token" },
        ]}
      />
      <TextFilter
        type="date"
        label="From (UTC day)"
        value={filters.since ?? ""}
        onChange={(since) => applyNow({ since: since || undefined })}
      />
      <TextFilter
        type="date"
        label="To (UTC day, included)"
        value={filters.until ?? ""}
        onChange={(until) => applyNow({ until: until || undefined })}
      />
      {filters.bulkAction && (
        <p className="flex items-center gap-1.5 self-center rounded-md bg-accent-50 py-1 pl-2.5 pr-1 text-sm text-slate-800 ring-1 ring-inset ring-accent-100">
          <span>
            Bulk action{" "}
            <span className="font-mono text-xs" data-testid="bulk-action-filter">
              {filters.bulkAction}
            </span>
          </span>
          <button
            type="button"
            onClick={() => applyNow({ bulkAction: undefined })}
            aria-label="Show the events of every action, not only this bulk action's"
            className="rounded p-0.5 text-slate-500 hover:bg-accent-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            <X aria-hidden className="size-3.5" />
          </button>
        </p>
      )}
      {filters.updateRun && (
        <p className="flex items-center gap-1.5 self-center rounded-md bg-accent-50 py-1 pl-2.5 pr-1 text-sm text-slate-800 ring-1 ring-inset ring-accent-100">
          <span>
            Update run{" "}
            <span className="font-mono text-xs" data-testid="update-run-filter">
              {filters.updateRun}
            </span>
          </span>
          <button
            type="button"
            onClick={() => applyNow({ updateRun: undefined })}
            aria-label="Show the events of every action, not only this update run's"
            className="rounded p-0.5 text-slate-500 hover:bg-accent-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            <X aria-hidden className="size-3.5" />
          </button>
        </p>
      )}
      <button type="submit" className="sr-only">
        Apply filters
      </button>
      {hasAuditFilters(filters) && (
        <Button
          variant="ghost"
          onClick={() => {
            clearTimeout(timer.current);
            typed.current = textOf({});
            setDraft(typed.current);
            onChange({});
          }}
        >
          Clear filters
        </Button>
      )}
    </form>
  );
}

const textOf = (f: AuditFilters): Record<TextKey, string> => ({
  actor: f.actor ?? "",
  namespace: f.namespace ?? "",
  name: f.name ?? "",
});

const keyOf = (draft: Record<TextKey, string>) => TEXT_KEYS.map((k) => draft[k].trim()).join("|");

function trimmed(draft: Record<TextKey, string>): Partial<AuditFilters> {
  return Object.fromEntries(TEXT_KEYS.map((k) => [k, draft[k].trim() || undefined]));
}

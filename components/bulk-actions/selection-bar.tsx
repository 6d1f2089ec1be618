"use client";

// The bar under the fleet list once clusters are ticked: how many, "select all N that this filter
// selects" (the request then sends the filter, so shoots not loaded count too), clear, and the
// actions. A caller whose roles change nothing sees the actions disabled and why.
import { useQuery } from "@tanstack/react-query";
import { ChevronDown, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { describedBy, NotAllowed, reasonId } from "@/components/ui/not-allowed";
import { MAX_BULK_SHOOTS, type BulkActionName } from "@/lib/api/bulk-actions";
import { meQuery } from "@/lib/client/queries";
import { BULK_ACTION_CHOICES, bulkAllowance } from "@/lib/ui/bulk-actions";
import { summaryQuery, type FleetFilters } from "@/lib/ui/fleet-filters";
import { BulkActionDialog, type BulkTarget } from "./bulk-action-dialog";
import { shootOfKey, useSelection, type SelectionStore } from "./selection-store";

const n = (count: number) => count.toLocaleString("en");
const shoots = (count: number) => `${n(count)} ${count === 1 ? "shoot" : "shoots"}`;

export function SelectionBar({
  store,
  filters,
  total,
  bounded,
}: {
  store: SelectionStore;
  filters: FleetFilters;
  /** The list's total (undefined while it loads). */
  total: number | undefined;
  /** Whether the total is a lower bound (a search with many matches). */
  bounded: boolean;
}) {
  const { mode, keys } = useSelection(store);
  const me = useQuery(meQuery);
  const allowance = bulkAllowance(me.data?.bindings, me.data === undefined && me.isError);
  const [action, setAction] = useState<BulkActionName>();
  const [target, setTarget] = useState<BulkTarget>({ kind: "keys", shoots: [] });
  const reason = useId();

  const count = mode === "filter" ? total : keys.size;
  if (mode === "keys" && keys.size === 0 && action === undefined) return null;
  const tooMany = count !== undefined && (count > MAX_BULK_SHOOTS || (mode === "filter" && bounded));
  const filterText = `${bounded || total === undefined ? "" : `${n(total)} `}shoots this filter selects`;
  const selectionText = mode === "filter" ? `all ${filterText}` : shoots(keys.size);

  // The target is fixed when an action is chosen: ticking on behind the dialog does not change it.
  const choose = (chosen: BulkActionName) => {
    setTarget(
      mode === "filter"
        ? { kind: "filter", filter: Object.fromEntries(summaryQuery(filters)), total }
        : { kind: "keys", shoots: [...keys].map(shootOfKey) },
    );
    setAction(chosen);
  };

  return (
    <>
      <div
        role="region"
        aria-label="Selected shoots"
        data-testid="selection-bar"
        className="sticky bottom-3 z-20 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-xl border border-accent-100 bg-white px-4 py-3 shadow-lg ring-1 ring-slate-900/5"
      >
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <span className="font-semibold text-slate-900" data-testid="selection-count" aria-live="polite">
            {mode === "filter" ? `All ${filterText}` : `${shoots(keys.size)} selected`}
          </span>
          {mode === "keys" && total !== undefined && !bounded && total > keys.size && (
            <button
              type="button"
              onClick={() => store.selectFilter()}
              className="rounded font-medium text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
            >
              Select all {n(total)} that this filter selects
            </button>
          )}
          <button
            type="button"
            onClick={() => store.clear()}
            className="inline-flex items-center gap-1 rounded text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            <X aria-hidden className="size-3.5" />
            Clear
          </button>
        </div>
        <div className="flex flex-col items-end gap-1">
          <ActionMenu
            disabled={!allowance.allowed || tooMany}
            describedBy={describedBy(reasonId(reason, allowance), tooMany && `${reason}-many`)}
            onChoose={choose}
          />
          <NotAllowed id={reason} allowance={allowance} className="max-w-sm justify-end text-right" />
          {tooMany && allowance.allowed && (
            <p id={`${reason}-many`} className="max-w-sm text-right text-xs text-slate-500">
              At most {n(MAX_BULK_SHOOTS)} shoots at once: narrow the filter.
            </p>
          )}
        </div>
      </div>
      <BulkActionDialog
        action={action}
        target={target}
        selectionText={selectionText}
        onClose={() => setAction(undefined)}
      />
    </>
  );
}

/** A button that opens the list of actions above it; Escape or a click elsewhere closes it. */
function ActionMenu({
  disabled,
  describedBy,
  onChoose,
}: {
  disabled: boolean;
  describedBy: string | undefined;
  onChoose: (action: BulkActionName) => void;
}) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const menu = useId();
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", away);
    return () => document.removeEventListener("pointerdown", away);
  }, [open]);
  return (
    <div
      ref={box}
      className="relative"
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          e.stopPropagation();
          setOpen(false);
          box.current?.querySelector("button")?.focus();
        }
      }}
    >
      <Button
        variant="primary"
        disabled={disabled}
        aria-expanded={open}
        aria-controls={menu}
        aria-describedby={describedBy}
        onClick={() => setOpen((o) => !o)}
      >
        Actions
        <ChevronDown aria-hidden className="size-4" />
      </Button>
      {open && (
        <ul
          id={menu}
          aria-label="Bulk actions"
          className="absolute bottom-full right-0 z-30 mb-2 w-72 overflow-hidden rounded-lg bg-white py-1 shadow-xl ring-1 ring-slate-900/10"
        >
          {BULK_ACTION_CHOICES.map((c) => (
            <li key={c.action}>
              <button
                type="button"
                onClick={() => {
                  setOpen(false);
                  onChoose(c.action);
                }}
                className="block w-full px-3 py-2 text-left hover:bg-slate-50 focus-visible:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent-600"
              >
                <span className="block text-sm font-medium text-slate-900">{c.label}</span>
                <span className="block text-xs text-slate-500">{c.help}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

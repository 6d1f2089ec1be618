"use client";

// The fleet list's checkboxes: one per row (subscribed to its own key only, so ticking one
// re-renders one), and the header's, which selects the loaded rows. Space ticks a focused box (a
// native checkbox); shift-click ticks or unticks every row between the last one clicked and this.
import { memo, useEffect, useRef, type ChangeEvent } from "react";
import { keyOf, useRowSelected, useSelection, type SelectionStore } from "./selection-store";

const BOX =
  "size-4 shrink-0 cursor-pointer rounded border-slate-400 accent-accent-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600";

export const RowCheckbox = memo(function RowCheckbox({
  store,
  namespace,
  name,
}: {
  store: SelectionStore;
  namespace: string;
  name: string;
}) {
  const key = keyOf({ namespace, name });
  const selected = useRowSelected(store, key);
  // A checkbox's change comes from a click (also space's): shift is read from it.
  const change = (event: ChangeEvent<HTMLInputElement>) =>
    store.toggle(key, (event.nativeEvent as Partial<globalThis.MouseEvent>).shiftKey === true);
  return (
    <input
      type="checkbox"
      checked={selected}
      onChange={change}
      aria-label={`Select ${name} (${namespace})`}
      data-select-shoot={key}
      className={BOX}
    />
  );
});

/** Ticks every loaded row, or clears them; mixed while some are ticked. */
export function HeaderCheckbox({ store, loaded }: { store: SelectionStore; loaded: readonly string[] }) {
  const { mode, keys } = useSelection(store);
  const picked = mode === "filter" ? loaded.length : loaded.filter((k) => keys.has(k)).length;
  const all = loaded.length > 0 && picked === loaded.length;
  const some = picked > 0 && !all;
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = some;
  }, [some]);
  return (
    <input
      ref={ref}
      type="checkbox"
      checked={all}
      disabled={loaded.length === 0}
      onChange={() => (all ? store.clear() : store.setMany(loaded, true))}
      aria-label={all ? "Clear the selection" : `Select the ${loaded.length.toLocaleString("en")} shoots shown`}
      title={all ? "Clear the selection" : "Select the shoots shown (shift-click a row to select a range)"}
      className={BOX}
    />
  );
}

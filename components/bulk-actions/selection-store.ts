"use client";

// The fleet selection's hooks: each checkbox subscribes to its own key (useSyncExternalStore with a
// boolean snapshot), so React re-renders only those whose answer changed; the bar subscribes to the
// whole selection. The store itself is lib/ui/fleet-selection.ts.
import { useSyncExternalStore } from "react";
import type { SelectionSnapshot, SelectionStore } from "@/lib/ui/fleet-selection";

export { keyOf, SelectionStore, shootOfKey } from "@/lib/ui/fleet-selection";

/** Whether one row is selected; the component re-renders only when that answer changes. */
export function useRowSelected(store: SelectionStore, key: string): boolean {
  return useSyncExternalStore(
    store.subscribe,
    () => store.has(key),
    () => false,
  );
}

const EMPTY: SelectionSnapshot = { mode: "keys", keys: new Set() };

/** The whole selection, for the bar and the header checkbox. */
export function useSelection(store: SelectionStore): SelectionSnapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, () => EMPTY);
}

// The fleet's selection for a bulk action: the keys ticked one by one, or "every shoot the filter
// selects". Kept outside React state (components/bulk-actions/selection-store.ts subscribes to it)
// so that ticking one row of a virtual list of 100,000 re-renders that row's checkbox only.

export type ShootKeyText = `${string}/${string}`;

/** "namespace/name", the fleet rows' data-shoot. */
export const keyOf = (row: { readonly namespace: string; readonly name: string }): ShootKeyText =>
  `${row.namespace}/${row.name}`;

export const shootOfKey = (key: string) => {
  const slash = key.indexOf("/");
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
};

/**
 * Either shoots picked one by one (`keys`), or every shoot the current filter selects (`filter`:
 * the request then sends the filter, not the keys, so shoots not loaded in the list count too).
 */
export type SelectionMode = "keys" | "filter";

export interface SelectionSnapshot {
  readonly mode: SelectionMode;
  readonly keys: ReadonlySet<string>;
}

export class SelectionStore {
  private keys = new Set<string>();
  private mode: SelectionMode = "keys";
  private listeners = new Set<() => void>();
  /** The loaded rows in list order, for shift-click ranges; the table hands it over as it draws. */
  private order: readonly string[] = [];
  /** The row last ticked or unticked without shift: a range starts there. */
  private anchor: string | undefined;
  private snapshot: SelectionSnapshot = { mode: this.mode, keys: this.keys };

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  setOrder(order: readonly string[]) {
    this.order = order;
  }

  /** Whether `key` is selected: every row is, while the whole filter is. */
  has(key: string) {
    return this.mode === "filter" || this.keys.has(key);
  }

  /** Ticks or unticks one row; with `range`, every row between the anchor and it, as it now is. */
  toggle(key: string, range = false) {
    const on = !this.has(key);
    const keys = this.mode === "filter" ? new Set(this.order) : new Set(this.keys);
    const from = range && this.anchor !== undefined ? this.order.indexOf(this.anchor) : -1;
    const to = this.order.indexOf(key);
    const span = from >= 0 && to >= 0 ? this.order.slice(Math.min(from, to), Math.max(from, to) + 1) : [key];
    for (const k of span) {
      if (on) keys.add(k);
      else keys.delete(k);
    }
    if (!range) this.anchor = key;
    this.set("keys", keys);
  }

  /** Selects (or clears) the given rows, keeping the others as they are. */
  setMany(rows: readonly string[], on: boolean) {
    const keys = this.mode === "filter" ? new Set(this.order) : new Set(this.keys);
    for (const k of rows) {
      if (on) keys.add(k);
      else keys.delete(k);
    }
    this.set("keys", keys);
  }

  selectFilter() {
    this.set("filter", new Set());
  }

  clear() {
    this.anchor = undefined;
    this.set("keys", new Set());
  }

  private set(mode: SelectionMode, keys: Set<string>) {
    this.mode = mode;
    this.keys = keys;
    this.snapshot = { mode, keys };
    for (const listener of this.listeners) listener();
  }
}

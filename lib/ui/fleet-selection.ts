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
 * the preview then asks with the filter, not the keys, so shoots not loaded in the list count too),
 * except the rows unticked since (`except`): unticking one row of "all 5,000" leaves the other
 * 4,999, never only the loaded rows.
 */
export type SelectionMode = "keys" | "filter";

export interface SelectionSnapshot {
  readonly mode: SelectionMode;
  /** The ticked rows ("keys" mode; empty in "filter" mode). */
  readonly keys: ReadonlySet<string>;
  /** The rows left out of the filter's shoots ("filter" mode; empty in "keys" mode). */
  readonly except: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

export class SelectionStore {
  private mode: SelectionMode = "keys";
  /** In "keys" mode the rows ticked; in "filter" mode the rows unticked. */
  private marked = new Set<string>();
  private listeners = new Set<() => void>();
  /** The loaded rows in list order, for shift-click ranges; the table hands it over as it draws. */
  private order: readonly string[] = [];
  /** The row last ticked or unticked without shift: a range starts there. */
  private anchor: string | undefined;
  private snapshot: SelectionSnapshot = { mode: this.mode, keys: this.marked, except: NONE };

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  setOrder(order: readonly string[]) {
    this.order = order;
  }

  /** Whether `key` is selected: every row not left out is, while the whole filter is. */
  has(key: string) {
    return this.mode === "filter" ? !this.marked.has(key) : this.marked.has(key);
  }

  /** Ticks or unticks one row; with `range`, every row between the anchor and it, as it now is. */
  toggle(key: string, range = false) {
    const on = !this.has(key);
    const from = range && this.anchor !== undefined ? this.order.indexOf(this.anchor) : -1;
    const to = this.order.indexOf(key);
    const span = from >= 0 && to >= 0 ? this.order.slice(Math.min(from, to), Math.max(from, to) + 1) : [key];
    if (!range) this.anchor = key;
    this.setMany(span, on);
  }

  /** Selects (or clears) the given rows, keeping the others as they are (and the mode). */
  setMany(rows: readonly string[], on: boolean) {
    const marked = new Set(this.marked);
    // In "filter" mode a row is marked when it is left out.
    const mark = this.mode === "filter" ? !on : on;
    for (const k of rows) {
      if (mark) marked.add(k);
      else marked.delete(k);
    }
    this.set(this.mode, marked);
  }

  selectFilter() {
    this.set("filter", new Set());
  }

  clear() {
    this.anchor = undefined;
    this.set("keys", new Set());
  }

  private set(mode: SelectionMode, marked: Set<string>) {
    this.mode = mode;
    this.marked = marked;
    this.snapshot = mode === "filter" ? { mode, keys: NONE, except: marked } : { mode, keys: marked, except: NONE };
    for (const listener of this.listeners) listener();
  }
}

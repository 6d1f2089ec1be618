import { describe, expect, it } from "vitest";
import { SelectionStore, shootOfKey } from "./fleet-selection.ts";

const ORDER = ["ns/a", "ns/b", "ns/c", "ns/d", "ns/e"];

function store() {
  const s = new SelectionStore();
  s.setOrder(ORDER);
  return s;
}
const ticked = (s: SelectionStore) => ORDER.filter((k) => s.has(k));

describe("the fleet's selection", () => {
  it("ticks and unticks one row at a time", () => {
    const s = store();
    s.toggle("ns/b");
    s.toggle("ns/d");
    expect(ticked(s)).toEqual(["ns/b", "ns/d"]);
    s.toggle("ns/b");
    expect(ticked(s)).toEqual(["ns/d"]);
    expect(s.getSnapshot()).toMatchObject({ mode: "keys" });
  });

  it("a shift-click ticks the range from the last row clicked, either way, to what the clicked row becomes", () => {
    const s = store();
    s.toggle("ns/b");
    s.toggle("ns/d", true);
    expect(ticked(s)).toEqual(["ns/b", "ns/c", "ns/d"]);
    s.toggle("ns/e");
    s.toggle("ns/c", true); // ns/c is ticked: the range c..e is unticked
    expect(ticked(s)).toEqual(["ns/b"]);
  });

  it("the header ticks the loaded rows; the whole filter selects every row, and an untick then keeps the loaded others", () => {
    const s = store();
    s.setMany(ORDER, true);
    expect(ticked(s)).toEqual(ORDER);
    s.selectFilter();
    expect(s.getSnapshot().mode).toBe("filter");
    expect(s.has("ns/not-loaded-yet")).toBe(true);
    s.toggle("ns/c");
    expect(s.getSnapshot().mode).toBe("keys");
    expect(ticked(s)).toEqual(["ns/a", "ns/b", "ns/d", "ns/e"]);
    s.clear();
    expect(ticked(s)).toEqual([]);
  });

  it("tells its subscribers; a row's answer changes only for the rows ticked (what useSyncExternalStore compares)", () => {
    const s = store();
    const before = ORDER.map((k) => s.has(k));
    let calls = 0;
    const stop = s.subscribe(() => calls++);
    s.toggle("ns/c");
    const after = ORDER.map((k) => s.has(k));
    expect(calls).toBe(1);
    expect(ORDER.filter((_, i) => before[i] !== after[i])).toEqual(["ns/c"]);
    stop();
    s.toggle("ns/a");
    expect(calls).toBe(1);
  });

  it("reads a key back as the shoot", () => {
    expect(shootOfKey("garden-dev/cluster-0")).toEqual({ namespace: "garden-dev", name: "cluster-0" });
  });
});

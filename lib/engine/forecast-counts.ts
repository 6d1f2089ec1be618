// The forecast's summary and markers (forecast-summary.ts, their definition) from counts that add
// up: per UTC day, how many items of each kind of fact there are, and how many shoots have their
// FIRST item of each kind on that day. A shoot is counted once however many items it has, so the
// counts of many shoots are sums, and the database keeps them per cloud profile as items are
// written and deleted (migration 20261127154900_forecast_counts; lib/store/forecast-counts.ts):
// a fleet's summary is then a sum over a few thousand rows however many shoots there are.
//
// shootCountRows is the definition of what is kept; the migration's trigger counts the same in SQL,
// and tests/server/forecast-counts.test.ts holds the two (and the answer) equal to the engine's.
import type { ForecastItem } from "./forecast.ts";
import { type ForecastMarker, type ForecastNarrowing, type ForecastSummary, weekOfDay } from "./forecast-summary.ts";
import { DAY_MS } from "./time-units.ts";
import type { UpdateRiskCause } from "./update-risk.ts";

/** One item as counted: its moment and facets (as shoot_forecast_items stores them). */
export interface CountedItem {
  readonly at: number;
  readonly kind: ForecastItem["kind"];
  readonly fromVersion: string;
  readonly stuck: boolean;
  readonly held: boolean;
  /** The risk's causes joined by ","; null when the item is not at risk. */
  readonly causes: string | null;
}

/** How many items of one day share these facets. */
export interface ItemCountRow {
  readonly day: number;
  readonly kind: ForecastItem["kind"];
  /** The version moved from, for Kubernetes items (the markers'); "" for machine images. */
  readonly fromVersion: string;
  readonly stuck: boolean;
  readonly held: boolean;
  /** "" when not at risk, else "+" and the causes joined by ",". */
  readonly risk: string;
  readonly n: number;
}

/** Which items a shoot count looks at: the narrowing's kind ("" any), stuck only, at risk only. */
export type ShootCategory = "forced" | "held" | "stuck" | "any";

/** How many shoots have their first item of this selection and category on `day`. */
export interface ShootCountRow {
  readonly day: number;
  readonly kindFilter: "" | ForecastItem["kind"];
  readonly stuckOnly: boolean;
  readonly riskyOnly: boolean;
  readonly category: ShootCategory;
  /** With riskyOnly, the shoot's risk causes joined by ","; else "". */
  readonly causes: string;
  readonly n: number;
}

export const dayOf = (at: number) => Math.floor(at / DAY_MS);

const KIND_FILTERS = ["", "kubernetes", "machineImage"] as const;
const CATEGORIES: readonly ShootCategory[] = ["forced", "held", "stuck", "any"];

const inCategory = (item: CountedItem, category: ShootCategory) =>
  category === "forced" ? !item.held : category === "held" ? item.held : category === "stuck" ? item.stuck : true;

/** What one shoot's items add to the counts (its cloud profile is the caller's key). */
export function shootCountRows(items: readonly CountedItem[]): { items: ItemCountRow[]; shoots: ShootCountRow[] } {
  const itemRows = new Map<string, ItemCountRow>();
  for (const i of items) {
    const row = {
      day: dayOf(i.at),
      kind: i.kind,
      fromVersion: i.kind === "kubernetes" ? i.fromVersion : "",
      stuck: i.stuck,
      held: i.held,
      risk: i.causes === null ? "" : `+${i.causes}`,
    };
    const key = itemKey(row);
    itemRows.set(key, { ...row, n: (itemRows.get(key)?.n ?? 0) + 1 });
  }
  const firsts = new Map<string, ShootCountRow>();
  for (const kindFilter of KIND_FILTERS)
    for (const stuckOnly of [false, true])
      for (const riskyOnly of [false, true])
        for (const category of CATEGORIES)
          for (const i of items) {
            if (kindFilter !== "" && i.kind !== kindFilter) continue;
            if (stuckOnly && !i.stuck) continue;
            if (riskyOnly && i.causes === null) continue;
            if (!inCategory(i, category)) continue;
            const causes = riskyOnly ? (i.causes ?? "") : "";
            const key = [kindFilter, stuckOnly, riskyOnly, category, causes].join("|");
            const day = dayOf(i.at);
            const known = firsts.get(key);
            if (!known || day < known.day)
              firsts.set(key, { day, kindFilter, stuckOnly, riskyOnly, category, causes, n: 1 });
          }
  return { items: [...itemRows.values()], shoots: [...firsts.values()] };
}

const itemKey = (r: Omit<ItemCountRow, "n">) => [r.day, r.kind, r.fromVersion, r.stuck, r.held, r.risk].join("|");
const shootKey = (r: Omit<ShootCountRow, "n">) =>
  [r.kindFilter, r.stuckOnly, r.riskyOnly, r.category, r.causes].join("|");

/** Counts summed over shoots (and days, for the shoot counts), rows added and taken away. */
export class ForecastCounts {
  readonly #items = new Map<string, ItemCountRow>();
  readonly #shoots = new Map<string, ShootCountRow>();

  add(rows: { readonly items: readonly ItemCountRow[]; readonly shoots: readonly ShootCountRow[] }, sign = 1): this {
    for (const r of rows.items) {
      const key = itemKey(r);
      this.#items.set(key, { ...r, n: (this.#items.get(key)?.n ?? 0) + sign * r.n });
    }
    for (const r of rows.shoots) {
      const key = shootKey(r);
      this.#shoots.set(key, { ...r, day: 0, n: (this.#shoots.get(key)?.n ?? 0) + sign * r.n });
    }
    return this;
  }

  /** The summary of the counted items, as summarizeForecast(items, narrowing) answers it. */
  summary(narrowing: ForecastNarrowing): ForecastSummary {
    const besidesRisk = [...this.#items.values()].filter(
      (r) => r.n !== 0 && (narrowing.kind === undefined || r.kind === narrowing.kind) && (!narrowing.stuck || r.stuck),
    );
    const selected = besidesRisk.filter((r) => !narrowing.atRisk || r.risk !== "");
    const sum = (rows: readonly ItemCountRow[]) => rows.reduce((total, r) => total + r.n, 0);
    const shoots = (category: ShootCategory, riskyOnly: boolean) =>
      [...this.#shoots.values()]
        .filter(
          (r) =>
            r.kindFilter === (narrowing.kind ?? "") &&
            r.stuckOnly === (narrowing.stuck === true) &&
            r.riskyOnly === riskyOnly &&
            r.category === category,
        )
        .reduce((total, r) => total + r.n, 0);
    const byCause = new Map<UpdateRiskCause, number>();
    for (const r of this.#shoots.values()) {
      if (r.n === 0 || !r.riskyOnly || r.category !== "any") continue;
      if (r.kindFilter !== (narrowing.kind ?? "") || r.stuckOnly !== (narrowing.stuck === true)) continue;
      for (const c of r.causes === "" ? [] : (r.causes.split(",") as UpdateRiskCause[]))
        byCause.set(c, (byCause.get(c) ?? 0) + r.n);
    }
    const days = new Map<number, { kubernetes: number; machineImage: number; stuck: number }>();
    for (const r of selected) {
      const counts = days.get(r.day) ?? { kubernetes: 0, machineImage: 0, stuck: 0 };
      if (r.stuck) counts.stuck += r.n;
      else counts[r.kind] += r.n;
      days.set(r.day, counts);
    }
    const atRisk = narrowing.atRisk === true;
    return {
      updates: sum(selected),
      forced: sum(selected.filter((r) => !r.held)),
      forcedShoots: shoots("forced", atRisk),
      stuck: sum(selected.filter((r) => r.stuck)),
      stuckShoots: shoots("stuck", atRisk),
      held: sum(selected.filter((r) => r.held)),
      heldShoots: shoots("held", atRisk),
      risk: {
        of: sum(besidesRisk),
        updates: sum(besidesRisk.filter((r) => r.risk !== "")),
        shoots: shoots("any", true),
        byCause: Object.fromEntries([...byCause].filter(([, n]) => n !== 0).sort(([a], [b]) => (a < b ? -1 : 1))),
      },
      days: [...days]
        .filter(([, c]) => c.kubernetes + c.machineImage + c.stuck !== 0)
        .sort(([a], [b]) => a - b)
        .map(([day, counts]) => ({ start: new Date(day * DAY_MS).toISOString(), ...counts })),
    };
  }

  /**
   * The markers' groups (Kubernetes items by version moved from and ISO week) with their counts,
   * in the markers' order; `first` is for the caller to fill with the group's first items.
   */
  markerGroups(): { from: string; week: number; updates: number; stuck: number }[] {
    const groups = new Map<string, { from: string; week: number; updates: number; stuck: number }>();
    for (const r of this.#items.values()) {
      if (r.kind !== "kubernetes" || r.n === 0) continue;
      const week = weekOfDay(r.day);
      const key = `${r.fromVersion} ${week}`;
      const group = groups.get(key) ?? { from: r.fromVersion, week, updates: 0, stuck: 0 };
      group.updates += r.n;
      if (r.stuck) group.stuck += r.n;
      groups.set(key, group);
    }
    return [...groups.values()]
      .filter((g) => g.updates !== 0)
      .sort((a, b) => (a.from === b.from ? a.week - b.week : a.from < b.from ? -1 : 1));
  }
}

/** A marker from its group's counts and its first items (in the forecast's order). */
export const markerOf = (
  group: { from: string; updates: number; stuck: number },
  first: readonly ForecastItem[],
): ForecastMarker => ({ from: group.from, at: first[0].at, updates: group.updates, stuck: group.stuck, first });

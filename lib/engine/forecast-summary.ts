// What a forecast says in numbers, for a page that shows a fleet's coming updates without
// receiving every one of them: how many updates a narrowing selects (by kind, stuck ones only, at
// risk only), on how many shoots, forced, stuck and held apart, the at-risk count beside the
// updates the other narrowings select, and the counts per UTC day. At 100,000 shoots a year's
// forecast holds some 200,000 updates; the page shows these numbers and a page of items.
//
// This is the definition; the database answers the same from the stored facts
// (lib/store/forecast-summary-query.ts), and a test holds the two equal.
import type { ForecastItem } from "./forecast.ts";
import { DAY_MS } from "./time-units.ts";
import type { UpdateRiskCause } from "./update-risk.ts";

/** What narrows a forecast's items beyond its scope (shoots) and horizon. */
export interface ForecastNarrowing {
  readonly kind?: ForecastItem["kind"];
  /** Only updates that cannot happen: the cluster will be stuck. */
  readonly stuck?: boolean;
  /** Only updates whose shoot's record speaks against them. */
  readonly atRisk?: boolean;
}

/** One UTC day's selected updates: those that will happen per kind, and the stuck ones. */
export interface ForecastDay {
  /** The day's first moment, UTC midnight (ISO 8601). */
  readonly start: string;
  readonly kubernetes: number;
  readonly machineImage: number;
  readonly stuck: number;
}

export interface ForecastSummary {
  /** Every update the narrowing selects. */
  readonly updates: number;
  /** Of them, the forced ones (not held rollouts), and the shoots they touch. */
  readonly forced: number;
  readonly forcedShoots: number;
  readonly stuck: number;
  readonly stuckShoots: number;
  /** Rollouts the spec asks for, held for the next window by confineSpecUpdateRollout. */
  readonly held: number;
  readonly heldShoots: number;
  /** Among the updates every narrowing but "at risk" selects: how many, and how many are at risk. */
  readonly risk: {
    readonly of: number;
    readonly updates: number;
    readonly shoots: number;
    /** Shoots per cause (a shoot counts once for each of its causes). */
    readonly byCause: Readonly<Partial<Record<UpdateRiskCause, number>>>;
  };
  /** The days with selected updates, in time order (days without any are left out). */
  readonly days: readonly ForecastDay[];
}

type Summarized = Pick<ForecastItem, "namespace" | "name" | "kind" | "stuck" | "held" | "at" | "risk">;

/** Whether `item` passes every narrowing but "at risk". */
export const narrowedBesidesRisk = (item: Pick<ForecastItem, "kind" | "stuck">, n: ForecastNarrowing) =>
  (n.kind === undefined || item.kind === n.kind) && (!n.stuck || item.stuck);

export const narrowed = (item: Pick<ForecastItem, "kind" | "stuck" | "risk">, n: ForecastNarrowing) =>
  narrowedBesidesRisk(item, n) && (!n.atRisk || item.risk !== undefined);

export function summarizeForecast(items: readonly Summarized[], narrowing: ForecastNarrowing): ForecastSummary {
  const shootKey = (i: Summarized) => `${i.namespace}/${i.name}`;
  const forcedShoots = new Set<string>();
  const stuckShoots = new Set<string>();
  const heldShoots = new Set<string>();
  const riskShoots = new Map<string, readonly UpdateRiskCause[]>();
  const days = new Map<number, { kubernetes: number; machineImage: number; stuck: number }>();
  let updates = 0;
  let forced = 0;
  let stuck = 0;
  let held = 0;
  let riskOf = 0;
  let riskUpdates = 0;
  for (const item of items) {
    if (!narrowedBesidesRisk(item, narrowing)) continue;
    riskOf++;
    if (item.risk) {
      riskUpdates++;
      riskShoots.set(shootKey(item), item.risk.causes);
    }
    if (narrowing.atRisk && !item.risk) continue;
    updates++;
    if (item.held) {
      held++;
      heldShoots.add(shootKey(item));
    } else {
      forced++;
      forcedShoots.add(shootKey(item));
    }
    if (item.stuck) {
      stuck++;
      stuckShoots.add(shootKey(item));
    }
    const day = Math.floor(Date.parse(item.at) / DAY_MS) * DAY_MS;
    const counts = days.get(day) ?? { kubernetes: 0, machineImage: 0, stuck: 0 };
    if (item.stuck) counts.stuck++;
    else counts[item.kind]++;
    days.set(day, counts);
  }
  const perCause = new Map<UpdateRiskCause, number>();
  for (const causes of riskShoots.values()) for (const c of causes) perCause.set(c, (perCause.get(c) ?? 0) + 1);
  // In the causes' alphabetical order, as the database lists them.
  const byCause = Object.fromEntries([...perCause].sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    updates,
    forced,
    forcedShoots: forcedShoots.size,
    stuck,
    stuckShoots: stuckShoots.size,
    held,
    heldShoots: heldShoots.size,
    risk: { of: riskOf, updates: riskUpdates, shoots: riskShoots.size, byCause },
    days: [...days]
      .sort(([a], [b]) => a - b)
      .map(([day, counts]) => ({ start: new Date(day).toISOString(), ...counts })),
  };
}

/** How many of a marker's updates it lists. */
export const MARKER_ITEMS = 6;

/**
 * The forced Kubernetes updates off one version in one ISO week (UTC, from Monday): the marks a
 * cloud profile's version timeline draws on the version's row.
 */
export interface ForecastMarker {
  /** The version the updates move from. */
  readonly from: string;
  /** The first update's moment. */
  readonly at: string;
  readonly updates: number;
  readonly stuck: number;
  /** The first MARKER_ITEMS updates, in time order. */
  readonly first: readonly ForecastItem[];
}

/** The day number (days since 1970-01-01) of the Monday of the week of day number `day`. */
// 1 January 1970 was a Thursday: day 0 is weekday 3 counting from Monday.
export const weekOfDay = (day: number): number => day - ((day + 3) % 7);

/** The week's Monday, UTC midnight, of `at`. */
function weekOf(at: number): number {
  return weekOfDay(Math.floor(at / DAY_MS)) * DAY_MS;
}

interface MarkerGroup {
  readonly from: string;
  readonly week: number;
  updates: number;
  stuck: number;
  readonly first: ForecastItem[];
}

/** The markers of the Kubernetes updates among `items` (in time order), by version and week. */
export function kubernetesMarkers(items: readonly ForecastItem[]): ForecastMarker[] {
  const groups = new Map<string, MarkerGroup>();
  for (const item of items) {
    if (item.kind !== "kubernetes") continue;
    const week = weekOf(Date.parse(item.at));
    const key = `${item.from} ${week}`;
    const group = groups.get(key) ?? { from: item.from, week, updates: 0, stuck: 0, first: [] };
    group.updates++;
    if (item.stuck) group.stuck++;
    if (group.first.length < MARKER_ITEMS) group.first.push(item);
    groups.set(key, group);
  }
  // By version (as the database sorts text in the C order) and week.
  return [...groups.values()]
    .sort((a, b) => (a.from === b.from ? a.week - b.week : a.from < b.from ? -1 : 1))
    .map((g) => ({ from: g.from, at: g.first[0].at, updates: g.updates, stuck: g.stuck, first: g.first }));
}

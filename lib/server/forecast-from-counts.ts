// A page of the forecast (its summary, markers and first items) for the whole fleet or one cloud
// profile from the counts the database keeps per day (lib/engine/forecast-counts.ts), so that it
// costs the same at 10,000 and 100,000 shoots. The kept counts hold every stored item of facts
// that do not fail; from them, in one snapshot:
//   - the days from today to the day before the last (partial) day are summed as kept;
//   - the stale shoots' stored items (they count there, but their facts no longer answer) are taken
//     away, and what was computed for them now is added;
//   - the shoots with an item on the last day up to the forecast's end are taken away and added
//     again item by item (a day's counts cannot be cut at a moment), and so are the few shoots
//     whose facts fail only after the end (their items are not counted).
// The first items are a walk along the items' index (the stored ones, stale shoots left out)
// merged with the computed ones without sorting their union.
import type { Db, Tx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import type { ForecastItem } from "../engine/forecast.ts";
import { ForecastCounts, dayOf, markerOf, shootCountRows } from "../engine/forecast-counts.ts";
import { type ForecastMarker, type ForecastNarrowing, MARKER_ITEMS, weekOfDay } from "../engine/forecast-summary.ts";
import { DAY_MS } from "../engine/time-units.ts";
import { logger } from "../observability/logger.ts";
import { forecastMarkersUntil } from "../store/forecast-markers-query.ts";
import {
  type StoredCountedItem,
  firstKubernetesItems,
  keptForecastCounts,
  itemsCountedApart,
} from "../store/forecast-counts.ts";
import {
  type FreshForecastItem,
  type FreshForecastPart,
  firstForecastItems,
  forecastProblemsUntil,
} from "../store/shoot-forecasts.ts";

type ShootKey = { readonly namespace: string; readonly name: string };
const keyOf = (s: ShootKey) => `${s.namespace}/${s.name}`;

export interface CountedRequest {
  readonly now: number;
  readonly to: number;
  readonly cloudProfile?: string;
  readonly narrowing: ForecastNarrowing;
  readonly limit: number;
  readonly markers: boolean;
}

/** Items in the forecast's order: by moment, then namespace, name and the shoot's own order. */
const inOrder = (
  a: { at: number; namespace: string; name: string; seq: number },
  b: { at: number; namespace: string; name: string; seq: number },
) =>
  a.at - b.at ||
  (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0) ||
  (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
  a.seq - b.seq;

/**
 * The page from the kept counts. `stale`: every shoot (of any profile) whose stored facts do not
 * answer from `now`; `fresh`: what was computed now for those in scope.
 */
export async function forecastFromCounts(
  db: Db,
  request: CountedRequest,
  stale: readonly ShootKey[],
  fresh: FreshForecastPart,
) {
  const { now, to, cloudProfile, narrowing } = request;
  // One snapshot: a refresh storing facts meanwhile must not show in some reads and not others.
  return db.$transaction(async (tx) => read(tx), {
    isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead,
    maxWait: 60_000,
    timeout: 120_000,
  });

  async function read(tx: Tx) {
    const today = dayOf(now);
    const lastDay = dayOf(to);
    const staleKeys = new Set(stale.map(keyOf));
    const kept = await keptForecastCounts(tx, cloudProfile, today, lastDay);
    const items = await itemsCountedApart(tx, stale, cloudProfile, lastDay * DAY_MS, to);
    const inScope = (i: StoredCountedItem) => cloudProfile === undefined || i.cloudProfile === cloudProfile;
    const counts = new ForecastCounts().add(kept);
    // Each shoot's items as the kept counts hold them (facts that do not fail), of the days read.
    const keptRowsOf = (shootItems: readonly StoredCountedItem[]) => {
      const rows = shootCountRows(shootItems.filter((i) => i.failsFrom === null && inScope(i)));
      const read = (r: { day: number }) => r.day >= today && r.day < lastDay;
      return { items: rows.items.filter(read), shoots: rows.shoots.filter(read) };
    };
    // A shoot with a counted item on the last day up to the end.
    const inTail = (i: StoredCountedItem) =>
      i.failsFrom === null && inScope(i) && i.at >= lastDay * DAY_MS && i.at <= to;
    for (const shootItems of byShoot(items)) {
      if (staleKeys.has(keyOf(shootItems[0]))) {
        counts.add(keptRowsOf(shootItems), -1);
      } else if (shootItems.some(inTail)) {
        counts.add(keptRowsOf(shootItems), -1);
        counts.add(shootCountRows(shootItems.filter((i) => i.failsFrom === null && inScope(i) && i.at <= to)));
      } else {
        // Facts that fail only after the end: none of its items is counted.
        counts.add(
          shootCountRows(
            shootItems.filter((i) => i.failsFrom !== null && i.failsFrom > to && inScope(i) && i.at <= to),
          ),
        );
      }
    }
    for (const shootItems of byShoot(fresh.items)) counts.add(shootCountRows(shootItems));
    const summary = counts.summary(narrowing);

    // The first items: the stored ones (stale shoots left out) and the computed ones, merged.
    const stored = await firstForecastItems(
      tx,
      cloudProfile === undefined ? {} : { cloudProfile },
      to,
      stale,
      narrowing,
      request.limit,
    );
    const computed = fresh.items.filter((i) => selects(i, narrowing)).sort(inOrder);
    const first = mergeFirst(
      stored.map((r) => ({ ...r, at: r.at.getTime() })),
      computed,
      request.limit,
    );
    const problems = await forecastProblemsUntil(tx, cloudProfile === undefined ? {} : { cloudProfile }, to, {
      shoots: stale,
      items: [],
      problems: fresh.problems,
    });
    // A cloud profile's timeline from the counts and its items' index; the whole fleet's (no page
    // asks for it) from the items, as before.
    const markers = !request.markers
      ? undefined
      : cloudProfile !== undefined
        ? await markersOf(tx, cloudProfile, counts, fresh.items)
        : await forecastMarkersUntil(tx, {}, to, { shoots: stale, items: fresh.items, problems: [] });
    return { items: first, problems, summary, markers };
  }

  async function markersOf(
    tx: Tx,
    cloudProfile: string,
    counts: ForecastCounts,
    freshItems: readonly FreshForecastItem[],
  ) {
    const groups = counts.markerGroups().map((g) => ({
      ...g,
      fromVersion: g.from,
      from: g.week * DAY_MS,
      to: Math.min((g.week + 7) * DAY_MS - 1, to),
    }));
    const rows = await firstKubernetesItems(tx, cloudProfile, groups, to, stale, MARKER_ITEMS);
    const storedOf = new Map<number, Ordered[]>();
    for (const r of rows) {
      const list = storedOf.get(r.group - 1) ?? [];
      list.push({ at: r.at.getTime(), namespace: r.namespace, name: r.name, seq: r.seq, item: r.item });
      storedOf.set(r.group - 1, list);
    }
    const computed = freshItems.filter((i) => i.kind === "kubernetes").sort(inOrder);
    return groups.flatMap((g, index): ForecastMarker[] => {
      const own = computed.filter((i) => i.fromVersion === g.fromVersion && weekOfDay(dayOf(i.at)) === g.week);
      const first = mergeFirst(storedOf.get(index) ?? [], own, MARKER_ITEMS).map(
        (text) => JSON.parse(text) as ForecastItem,
      );
      // Counts with no item behind them would be kept counts gone wrong (never seen): the marker is
      // left out and said, rather than the page failing.
      if (first.length === 0) {
        logger().warn(
          `Forecast counts of ${cloudProfile} hold ${g.updates} updates from ${g.fromVersion} with no item`,
        );
        return [];
      }
      return [markerOf({ from: g.fromVersion, updates: g.updates, stuck: g.stuck }, first)];
    });
  }
}

/** Whether the narrowing selects an item (narrowed, on the stored facets). */
const selects = (i: FreshForecastItem, n: ForecastNarrowing) =>
  (n.kind === undefined || i.kind === n.kind) && (!n.stuck || i.stuck) && (!n.atRisk || i.causes !== null);

/** Consecutive runs of one shoot's items (they come grouped by shoot). */
function* byShoot<T extends ShootKey>(items: readonly T[]): Generator<T[]> {
  let run: T[] = [];
  for (const item of items) {
    if (run.length > 0 && keyOf(run[0]) !== keyOf(item)) {
      yield run;
      run = [];
    }
    run.push(item);
  }
  if (run.length > 0) yield run;
}

type Ordered = { at: number; namespace: string; name: string; seq: number; item: string };

/** The first `limit` of two lists in the forecast's order, each already in it, as JSON texts. */
function mergeFirst(stored: readonly Ordered[], computed: readonly Ordered[], limit: number): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit && (i < stored.length || j < computed.length)) {
    if (j >= computed.length || (i < stored.length && inOrder(stored[i], computed[j]) <= 0)) out.push(stored[i++].item);
    else out.push(computed[j++].item);
  }
  return out;
}

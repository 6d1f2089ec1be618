// GET /api/v1/forecast?days=&namespace=&name=&cloudProfile=&kind=&stuck=&atRisk=&limit=&summary=&markers=:
// every forced update the maintenance controller will make in the coming days, across the fleet
// (or one namespace, one shoot, one cloud profile's shoots); for a caller without a
// landscape-wide role, across the namespaces of their projects. kind, stuck and atRisk narrow the
// items; a page asks for the first `limit` of them (with their `total`) and the `summary`'s counts
// instead of every item (a year at 100,000 shoots holds some 200,000); a cloud profile's page
// also asks for the Kubernetes `markers` of its version timeline.
// A query over the shoots' stored forecast facts (lib/store/shoot-forecasts.ts): only shoots
// whose facts are stale (written since, or expired) are stepped by the engine, and their new
// facts are written back without the answer waiting for it.
import type { ForecastAnswer } from "../api/forecast.ts";
import type { ForecastParams } from "../api/operations/forecast.ts";
import type { Db } from "../db/client.ts";
import { readForecastFacts } from "../engine/forecast-facts.ts";
import {
  type ForecastMarker,
  type ForecastNarrowing,
  type ForecastSummary,
  kubernetesMarkers,
  narrowed,
  summarizeForecast,
} from "../engine/forecast-summary.ts";
import { formatTime } from "../engine/time-format.ts";
import { DAY_MS, MINUTE_MS } from "../engine/time-units.ts";
import type { CloudProfile } from "../gardener/types.ts";
import { logger } from "../observability/logger.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import { forecastMarkersUntil } from "../store/forecast-markers-query.ts";
import { forecastSummaryUntil } from "../store/forecast-summary-query.ts";
import { computedForecastFacts } from "../store/stale-forecast-facts.ts";
import { forecastFromCounts } from "./forecast-from-counts.ts";
import {
  type ForecastFactsWrite,
  type ForecastScope,
  type FreshForecastPart,
  forecastItemPage,
  forecastItemsUntil,
  forecastProblemsUntil,
  anyValidForecast,
  facetsOf,
  shootsWithStaleForecasts,
  storeForecastFacts,
} from "../store/shoot-forecasts.ts";
import { type FleetScope, refuseUnreadable, scopedNamespaces } from "./fleet-scope.ts";
import { sharedComputations } from "./shared-computation.ts";

export type { ForecastParams } from "../api/operations/forecast.ts";

/** How a read works through its data; tests set small values to take every way. */
export interface ForecastTuning {
  /** Up to this many shoots computed at a read are merged into its answer without being read back. */
  readonly mergeAtMost: number;
  /** Stale shoots are read this many at a time: one query of 100,000 outlasts the server's limit. */
  readonly staleReadBatch: number;
  /**
   * An answer of every item reads them this many at a time. Measured at 20,000 shoots under the
   * heap cap: pages of 5,000 peaked at 436 MB, of 1,000 at 317 MB, and answered faster.
   */
  readonly itemPage: number;
  /**
   * Beyond this many stale shoots (a read before the background pass ends, after a seed), each
   * batch's facts are stored before the next is read, so that a web process (its heap is capped)
   * never holds them all.
   */
  readonly storeBeyond: number;
}

const TUNING: ForecastTuning = { mergeAtMost: 2_000, staleReadBatch: 2_000, itemPage: 1_000, storeBeyond: 10_000 };

/** What one answer covers: `days` ahead from `now`, over `scope`, the items `narrowing` selects. */
export interface ForecastRequest {
  readonly days: number;
  readonly scope: ForecastScope;
  readonly narrowing?: ForecastNarrowing;
  /** Only the first `limit` items, and their `total`. */
  readonly limit?: number;
  /** With the summary's counts. */
  readonly summary?: boolean;
  /** With the Kubernetes markers (of every Kubernetes update in scope, whatever the narrowing). */
  readonly markers?: boolean;
}

/**
 * An answer's JSON text with its items a page at a time: a year's every item at 100,000 shoots is
 * some 220 MB of JSON, more than a web process's heap may hold (scripts/start.mjs caps it).
 */
export interface ForecastJson {
  /** The text before the items: `{"days":…,"from":…,"to":…,"items":[`. */
  readonly opening: string;
  /** The items' JSON texts, in the answer's order, a page at a time. */
  readonly itemPages: AsyncIterable<readonly string[]> | Iterable<readonly string[]>;
  /** The text after the items: `],"problems":[…]`, what a page asked for beside them, and `}`. */
  readonly closing: string;
}

/** The answer's text piece by piece, a page of items each (lib/http/json-stream.ts sends them). */
export async function* forecastPieces(json: ForecastJson): AsyncGenerator<string> {
  yield json.opening;
  let first = true;
  for await (const page of json.itemPages) {
    if (page.length === 0) continue;
    yield `${first ? "" : ","}${page.join(",")}`;
    first = false;
  }
  yield json.closing;
}

/** The answer's whole text (answers of a few items, which are cached; tests). */
export async function forecastText(json: ForecastJson): Promise<string> {
  let text = "";
  for await (const piece of forecastPieces(json)) text += piece;
  return text;
}

/**
 * The forecast from `now` as the API answers it (JSON text), equal to the engine's
 * forecastHorizon(shoots, profiles, now, to).until(to) over the shoots in scope. `written`
 * settles once the facts computed for stale shoots are stored (tests wait for it); `tuning` lets
 * tests take every way of answering.
 */
export async function storedForecast(
  db: Db,
  request: ForecastRequest,
  now: number,
  tuning: Partial<ForecastTuning> = {},
): Promise<{ answer: ForecastJson; written: Promise<unknown> }> {
  const { mergeAtMost, staleReadBatch, itemPage, storeBeyond } = { ...TUNING, ...tuning };
  const to = now + request.days * DAY_MS;
  const profiles = await cachedCloudProfiles(db, now);
  // A page of the whole fleet's or one cloud profile's forecast is answered from the kept counts
  // (forecast-from-counts.ts); they need every stale shoot, of any profile: one moved to another
  // profile still counts under its old one until its facts are stored again.
  const fromCounts =
    request.limit !== undefined && request.scope.namespaces === undefined && request.scope.name === undefined;
  const stale = await computeStale(db, fromCounts ? {} : request.scope, now, profiles, staleReadBatch, storeBeyond);
  const computed = stale.computed;
  const inScope = (w: ForecastFactsWrite) =>
    request.scope.cloudProfile === undefined || w.filedUnder === request.scope.cloudProfile;
  const store = () =>
    storeForecastFacts(db, computed).catch((error: unknown) => {
      logger().warn(`Storing forecast facts failed: ${(error as Error).message}`);
      return new Set<string>();
    });
  const narrowing = request.narrowing ?? {};
  let answer: Answer;
  let written: Promise<unknown>;
  if (
    !stale.stored &&
    computed.filter(inScope).length > mergeAtMost &&
    !(await anyValidForecast(db, request.scope, now))
  ) {
    // Every shoot in scope was computed now (the first read after seeding, or once the facts'
    // margin has passed): answered from them as the engine orders them (the shoots come in
    // (namespace, name) order from the database), and stored without the answer waiting.
    answer = computedAnswer(computed.filter(inScope), now, to, request, itemPage);
    written = store();
  } else {
    // Stale shoots among stored ones: a few are merged into the query as computed, and stored
    // without the answer waiting; many are stored first and read back, since sending them all
    // through the query costs more than waiting for the write. So are those of an answer of every
    // item, read a page at a time: merged, each page's query sorts the whole union (at 100,000
    // shoots a year's 220 pages took 35 s); stored, each is a walk along the items' index.
    let merged = computed;
    if (stale.stored) {
      // Stored batch by batch already: `computed` holds only those a write overtook.
      written = Promise.resolve();
    } else if (computed.length > mergeAtMost || (request.limit === undefined && computed.length > 0)) {
      const stored = await store();
      merged = computed.filter(({ facts }) => !stored.has(`${facts.namespace}/${facts.name}`));
      written = Promise.resolve();
    } else {
      written = store();
    }
    const part = freshPart(merged.filter(inScope), now, to);
    if (fromCounts && request.limit !== undefined) {
      const page = await forecastFromCounts(
        db,
        {
          now,
          to,
          ...(request.scope.cloudProfile !== undefined ? { cloudProfile: request.scope.cloudProfile } : {}),
          narrowing,
          limit: request.limit,
          markers: request.markers === true,
        },
        merged.map(({ facts }) => ({ namespace: facts.namespace, name: facts.name })),
        part,
      );
      return respond({ itemPages: [page.items], ...page }, written);
    }
    const counted = request.limit !== undefined || request.summary;
    const [itemPages, problems, summary, markers] = await Promise.all([
      request.limit !== undefined
        ? forecastItemsUntil(db, request.scope, to, part, narrowing, request.limit).then((items) => [items])
        : storedItemPages(db, request.scope, to, part, narrowing, itemPage),
      forecastProblemsUntil(db, request.scope, to, part),
      counted ? forecastSummaryUntil(db, request.scope, to, part, narrowing) : undefined,
      request.markers ? forecastMarkersUntil(db, request.scope, to, part) : undefined,
    ]);
    answer = { itemPages, problems, summary, markers };
  }
  return respond(answer, written);

  // The engine's answer as JSON.stringify writes it: {days, from, to, items, problems}, then what
  // a page asked for beside it.
  function respond(answer: Answer, written: Promise<unknown>) {
    const head = JSON.stringify({ days: request.days, from: formatTime(now), to: formatTime(to) } satisfies Pick<
      ForecastAnswer,
      "days" | "from" | "to"
    >);
    const tail = JSON.stringify({
      ...(request.limit !== undefined ? { total: answer.summary?.updates } : {}),
      ...(request.summary ? { summary: answer.summary } : {}),
      ...(request.markers ? { markers: answer.markers } : {}),
    } satisfies Pick<ForecastAnswer, "total" | "summary" | "markers">);
    return {
      answer: {
        opening: `${head.slice(0, -1)},"items":[`,
        itemPages: answer.itemPages,
        closing: `],"problems":${JSON.stringify(answer.problems)}${tail === "{}" ? "" : `,${tail.slice(1, -1)}`}}`,
      },
      written,
    };
  }
}

interface Answer {
  readonly itemPages: AsyncIterable<readonly string[]> | Iterable<readonly string[]>;
  readonly problems: readonly { namespace: string; name: string; problem: string }[];
  readonly summary?: ForecastSummary;
  readonly markers?: readonly ForecastMarker[];
}

/**
 * Every item a page at a time, the first page read now (so that a failing query still answers as
 * a problem), the others as they are taken. Each page is its own query: facts stored meanwhile
 * (the background refresh) may show in later pages; an item's place (at, namespace, name, seq)
 * is never repeated.
 */
async function storedItemPages(
  db: Db,
  scope: ForecastScope,
  to: number,
  fresh: FreshForecastPart,
  narrowing: ForecastNarrowing,
  size: number,
): Promise<AsyncIterable<readonly string[]>> {
  const first = await forecastItemPage(db, scope, to, fresh, narrowing, size);
  return (async function* () {
    let page = first;
    yield page.items;
    while (page.items.length === size && page.last) {
      page = await forecastItemPage(db, scope, to, fresh, narrowing, size, page.last);
      yield page.items;
    }
  })();
}

/**
 * The facts of every shoot in `scope` whose stored ones are stale, read `batchSize` shoots at a
 * time in (namespace, name) order and computed. Beyond `storeBeyond` of them they are stored as
 * they come (`stored`), and only those a write overtook (not stored) are kept.
 */
async function computeStale(
  db: Db,
  scope: ForecastScope,
  now: number,
  profiles: ReadonlyMap<string, CloudProfile>,
  batchSize: number,
  storeBeyond: number,
): Promise<{ computed: ForecastFactsWrite[]; stored: boolean }> {
  let computed: ForecastFactsWrite[] = [];
  let stored = false;
  let after: { namespace: string; name: string } | undefined;
  for (;;) {
    const batch = await shootsWithStaleForecasts(db, scope, now, { limit: batchSize, ...(after ? { after } : {}) });
    computed.push(...computedForecastFacts(batch, profiles, now));
    if (stored || computed.length > storeBeyond) {
      const kept = await storeForecastFacts(db, computed);
      computed = computed.filter(({ facts }) => !kept.has(`${facts.namespace}/${facts.name}`));
      stored = true;
    }
    const last = batch.at(-1)?.shoot.metadata;
    if (batch.length < batchSize || !last) return { computed, stored };
    after = { namespace: last.namespace ?? "", name: last.name };
  }
}

/** What facts computed now answer, for the query to merge with the stored ones. */
function freshPart(computed: readonly ForecastFactsWrite[], now: number, to: number): FreshForecastPart {
  const read = computed.map(({ facts }) => ({ facts, ...readForecastFacts(facts, now, to) }));
  return {
    shoots: read.map(({ facts }) => ({ namespace: facts.namespace, name: facts.name })),
    items: read.flatMap(({ facts, items }) =>
      items.map((item, seq) => ({
        namespace: facts.namespace,
        name: facts.name,
        seq,
        at: Date.parse(item.at),
        ...facetsOf(item),
        item: JSON.stringify(item),
      })),
    ),
    problems: read.flatMap(({ facts, problem }) =>
      problem === undefined ? [] : [{ namespace: facts.namespace, name: facts.name, problem }],
    ),
  };
}

/**
 * The answer from facts computed now for every shoot in scope, given in the shoots' order: the
 * engine's (items by moment, those of one moment in the shoots' order, then each shoot's own).
 */
function computedAnswer(
  computed: readonly ForecastFactsWrite[],
  now: number,
  to: number,
  request: ForecastRequest,
  itemPage: number,
): Answer {
  const narrowing = request.narrowing ?? {};
  const read = computed.map(({ facts }) => readForecastFacts(facts, now, to));
  // Array.prototype.sort is stable: items of one moment keep the order they were listed in.
  const all = read
    .flatMap((r) => r.items.map((item) => ({ at: Date.parse(item.at), item })))
    .sort((a, b) => a.at - b.at)
    .map((i) => i.item);
  const selected = all.filter((i) => narrowed(i, narrowing));
  const items = request.limit !== undefined ? selected.slice(0, request.limit) : selected;
  // Written a page at a time: the items are in memory, their text need not be all at once.
  function* itemPages() {
    for (let i = 0; i < items.length; i += itemPage)
      yield items.slice(i, i + itemPage).map((item) => JSON.stringify(item));
  }
  const problems = computed.flatMap(({ facts }, index) => {
    const problem = read[index].problem;
    return problem === undefined ? [] : [{ namespace: facts.namespace, name: facts.name, problem }];
  });
  const counted = request.limit !== undefined || request.summary;
  return {
    itemPages: itemPages(),
    problems,
    summary: counted ? summarizeForecast(all, narrowing) : undefined,
    markers: request.markers ? kubernetesMarkers(all) : undefined,
  };
}

// Identical requests within a minute of one garden revision share one answer (and concurrent
// ones one computation): the first read after a big change computes many shoots' facts. Only
// answers of the first `limit` items (a page's) are kept: an answer of every item is sent as it
// is read, and as text it could be hundreds of MB, more than the cache may hold.
const answers = sharedComputations<string>(MINUTE_MS, 64);

/**
 * The forecast for what `scope` may read: one namespace when asked for (refused unless readable),
 * else every shoot the caller may read; narrowed to one shoot name or cloud profile when asked.
 * An answer of the first `limit` items is text; one of every item is read as it is sent.
 */
export async function fleetForecastJson(
  db: Db,
  params: ForecastParams,
  scope: FleetScope,
  gardenRevision: number | undefined,
  now: number,
): Promise<string | ForecastJson> {
  await refuseUnreadable(db, scope, params);
  const namespaces = params.namespace !== undefined ? [params.namespace] : scopedNamespaces(scope);
  const request: ForecastRequest = {
    days: params.days,
    scope: {
      ...(namespaces !== undefined ? { namespaces } : {}),
      ...(params.name !== undefined ? { name: params.name } : {}),
      ...(params.cloudProfile !== undefined ? { cloudProfile: params.cloudProfile } : {}),
    },
    narrowing: {
      ...(params.kind !== undefined ? { kind: params.kind } : {}),
      ...(params.stuck ? { stuck: true } : {}),
      ...(params.atRisk ? { atRisk: true } : {}),
    },
    ...(params.limit !== undefined ? { limit: params.limit } : {}),
    ...(params.summary ? { summary: true } : {}),
    ...(params.markers ? { markers: true } : {}),
  };
  if (request.limit === undefined) return (await storedForecast(db, request, now)).answer;
  // Names are DNS labels, so none of "*", "," and "|" can occur in one.
  const key = [
    params.days,
    namespaces === undefined ? "*" : namespaces.join(","),
    params.name ?? "*",
    params.cloudProfile ?? "*",
    params.kind ?? "*",
    params.stuck,
    params.atRisk,
    params.limit,
    params.summary,
    params.markers,
  ].join("|");
  return answers.get(key, gardenRevision, now, async () =>
    forecastText((await storedForecast(db, request, now)).answer),
  );
}

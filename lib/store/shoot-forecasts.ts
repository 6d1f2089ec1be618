// The forecast's stored facts (lib/engine/forecast-facts.ts): per shoot, the moments between which
// they answer a forecast (forecast_computed_from, forecast_valid_until on shoots; both null until
// computed and again after every write of the shoot, lib/store/shoots.ts), its failures, and its
// items in shoot_forecast_items. A forecast is then a query over the items, in the order the
// engine answers them: by moment, then the shoots' order (namespace, name), then each shoot's own.
import { Prisma } from "../db/generated/client.ts";
import { type Db, type Queryable, rawQuery } from "../db/client.ts";
import type { ForecastItem } from "../engine/forecast.ts";
import type { ForecastFailure, ShootForecastFacts } from "../engine/forecast-facts.ts";
import type { ForecastNarrowing } from "../engine/forecast-summary.ts";
import { failsFrom } from "../engine/forecast-facts.ts";
import type { RunningVersions } from "../engine/running-versions.ts";
import { GARDENER_API_VERSION, type Shoot } from "../gardener/types.ts";

/** Which shoots a forecast covers. */
export interface ForecastScope {
  /** Only these namespaces (empty: none); undefined for every namespace. */
  readonly namespaces?: readonly string[];
  /** Only shoots of this name (with one namespace: one shoot). */
  readonly name?: string;
  readonly cloudProfile?: string;
}

/** A shoot whose facts must be computed, as read: what they are computed from and its version. */
export interface StaleShoot {
  readonly shoot: Shoot;
  readonly running?: RunningVersions;
  readonly resourceVersion: number;
  readonly updatedAt: Date;
  /** The cloud profile the shoot is filed under (shoots.cloud_profile), which a scope selects by. */
  readonly filedUnder: string;
}

/** Facts as computed for a shoot read at a version, with the cloud profile's version they used. */
export interface ForecastFactsWrite {
  readonly facts: ShootForecastFacts;
  readonly resourceVersion: number;
  readonly updatedAt: Date;
  /** The cloud profile's resource_version the facts were computed with (0: it was missing). */
  readonly profileVersion: number;
  /** The cloud profile the shoot is filed under (shoots.cloud_profile), which a scope selects by. */
  readonly filedUnder: string;
}

/** Stands for a failure that every forecast meets (from -Infinity) in forecast_fails_from. */
const ALWAYS = new Date("0001-01-01T00:00:00.000Z");

function scopeConditions(scope: ForecastScope, table: string): Prisma.Sql[] {
  const column = (name: string) => Prisma.raw(`${table}.${name}`);
  return [
    ...(scope.namespaces !== undefined
      ? [Prisma.sql`${column("namespace")} = ANY(${[...scope.namespaces]}::text[])`]
      : []),
    ...(scope.name !== undefined ? [Prisma.sql`${column("name")} = ${scope.name}`] : []),
    ...(scope.cloudProfile !== undefined ? [Prisma.sql`${column("cloud_profile")} = ${scope.cloudProfile}`] : []),
  ];
}

const and = (conditions: Prisma.Sql[]) =>
  conditions.length === 0 ? Prisma.empty : Prisma.sql`AND ${Prisma.join(conditions, " AND ")}`;

interface StaleRow {
  namespace: string;
  name: string;
  uid: string;
  resource_version: number;
  updated_at: Date;
  cloud_profile: string;
  metadata: Shoot["metadata"];
  spec: Shoot["spec"];
  status: Shoot["status"];
  running_versions: RunningVersions | null;
}

/** A slice of the stale shoots, for work done in batches (the background refresh). */
export interface StaleBatch {
  /** At most this many, the first in (namespace, name) order ... */
  readonly limit: number;
  /** ... after this shoot. */
  readonly after?: { readonly namespace: string; readonly name: string };
  /**
   * Also facts still valid but expiring before `until`, among those valid for at least `fullMs`
   * from when they were computed (the ones only the margin ends, which a new computation extends).
   */
  readonly expiring?: { readonly until: number; readonly fullMs: number };
}

/**
 * The keys of the stale shoots in `scope` (after `batch.after`, when given), one branch per
 * condition so that each is read through its own index (as one OR, the planner walked every shoot
 * in key order: 64 ms at 20,000 shoots when none was stale). In a batch each branch answers at
 * most `batch.limit` keys in key order from where the last batch stopped, so a batch of the
 * background pass reads its own keys rather than the whole stale set, which it sorted (230 ms per
 * batch at 100,000 after a seed): the shoots without facts by a walk of the partial index that
 * holds exactly them (20261127203500: none when the facts are kept, every shoot after a seed), the
 * moment's conditions through the moment's index and then ordered (OFFSET 0 keeps the planner from
 * walking the primary key in order instead, filtering every shoot for a LIMIT that few or none
 * fill: 118 ms a forecast read at 100,000 shoots).
 */
function staleKeys(scope: ForecastScope, at: Date, batch: StaleBatch | undefined): Prisma.Sql {
  const missing = Prisma.sql`b.forecast_valid_until IS NULL`;
  const momentary = [
    Prisma.sql`b.forecast_valid_until < ${at}`,
    Prisma.sql`b.forecast_computed_from > ${at}`,
    ...(batch?.expiring
      ? [
          Prisma.sql`b.forecast_valid_until < ${new Date(batch.expiring.until)}
            AND b.forecast_valid_until - b.forecast_computed_from >= ${batch.expiring.fullMs} * interval '1 millisecond'`,
        ]
      : []),
  ];
  const inScope = and(scopeConditions(scope, "b"));
  if (!batch)
    return Prisma.join(
      [missing, ...momentary].map(
        (condition) => Prisma.sql`SELECT b.namespace, b.name FROM shoots b WHERE ${condition} ${inScope}`,
      ),
      " UNION ALL ",
    );
  const after = batch.after
    ? Prisma.sql`AND (b.namespace, b.name) > (${batch.after.namespace}, ${batch.after.name})`
    : Prisma.empty;
  return Prisma.join(
    [
      Prisma.sql`(SELECT b.namespace, b.name FROM shoots b WHERE ${missing} ${inScope} ${after}
        ORDER BY b.namespace, b.name LIMIT ${batch.limit})`,
      ...momentary.map(
        (condition) => Prisma.sql`(SELECT m.namespace, m.name FROM (SELECT b.namespace, b.name FROM shoots b
          WHERE ${condition} ${inScope} ${after} OFFSET 0) AS m ORDER BY m.namespace, m.name LIMIT ${batch.limit})`,
      ),
    ],
    " UNION ALL ",
  );
}

/**
 * The shoots in `scope` whose facts do not answer a forecast from `now`: never computed, written
 * since, or expired; all of them, or a `batch`.
 */
export async function shootsWithStaleForecasts(
  db: Queryable,
  scope: ForecastScope,
  now: number,
  batch?: StaleBatch,
): Promise<StaleShoot[]> {
  const rows = await rawQuery<StaleRow>(
    db,
    Prisma.sql`
    SELECT s.namespace, s.name, s.uid::text AS uid, s.resource_version, s.updated_at, s.cloud_profile, s.metadata, s.spec,
      s.status, s.running_versions
    FROM shoots s
    WHERE (s.namespace, s.name) IN (${staleKeys(scope, new Date(now), batch)})
    ORDER BY s.namespace, s.name ${batch ? Prisma.sql`LIMIT ${batch.limit}` : Prisma.empty}`,
  );
  return rows.map((r) => ({
    resourceVersion: r.resource_version,
    updatedAt: r.updated_at,
    filedUnder: r.cloud_profile,
    ...(r.running_versions ? { running: r.running_versions } : {}),
    shoot: {
      apiVersion: GARDENER_API_VERSION,
      kind: "Shoot",
      metadata: {
        ...r.metadata,
        name: r.name,
        namespace: r.namespace,
        uid: r.uid,
        resourceVersion: String(r.resource_version),
      },
      spec: r.spec,
      status: r.status ?? {},
    },
  }));
}

/** Whether any shoot in `scope` has facts that answer a forecast from `now`. */
export async function anyValidForecast(db: Queryable, scope: ForecastScope, now: number): Promise<boolean> {
  const at = new Date(now);
  const rows = await rawQuery<{ any: boolean }>(
    db,
    Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM shoots s
      WHERE s.forecast_valid_until >= ${at} AND s.forecast_computed_from <= ${at} ${and(scopeConditions(scope, "s"))}) AS any`,
  );
  return rows[0].any;
}

/** JSON keeps no -Infinity: a failure every forecast meets is stored with `from: null`. */
type StoredFailure = { from: number | null; message: string };

const storedFailures = (failures: readonly ForecastFailure[]): StoredFailure[] =>
  failures.map((f) => ({ from: Number.isFinite(f.from) ? f.from : null, message: f.message }));

/** The problem a forecast to `to` reports for a shoot with these stored failures, if any. */
export function storedProblem(failures: readonly StoredFailure[], to: number): string | undefined {
  return failures.find((f) => (f.from ?? -Infinity) <= to)?.message;
}

const failsFromColumn = (facts: ShootForecastFacts): Date | null => {
  const from = failsFrom(facts);
  return from === undefined ? null : Number.isFinite(from) ? new Date(from) : ALWAYS;
};

// Writers of facts take this lock, so two readers writing back the same shoots cannot interleave
// their deletes and inserts of its items.
const WRITE_LOCK_KEY = 0x466f7265; // "Fore"
const WRITE_BATCH = 1_000;
/** Set (for a transaction) where every update of shoots writes only the forecast_* columns. */
export const ONLY_FORECAST_FACTS = "almanac.writes_only_forecast_facts";
// A batch waits for a connection while the pool serves the reads (Prisma's default gives up after 2 s).
const WRITE_TIMING = { maxWait: 60_000, timeout: 120_000 };

/**
 * Stores computed facts, each only if its shoot is still at the version (and its cloud profile at
 * the one) they were computed from: a shoot written meanwhile keeps "stale". Answers the keys
 * ("namespace/name") of those stored.
 */
export async function storeForecastFacts(db: Db, writes: readonly ForecastFactsWrite[]): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let i = 0; i < writes.length; i += WRITE_BATCH) {
    const batch = writes.slice(i, i + WRITE_BATCH);
    const col = <T>(pick: (w: ForecastFactsWrite) => T) => batch.map(pick);
    const kept = await db.$transaction(async (tx) => {
      // This transaction's updates of shoots write only the facts, which no kept count counts: the
      // tile and usage triggers skip them (migration 20261127190000) rather than find so.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY}),
        set_config(${ONLY_FORECAST_FACTS}, 'on', true)`;
      const kept = await tx.$queryRaw<{ namespace: string; name: string }[]>(Prisma.sql`
        UPDATE shoots AS s SET forecast_computed_from = u.computed_from, forecast_valid_until = u.valid_until,
          forecast_fails_from = u.fails_from, forecast_failures = u.failures
        FROM unnest(
          ${col((w) => w.facts.namespace)}::text[], ${col((w) => w.facts.name)}::text[],
          ${col((w) => w.resourceVersion)}::int[], ${col((w) => w.updatedAt)}::timestamptz[], ${col((w) => w.profileVersion)}::int[],
          ${col((w) => new Date(w.facts.computedFrom))}::timestamptz[], ${col((w) => new Date(w.facts.validUntil))}::timestamptz[],
          ${col((w) => failsFromColumn(w.facts))}::timestamptz[], ${col((w) => JSON.stringify(storedFailures(w.facts.failures)))}::jsonb[]
        ) AS u(namespace, name, resource_version, updated_at, profile_version, computed_from, valid_until, fails_from, failures)
        WHERE s.namespace = u.namespace AND s.name = u.name AND s.resource_version = u.resource_version
          AND s.updated_at = u.updated_at
          -- The batch's names again, as a condition the planner reads through (name, namespace)'s
          -- index: joined with the unnest alone it hashed every shoot, with its profile's version
          -- (200 ms per batch at 20,000 shoots, a second at 100,000).
          AND s.name = ANY(${[...new Set(col((w) => w.facts.name))]}::text[])
          AND coalesce(CASE WHEN s.namespaced_cloud_profile IS NULL
            THEN (SELECT c.resource_version FROM cloud_profiles c WHERE c.name = s.cloud_profile)
            -- A NamespacedCloudProfile counts only once Gardener resolved it (profile-reference.ts).
            ELSE (SELECT n.resource_version FROM namespaced_cloud_profiles n
              WHERE n.namespace = s.namespace AND n.name = s.namespaced_cloud_profile
                AND jsonb_typeof(n.document #> '{status,cloudProfileSpec,kubernetes}') = 'object') END, 0) = u.profile_version
        RETURNING s.namespace, s.name`);
      if (kept.length === 0) return kept;
      const keys = new Set(kept.map((k) => `${k.namespace}/${k.name}`));
      const facts = batch.map((w) => w.facts).filter((f) => keys.has(`${f.namespace}/${f.name}`));
      await tx.$executeRaw(Prisma.sql`
        DELETE FROM shoot_forecast_items i
        USING unnest(${facts.map((f) => f.namespace)}::text[], ${facts.map((f) => f.name)}::text[]) AS k(namespace, name)
        WHERE i.namespace = k.namespace AND i.name = k.name`);
      const items = facts.flatMap((f) => {
        const fails = failsFromColumn(f);
        return f.items.map((i, seq) => ({ f, seq, at: new Date(i.at), fails, facets: facetsOf(i.item), item: i.item }));
      });
      if (items.length > 0)
        await tx.$executeRaw(Prisma.sql`
          INSERT INTO shoot_forecast_items
            (namespace, name, seq, at, cloud_profile, fails_from, kind, from_version, stuck, held, risk_causes, item)
          SELECT namespace, name, seq, at, cloud_profile, fails_from, kind, from_version, stuck, held,
            string_to_array(causes, ','), item
          FROM unnest(
            ${items.map((i) => i.f.namespace)}::text[], ${items.map((i) => i.f.name)}::text[], ${items.map((i) => i.seq)}::int[],
            ${items.map((i) => i.at)}::timestamptz[], ${items.map((i) => i.f.cloudProfile)}::text[],
            ${items.map((i) => i.fails)}::timestamptz[], ${items.map((i) => i.facets.kind)}::text[],
            ${items.map((i) => i.facets.fromVersion)}::text[],
            ${items.map((i) => i.facets.stuck)}::boolean[], ${items.map((i) => i.facets.held)}::boolean[],
            ${items.map((i) => i.facets.causes)}::text[], ${items.map((i) => JSON.stringify(i.item))}::text[]
          ) AS u(namespace, name, seq, at, cloud_profile, fails_from, kind, from_version, stuck, held, causes, item)`);
      return kept;
    }, WRITE_TIMING);
    for (const k of kept) stored.add(`${k.namespace}/${k.name}`);
  }
  return stored;
}

/** What an item is counted and narrowed by, stored beside it (shoot_forecast_items). */
export interface ForecastItemFacets {
  readonly kind: ForecastItem["kind"];
  readonly fromVersion: string;
  readonly stuck: boolean;
  readonly held: boolean;
  /** The risk's causes joined by "," (they are identifiers); null when the item is not at risk. */
  readonly causes: string | null;
}

export const facetsOf = (item: ForecastItem): ForecastItemFacets => ({
  kind: item.kind,
  fromVersion: item.from,
  stuck: item.stuck,
  held: item.held === true,
  causes: item.risk ? item.risk.causes.join(",") : null,
});

/** An item computed at read time, with what the query orders, counts and narrows it by. */
export interface FreshForecastItem extends ForecastItemFacets {
  readonly namespace: string;
  readonly name: string;
  readonly seq: number;
  readonly at: number;
  /** The item as the API answers it (JSON text). */
  readonly item: string;
}

/** Items and problems computed at read time for shoots whose stored facts were stale. */
export interface FreshForecastPart {
  /** The shoots they replace: their stored items and problems are left out. */
  readonly shoots: readonly { readonly namespace: string; readonly name: string }[];
  readonly items: readonly FreshForecastItem[];
  readonly problems: readonly { namespace: string; name: string; problem: string }[];
}

/**
 * The items of a forecast to `to` as one relation x(at, namespace, name, seq, kind, from_version,
 * stuck, held, risk_causes, item): the stored ones of shoots in `scope` (not in `fresh`) whose facts do not
 * fail by then, and `fresh`'s.
 */
export function forecastItemSource(scope: ForecastScope, to: number, fresh: FreshForecastPart): Prisma.Sql {
  const end = new Date(to);
  const stored = Prisma.sql`
    SELECT i.at, i.namespace, i.name, i.seq, i.kind, i.from_version, i.stuck, i.held, i.risk_causes, i.item
    FROM shoot_forecast_items i
    WHERE i.at <= ${end} AND (i.fails_from IS NULL OR i.fails_from > ${end}) ${and(scopeConditions(scope, "i"))}
      ${excluding(fresh.shoots, "i")}`;
  if (fresh.items.length === 0) return Prisma.sql`(${stored}) AS x`;
  const items = fresh.items;
  return Prisma.sql`(
    ${stored}
    UNION ALL
    SELECT at, namespace, name, seq, kind, from_version, stuck, held, string_to_array(causes, ','), item FROM unnest(
      ${items.map((i) => new Date(i.at))}::timestamptz[], ${items.map((i) => i.namespace)}::text[],
      ${items.map((i) => i.name)}::text[], ${items.map((i) => i.seq)}::int[], ${items.map((i) => i.kind)}::text[],
      ${items.map((i) => i.fromVersion)}::text[],
      ${items.map((i) => i.stuck)}::boolean[], ${items.map((i) => i.held)}::boolean[],
      ${items.map((i) => i.causes)}::text[], ${items.map((i) => i.item)}::text[]
    ) AS f(at, namespace, name, seq, kind, from_version, stuck, held, causes, item)
  ) AS x`;
}

/** The SQL conditions on x (forecastItemSource) of every narrowing but "at risk". */
export function narrowingBesidesRisk(narrowing: ForecastNarrowing): Prisma.Sql {
  return and([
    ...(narrowing.kind !== undefined ? [Prisma.sql`x.kind = ${narrowing.kind}`] : []),
    ...(narrowing.stuck ? [Prisma.sql`x.stuck`] : []),
  ]);
}

const narrowingConditions = (narrowing: ForecastNarrowing): Prisma.Sql =>
  Prisma.sql`${narrowingBesidesRisk(narrowing)} ${narrowing.atRisk ? Prisma.sql`AND x.risk_causes IS NOT NULL` : Prisma.empty}`;

/**
 * The forecast's items up to `to` as JSON texts, in the engine's order: the stored ones of
 * shoots in `scope` (not in `fresh`) whose facts do not fail by then, merged with `fresh`'s;
 * those `narrowing` selects, the first `limit` of them when given.
 */
export async function forecastItemsUntil(
  db: Queryable,
  scope: ForecastScope,
  to: number,
  fresh: FreshForecastPart,
  narrowing: ForecastNarrowing = {},
  limit?: number,
): Promise<string[]> {
  const rows = await rawQuery<{ item: string }>(
    db,
    Prisma.sql`
    SELECT x.item FROM ${forecastItemSource(scope, to, fresh)}
    WHERE true ${narrowingConditions(narrowing)}
    ORDER BY x.at, x.namespace, x.name, x.seq
    ${limit !== undefined ? Prisma.sql`LIMIT ${limit}` : Prisma.empty}`,
  );
  return rows.map((r) => r.item);
}

/**
 * The first `limit` stored items up to `to` of shoots in `scope` but not in `excluded`, whose facts
 * do not fail by then, that `narrowing` selects, in the forecast's order, with where each stands
 * (for merging with items computed now): a walk along the items' index.
 */
export async function firstForecastItems(
  db: Queryable,
  scope: ForecastScope,
  to: number,
  excluded: FreshForecastPart["shoots"],
  narrowing: ForecastNarrowing,
  limit: number,
): Promise<(ForecastItemKey & { item: string })[]> {
  return rawQuery<ForecastItemKey & { item: string }>(
    db,
    Prisma.sql`
    SELECT x.at, x.namespace, x.name, x.seq, x.item FROM ${forecastItemSource(scope, to, { shoots: excluded, items: [], problems: [] })}
    WHERE true ${narrowingConditions(narrowing)}
    ORDER BY x.at, x.namespace, x.name, x.seq
    LIMIT ${limit}`,
  );
}

/** Where an item stands in the forecast's order (x.at, x.namespace, x.name, x.seq): a page's last. */
export interface ForecastItemKey {
  readonly at: Date;
  readonly namespace: string;
  readonly name: string;
  readonly seq: number;
}

/**
 * One page of forecastItemsUntil's items (no `limit`): the first `size` after `after` (from the
 * first when not given), with the key of the last to ask for the next page after it. Pages are
 * read one query each, so an answer of every item need not be held in memory at once.
 */
export async function forecastItemPage(
  db: Queryable,
  scope: ForecastScope,
  to: number,
  fresh: FreshForecastPart,
  narrowing: ForecastNarrowing,
  size: number,
  after?: ForecastItemKey,
): Promise<{ items: string[]; last?: ForecastItemKey }> {
  const rows = await rawQuery<ForecastItemKey & { item: string }>(
    db,
    Prisma.sql`
    SELECT x.at, x.namespace, x.name, x.seq, x.item FROM ${forecastItemSource(scope, to, fresh)}
    WHERE true ${narrowingConditions(narrowing)}
      ${after ? Prisma.sql`AND (x.at, x.namespace, x.name, x.seq) > (${after.at}, ${after.namespace}, ${after.name}, ${after.seq})` : Prisma.empty}
    ORDER BY x.at, x.namespace, x.name, x.seq
    LIMIT ${size}`,
  );
  const last = rows.at(-1);
  return {
    items: rows.map((r) => r.item),
    ...(last ? { last: { at: last.at, namespace: last.namespace, name: last.name, seq: last.seq } } : {}),
  };
}

/** The forecast's problems up to `to`, in the shoots' order: stored ones merged with `fresh`'s. */
export async function forecastProblemsUntil(
  db: Queryable,
  scope: ForecastScope,
  to: number,
  fresh: FreshForecastPart,
): Promise<{ namespace: string; name: string; problem: string }[]> {
  const rows = await rawQuery<{
    namespace: string;
    name: string;
    failures: StoredFailure[] | null;
    problem: string | null;
  }>(
    db,
    Prisma.sql`
    SELECT x.namespace, x.name, x.failures, x.problem FROM (
      SELECT s.namespace, s.name, s.forecast_failures, NULL::text FROM shoots s
      WHERE s.forecast_fails_from <= ${new Date(to)} AND s.forecast_valid_until IS NOT NULL ${and(scopeConditions(scope, "s"))}
        ${excluding(fresh.shoots, "s")}
      UNION ALL
      SELECT namespace, name, NULL::jsonb, problem FROM unnest(${fresh.problems.map((p) => p.namespace)}::text[],
        ${fresh.problems.map((p) => p.name)}::text[], ${fresh.problems.map((p) => p.problem)}::text[]) AS p(namespace, name, problem)
    ) AS x(namespace, name, failures, problem)
    ORDER BY x.namespace, x.name`,
  );
  return rows.flatMap((r) => {
    const problem = r.problem ?? storedProblem(r.failures ?? [], to);
    return problem === undefined ? [] : [{ namespace: r.namespace, name: r.name, problem }];
  });
}

function excluding(shoots: FreshForecastPart["shoots"], table: string): Prisma.Sql {
  if (shoots.length === 0) return Prisma.empty;
  return Prisma.sql`AND NOT EXISTS (
    SELECT 1 FROM unnest(${shoots.map((s) => s.namespace)}::text[], ${shoots.map((s) => s.name)}::text[]) AS k(namespace, name)
    WHERE k.namespace = ${Prisma.raw(table)}.namespace AND k.name = ${Prisma.raw(table)}.name)`;
}

// The fleet list's queries: one page of shoots (keyset pagination on an index per sort), the
// count, and writing back list rows rebuilt because their classifications had changed.
import type { ShootSort } from "../api/shoot-sorts.ts";
import { Prisma } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";
import type { LabelRequirement } from "../engine/label-selector-string.ts";
import { DEFAULT_SHOOT_PURPOSE } from "../engine/shoot-purpose.ts";
import { SHOOT_STATUS_LABELS, type ShootStatusLabel } from "../engine/status-label.ts";
import { DAY_SECONDS } from "../engine/time-units.ts";
import { NEVER, NOT_MAINTAINED } from "./shoot-columns.ts";
import { shootsInSql } from "./shoot-counts.ts";
import { fleetCountsOf, tileCountSql, tileCountsIn } from "./shoot-tile-counts.ts";
import type { ShootSummary } from "./shoot-summary.ts";

export interface ShootFilter {
  readonly namespace?: string;
  /** Only these namespaces (a caller's readable ones; empty selects nothing). */
  readonly namespaces?: readonly string[];
  readonly project?: string;
  readonly statusLabels?: readonly string[];
  /** Any of these purposes (spec.purpose; unset is Gardener's default, evaluation). */
  readonly purposes?: readonly string[];
  /** Every requirement of a label selector, on metadata.labels (Kubernetes' semantics). */
  readonly labels?: readonly LabelRequirement[];
  readonly cloudProfile?: string;
  readonly seed?: string;
  /** Lowercase words; each must occur in the shoot's search text. */
  readonly words?: readonly string[];
  /** Earliest expiry at or before this moment (already expired versions included). */
  readonly expiringBefore?: Date;
  /**
   * Control-plane (profile, version) pairs that have the wanted classification now; a pair with
   * `namespace` is of the NamespacedCloudProfile `cloudProfile` there.
   */
  readonly kubernetesVersionsIn?: readonly { cloudProfile: string; version: string; namespace?: string }[];
}

export interface ShootPageRequest {
  readonly filter: ShootFilter;
  readonly sort: ShootSort;
  readonly descending: boolean;
  readonly limit: number;
  /** The moment the listing is for: stored rows valid until before it come back as summaries. */
  readonly now: Date;
  /**
   * For sort=nextMaintenance: the UTC second of the day the order starts from (the first page's
   * now, carried by the cursor, so that pages fit together).
   */
  readonly origin: number;
  /** The sort key and identity of the last row of the previous page. */
  readonly after?: readonly [string, string, string];
  /**
   * Select the matching rows first and sort only them, instead of walking the sort's index until
   * a page of matches is found: right for a filter that matches few rows, which the walk may
   * have to look for through most of the table when they lie together in the sort order (a
   * search for "stream-ingest", sorted by name, walked 86,000 of 100,000 rows).
   */
  readonly fewMatches?: boolean;
}

export interface ShootListRow {
  readonly namespace: string;
  readonly name: string;
  readonly resourceVersion: number;
  /** The stored row JSON while still true at the moment asked for; else null and summary is set. */
  readonly listing: string | null;
  readonly summary: ShootSummary | null;
  readonly earliestExpiry: Date | null;
  readonly earliestExpiryVersion: string | null;
  /** null for a shoot that is not maintained. */
  readonly maintenanceSecondOfDay: number | null;
  /** This row's sort key, as text, for the next page's cursor. */
  readonly sortKey: string;
}

/** How a sort key is compared: SQL type of the cursor's first element. */
export const SORT_KEY_TYPES: Record<ShootSort, "text" | "smallint" | "int" | "timestamptz"> = {
  name: "text",
  namespace: "text",
  kubernetesVersion: "text",
  status: "smallint",
  expiry: "timestamptz",
  nextMaintenance: "int",
  created: "timestamptz",
};

// Each sort is a column with an index on (column, namespace, name), so a page is a walk along an
// index whatever the filter, and the cursor is a row comparison on the same three. The next
// maintenance is a daily time, so it sorts by seconds from the origin (no index: it moves).
function sortKey(sort: ShootSort, origin: number): Prisma.Sql {
  switch (sort) {
    case "name":
      return Prisma.sql`name`;
    case "namespace":
      return Prisma.sql`namespace`;
    case "kubernetesVersion":
      return Prisma.sql`kubernetes_version_key`;
    // Worst first when ascending: the order operators triage in.
    case "status":
      return Prisma.sql`status_rank`;
    // Shoots whose versions never expire carry NEVER, so they come last.
    case "expiry":
      return Prisma.sql`earliest_expiry`;
    case "nextMaintenance":
      return Prisma.sql`(CASE WHEN maintenance_second_of_day >= ${NOT_MAINTAINED}::int THEN ${NOT_MAINTAINED}::int
        ELSE (maintenance_second_of_day - ${origin}::int + ${DAY_SECONDS}::int) % ${DAY_SECONDS}::int END)`;
    case "created":
      return Prisma.sql`created_at`;
  }
}

interface ConditionOptions {
  /** That a shoot names no NamespacedCloudProfile (shoot_filter_counts keeps "" for it, shoots NULL). */
  readonly ofNoNamespacedProfile?: Prisma.Sql;
  /** A shoot's purpose (shoot_filter_counts has it as a column; shoots in spec). */
  readonly purpose?: Prisma.Sql;
  /**
   * How words select: "row" tests each row's own search_text (a walk along a sort's index, which
   * meets common matches soon; or shoot_search_texts itself); "indexed" takes the matches that
   * shoot_search_texts' trigram index finds (every match of the filter, read where they are).
   */
  readonly words?: "row" | "indexed";
}

/** The filter as conditions on the shoots' columns (or a table that has those it uses). */
function whereConditions(filter: ShootFilter, options: ConditionOptions = {}): Prisma.Sql[] {
  const ofNoNamespacedProfile = options.ofNoNamespacedProfile ?? Prisma.sql`namespaced_cloud_profile IS NULL`;
  const parts: Prisma.Sql[] = [];
  if (filter.namespace !== undefined) parts.push(Prisma.sql`namespace = ${filter.namespace}`);
  if (filter.namespaces !== undefined) parts.push(Prisma.sql`namespace = ANY(${[...filter.namespaces]}::text[])`);
  if (filter.project !== undefined) parts.push(Prisma.sql`project = ${filter.project}`);
  // One label as an equality, which the planner walks (status_label, name, namespace)'s index by.
  if (filter.statusLabels?.length === 1) parts.push(Prisma.sql`status_label = ${filter.statusLabels[0]}`);
  else if (filter.statusLabels?.length) parts.push(Prisma.sql`status_label = ANY(${[...filter.statusLabels]}::text[])`);
  if (filter.purposes?.length) parts.push(purposeCondition(filter.purposes, options.purpose ?? PURPOSE_SQL));
  for (const requirement of filter.labels ?? []) parts.push(labelCondition(requirement));
  if (filter.cloudProfile !== undefined) parts.push(Prisma.sql`cloud_profile = ${filter.cloudProfile}`);
  if (filter.seed !== undefined) parts.push(Prisma.sql`seed = ${filter.seed}`);
  const likes = (filter.words ?? []).map((word) => {
    const escaped = word.replace(/[\\%_]/g, (c) => `\\${c}`);
    return Prisma.sql`search_text LIKE ${`%${escaped}%`}`;
  });
  if (likes.length > 0)
    parts.push(
      options.words === "indexed"
        ? Prisma.sql`(namespace, name) IN (SELECT namespace, name FROM shoot_search_texts WHERE ${Prisma.join(likes, " AND ")})`
        : Prisma.join(likes, " AND "),
    );
  if (filter.expiringBefore !== undefined) parts.push(Prisma.sql`earliest_expiry <= ${filter.expiringBefore}`);
  if (filter.kubernetesVersionsIn !== undefined) {
    const pairs = filter.kubernetesVersionsIn.filter((p) => p.namespace === undefined);
    const namespaced = filter.kubernetesVersionsIn.filter((p) => p.namespace !== undefined);
    // A shoot of a NamespacedCloudProfile is classified by that profile, not by its parent.
    const ofProfiles = Prisma.sql`(${ofNoNamespacedProfile} AND (cloud_profile, kubernetes_version) IN (SELECT * FROM unnest(${pairs.map((p) => p.cloudProfile)}::text[], ${pairs.map((p) => p.version)}::text[])))`;
    parts.push(
      namespaced.length === 0
        ? ofProfiles
        : Prisma.sql`(${ofProfiles} OR (namespace, namespaced_cloud_profile, kubernetes_version) IN (SELECT * FROM unnest(${namespaced.map((p) => p.namespace!)}::text[], ${namespaced.map((p) => p.cloudProfile)}::text[], ${namespaced.map((p) => p.version)}::text[])))`,
    );
  }
  return parts;
}

/**
 * The purpose as the expression shoots_purpose_idx has (migration 20261128021000_shoot_purpose_labels_indexes),
 * written exactly so, or the planner does not use the index.
 */
export const PURPOSE_SQL = Prisma.sql`coalesce(spec->>'purpose', ${Prisma.raw(`'${DEFAULT_SHOOT_PURPOSE}'`)})`;

/** One purpose as an equality, which walks the (purpose, name, namespace) index in name order. */
function purposeCondition(purposes: readonly string[], purpose: Prisma.Sql): Prisma.Sql {
  return purposes.length === 1
    ? Prisma.sql`${purpose} = ${purposes[0]}`
    : Prisma.sql`${purpose} = ANY(${[...purposes]}::text[])`;
}

/**
 * A label requirement on metadata->'labels', in the operators shoots_labels_idx (GIN, jsonb_ops)
 * answers: containment (`@>`, one object per value) and key existence (`?`). NotIn and
 * DoesNotExist are their negations, true for a shoot without labels (Kubernetes: `tier!=web`
 * selects a shoot that has no tier).
 */
function labelCondition(r: LabelRequirement): Prisma.Sql {
  const labels = Prisma.sql`(metadata->'labels')`;
  const pairs = r.values.map((v) => JSON.stringify({ [r.key]: v }));
  switch (r.operator) {
    case "In":
      return pairs.length === 1
        ? Prisma.sql`${labels} @> ${pairs[0]}::jsonb`
        : Prisma.sql`${labels} @> ANY(${pairs}::jsonb[])`;
    case "NotIn":
      return Prisma.sql`NOT coalesce(${labels} @> ANY(${pairs}::jsonb[]), false)`;
    case "Exists":
      return Prisma.sql`${labels} ? ${r.key}`;
    case "DoesNotExist":
      return Prisma.sql`NOT coalesce(${labels} ? ${r.key}, false)`;
  }
}

function where(conditions: Prisma.Sql[]): Prisma.Sql {
  return conditions.length === 0 ? Prisma.empty : Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}`;
}

interface ListRow {
  namespace: string;
  name: string;
  resource_version: number;
  listing: string | null;
  summary: ShootSummary | null;
  earliest_expiry: Date;
  earliest_expiry_version: string | null;
  maintenance_second_of_day: number;
  sort_key: string;
}

/** One page (keyset pagination: stable under concurrent writes, no OFFSET scans). */
export async function listShootPage(db: Queryable, request: ShootPageRequest): Promise<ShootListRow[]> {
  return (await rawQuery<ListRow>(db, pageSql(request))).map(listRow);
}

/**
 * One page and how many shoots the filter selects, in one statement (one round trip) when the
 * kept counts say how many (the count is then a sum over a few rows beside the page); else the
 * page and a count of the rows at once, on two connections.
 */
export async function listShootPageAndTotal(
  db: Queryable,
  request: ShootPageRequest,
): Promise<{ rows: ShootListRow[]; total: number }> {
  const total = keptCountSql(request.filter);
  if (total === null) {
    const [rows, count] = await Promise.all([listShootPage(db, request), countShoots(db, request.filter)]);
    return { rows, total: count };
  }
  const direction = request.descending ? Prisma.raw("DESC") : Prisma.raw("ASC");
  // Every page's sort_value rises (or falls) with its order, the next-maintenance ranges' too.
  const rows = await rawQuery<ListRow & { total: number }>(
    db,
    Prisma.sql`SELECT page.*, ${total} AS total FROM (${pageSql(request)}) AS page
      ORDER BY page.sort_value ${direction}, page.namespace ${direction}, page.name ${direction}`,
  );
  // No row to carry the total (a filter that selects nothing, or a cursor past the end).
  if (rows.length === 0) return { rows: [], total: await countShoots(db, request.filter) };
  return { rows: rows.map(listRow), total: rows[0].total };
}

/** The page's statement: each row's columns, its sort_value and its sort_key (text). */
function pageSql(request: ShootPageRequest): Prisma.Sql {
  const key = sortKey(request.sort, request.origin);
  const conditions = whereConditions(request.filter, { words: request.fewMatches ? "indexed" : "row" });
  if (request.after) {
    const [k, ns, n] = request.after;
    const cmp = request.descending ? Prisma.raw("<") : Prisma.raw(">");
    conditions.push(
      Prisma.sql`(${key}, namespace, name) ${cmp} (${k}::${Prisma.raw(SORT_KEY_TYPES[request.sort])}, ${ns}::text, ${n}::text)`,
    );
  }
  const direction = request.descending ? Prisma.raw("DESC") : Prisma.raw("ASC");
  const select = Prisma.sql`
    SELECT namespace, name, resource_version,
      CASE WHEN ${request.now} BETWEEN listing_valid_from AND listing_valid_until THEN listing END AS listing,
      CASE WHEN ${request.now} BETWEEN listing_valid_from AND listing_valid_until THEN NULL ELSE summary END AS summary,
      earliest_expiry, earliest_expiry_version, maintenance_second_of_day, ${key} AS sort_value, ${key}::text AS sort_key
    FROM shoots ${where(conditions)}`;
  const order = (by: Prisma.Sql) =>
    Prisma.sql`ORDER BY ${by} ${direction}, namespace ${direction}, name ${direction} LIMIT ${request.limit}`;
  return request.fewMatches
    ? Prisma.sql`WITH matches AS MATERIALIZED (${select}) SELECT * FROM matches ${order(Prisma.sql`sort_value`)}`
    : request.sort === "nextMaintenance"
      ? nextMaintenancePage(request, whereConditions(request.filter))
      : Prisma.sql`${select} ${order(key)}`;
}

function listRow(r: ListRow): ShootListRow {
  return {
    namespace: r.namespace,
    name: r.name,
    resourceVersion: r.resource_version,
    listing: r.listing,
    summary: r.summary,
    earliestExpiry: r.earliest_expiry.getTime() === NEVER.getTime() ? null : r.earliest_expiry,
    earliestExpiryVersion: r.earliest_expiry_version,
    maintenanceSecondOfDay: r.maintenance_second_of_day >= NOT_MAINTAINED ? null : r.maintenance_second_of_day,
    sortKey: r.sort_key,
  };
}

export interface SearchStart {
  /** The shoots the filter selects, counted up to `bound` + 1 and no further. */
  readonly matched: number;
  /** The page: sorted among the matches when they are no more than `bound`, else walked. */
  readonly rows: ShootListRow[];
}

/**
 * A search's (or a label selector's) page and its matches counted up to `bound` + 1, in one
 * statement (one round trip): one pass over at most that many matches (found through the trigram
 * index, or the labels' GIN index, or met in a scan that stops at the bound; each is a visit to its
 * row, the search's whole cost) counts them, and when there are no more than `bound`, the page
 * is sorted among them, so that a search whose matches lie together in the sort order never walks
 * the sort's index past the others; only the page's rows are read whole. Past the bound, the
 * matches are common enough that walking the sort's index (listShootPage's statement, which runs
 * only then) finds a page soon.
 */
export async function startSearchPage(db: Queryable, request: ShootPageRequest, bound: number): Promise<SearchStart> {
  const key = sortKey(request.sort, request.origin);
  const direction = request.descending ? Prisma.raw("DESC") : Prisma.raw("ASC");
  const cmp = request.descending ? Prisma.raw("<") : Prisma.raw(">");
  const after = request.after
    ? Prisma.sql`WHERE (sort_value, namespace, name) ${cmp} (${request.after[0]}::${Prisma.raw(SORT_KEY_TYPES[request.sort])}, ${request.after[1]}::text, ${request.after[2]}::text)`
    : Prisma.empty;
  const columns = Prisma.sql`namespace, name, resource_version, listing, summary, earliest_expiry, earliest_expiry_version,
    maintenance_second_of_day, sort_value, sort_key`;
  // By words (and namespaces) alone, the matches are found and confirmed in the narrow rows of
  // shoot_search_texts; a name or namespace order needs nothing else of them, another order each
  // one's sort key from its shoot (only when they are few enough to be sorted). Any other filter
  // reads the shoots' rows, as it must.
  const narrow = searchTextsAnswer(request.filter);
  const keyed = !narrow
    ? Prisma.sql`matches`
    : request.sort === "name" || request.sort === "namespace"
      ? Prisma.sql`(SELECT namespace, name, ${key} AS sort_value FROM matches)`
      : Prisma.sql`(SELECT m.namespace, m.name,
          (SELECT ${key} FROM shoots WHERE shoots.namespace = m.namespace AND shoots.name = m.name) AS sort_value
        FROM matches m)`;
  const rows = await rawQuery<ListRow & { matched: number }>(
    db,
    Prisma.sql`
    WITH matches AS MATERIALIZED (${
      narrow
        ? Prisma.sql`SELECT namespace, name FROM shoot_search_texts ${where(whereConditions(request.filter))} LIMIT ${bound + 1}`
        : Prisma.sql`SELECT namespace, name, ${key} AS sort_value FROM shoots ${where(
            whereConditions(request.filter, { words: "indexed" }),
          )} LIMIT ${bound + 1}`
    }), counted AS (SELECT count(*)::int AS matched FROM matches)
    SELECT counted.matched, hit.* FROM counted LEFT JOIN LATERAL (
      SELECT s.namespace, s.name, s.resource_version,
        CASE WHEN ${request.now} BETWEEN s.listing_valid_from AND s.listing_valid_until THEN s.listing END AS listing,
        CASE WHEN ${request.now} BETWEEN s.listing_valid_from AND s.listing_valid_until THEN NULL ELSE s.summary END AS summary,
        s.earliest_expiry, s.earliest_expiry_version, s.maintenance_second_of_day, p.sort_value, p.sort_value::text AS sort_key
      FROM (SELECT * FROM ${keyed} AS keyed ${after}
        ORDER BY sort_value ${direction}, namespace ${direction}, name ${direction} LIMIT ${request.limit}) AS p
      JOIN shoots s ON s.namespace = p.namespace AND s.name = p.name
      WHERE counted.matched <= ${bound}
      UNION ALL
      SELECT ${columns} FROM (${pageSql({ ...request, fewMatches: false })}) AS walked WHERE counted.matched > ${bound}
    ) AS hit ON TRUE
    ORDER BY hit.sort_value ${direction}, hit.namespace ${direction}, hit.name ${direction}`,
  );
  return { matched: rows[0].matched, rows: rows.filter((r) => r.namespace !== null).map(listRow) };
}

/** Whether `filter` selects by words and namespaces alone: what shoot_search_texts holds. */
function searchTextsAnswer(filter: ShootFilter): boolean {
  // Every other field in `others`, so that a filter added later never goes unnoticed here.
  const { words, namespace: _namespace, namespaces: _namespaces, statusLabels, ...others } = filter;
  return !!words?.length && !statusLabels?.length && Object.values(others).every((v) => v === undefined);
}

/**
 * The page in next-maintenance order without sorting the fleet: that order (seconds from the
 * origin, which moves with the clock) is the order of maintenance_second_of_day in three ranges,
 * from the origin to midnight, from midnight to the origin, then the shoots not maintained, so
 * each range is a walk along that column's index, and only a page from each is sorted.
 */
function nextMaintenancePage(request: ShootPageRequest, filter: Prisma.Sql[]): Prisma.Sql {
  const origin = request.origin;
  const direction = request.descending ? Prisma.raw("DESC") : Prisma.raw("ASC");
  const cmp = request.descending ? Prisma.raw("<") : Prisma.raw(">");
  // Each range's sort key is the column moved by `shift` (the last range's is NOT_MAINTAINED).
  const ranges = [
    {
      range: Prisma.sql`maintenance_second_of_day >= ${origin}::int AND maintenance_second_of_day < ${NOT_MAINTAINED}::int`,
      shift: -origin,
    },
    { range: Prisma.sql`maintenance_second_of_day < ${origin}::int`, shift: DAY_SECONDS - origin },
    { range: Prisma.sql`maintenance_second_of_day >= ${NOT_MAINTAINED}::int`, shift: undefined },
  ];
  const parts = ranges.map(({ range, shift }, index) => {
    const key =
      shift === undefined
        ? Prisma.sql`${NOT_MAINTAINED}::int`
        : Prisma.sql`(maintenance_second_of_day + ${shift}::int)`;
    const conditions = [...filter, range];
    if (request.after) {
      const [k, ns, n] = request.after;
      conditions.push(Prisma.sql`(${key}, namespace, name) ${cmp} (${k}::int, ${ns}::text, ${n}::text)`);
    }
    return Prisma.sql`(
      SELECT namespace, name, resource_version,
        CASE WHEN ${request.now} BETWEEN listing_valid_from AND listing_valid_until THEN listing END AS listing,
        CASE WHEN ${request.now} BETWEEN listing_valid_from AND listing_valid_until THEN NULL ELSE summary END AS summary,
        earliest_expiry, earliest_expiry_version, maintenance_second_of_day, ${key} AS sort_value,
        ${key}::text AS sort_key, ${index}::int AS part
      FROM shoots ${where(conditions)}
      ORDER BY maintenance_second_of_day ${direction}, namespace ${direction}, name ${direction}
      LIMIT ${request.limit})`;
  });
  return Prisma.sql`SELECT * FROM (${Prisma.join(parts, " UNION ALL ")}) AS pages
    ORDER BY part ${direction}, sort_value ${direction}, namespace ${direction}, name ${direction}
    LIMIT ${request.limit}`;
}

/**
 * The namespaces `filter` narrows to when that is all it does (undefined: all of them), or null
 * when it selects by anything else. An empty status list or search selects by nothing; an empty
 * list of versions selects no shoot.
 */
function namespacesOnly(filter: ShootFilter): readonly string[] | undefined | null {
  const { namespace, namespaces, statusLabels, words, ...others } = filter;
  if (statusLabels?.length || words?.length || Object.values(others).some((v) => v !== undefined)) return null;
  if (namespace === undefined) return namespaces;
  return namespaces === undefined || namespaces.includes(namespace) ? [namespace] : [];
}

/**
 * How many shoots `filter` selects: from the kept counts when they say it (keptCountSql), else by
 * counting the rows.
 */
export async function countShoots(db: Queryable, filter: ShootFilter): Promise<number> {
  const kept = keptCountSql(filter);
  const rows = await rawQuery<{ count: number }>(
    db,
    kept === null
      ? Prisma.sql`SELECT count(*)::int AS count FROM shoots ${where(whereConditions(filter, { words: "indexed" }))}`
      : Prisma.sql`SELECT ${kept} AS count`,
  );
  return rows[0].count;
}

/**
 * How many shoots `filter` selects, as a scalar subquery over the kept counts: the per-namespace
 * counts when it selects by namespace alone (the default list, or what a caller may read), the
 * tiles' when by status or expiry besides, shoot_filter_counts' when by project, cloud profile,
 * seed, purpose or classification besides (a classification is the (profile, version) pairs that have it
 * at the read moment, so its count is theirs). Null when it selects by anything else (a search,
 * labels, or status or expiry with those), which only counting the rows answers.
 */
function keptCountSql(filter: ShootFilter): Prisma.Sql | null {
  const within = namespacesOnly(filter);
  if (within !== null) return shootsInSql(within);
  const { statusLabels, expiringBefore, ...rest } = filter;
  const tileWithin = namespacesOnly(rest);
  if (tileWithin !== null) return tileCountSql(tileWithin, { statusLabels, expiringBefore });
  // shoot_filter_counts keeps purposes, not labels (any selector is possible).
  if (statusLabels?.length || expiringBefore !== undefined || filter.words?.length || filter.labels?.length)
    return null;
  return Prisma.sql`(SELECT coalesce(sum(shoots), 0)::int FROM shoot_filter_counts ${where(
    whereConditions(filter, {
      ofNoNamespacedProfile: Prisma.sql`namespaced_cloud_profile = ''`,
      purpose: Prisma.sql`purpose`,
    }),
  )})`;
}

export interface RebuiltListing {
  readonly namespace: string;
  readonly name: string;
  /** The version the row was read at: a row changed since keeps its newer listing. */
  readonly resourceVersion: number;
  readonly listing: string;
  readonly listingValidFrom: Date;
  readonly listingValidUntil: Date;
}

/** Stores list rows rebuilt after a classification change, so the next read is text again. */
export async function storeRebuiltListings(db: Queryable, rows: readonly RebuiltListing[]): Promise<void> {
  if (rows.length === 0) return;
  await rawQuery(
    db,
    Prisma.sql`
    UPDATE shoots SET listing = r.listing, listing_valid_from = r.valid_from, listing_valid_until = r.valid_until
    FROM unnest(${rows.map((r) => r.namespace)}::text[], ${rows.map((r) => r.name)}::text[], ${rows.map((r) => r.resourceVersion)}::int[],
                ${rows.map((r) => r.listing)}::text[], ${rows.map((r) => r.listingValidFrom)}::timestamptz[], ${rows.map((r) => r.listingValidUntil)}::timestamptz[])
      AS r(namespace, name, resource_version, listing, valid_from, valid_until)
    WHERE shoots.namespace = r.namespace AND shoots.name = r.name AND shoots.resource_version = r.resource_version`,
  );
}

export interface FleetCounts {
  /** Shoots the base filter selects. */
  readonly total: number;
  /** Shoots the base filter and `tiles.expiringBefore` select: what the status tiles count out of. */
  readonly statusTotal: number;
  /** Shoots the base filter and `tiles.statusLabels` select: what the expiry tiles count out of. */
  readonly expiryTotal: number;
  /** Per status label, among those within `tiles.expiringBefore` (when given). */
  readonly byStatus: Record<ShootStatusLabel, number>;
  /**
   * Per horizon, shoots whose earliest version expires by then (expired ones included), among
   * those with `tiles.statusLabels` (when given).
   */
  readonly expiringBefore: readonly number[];
}

/**
 * The fleet page's tiles. Each tile counts what clicking it would select: the other filters stay,
 * the tile's own dimension (status, or expiry horizon) is replaced by the tile's. From the kept
 * counts when the base filter selects by namespace alone (the page's default, or what a caller
 * may read), else in one scan of the shoots it selects.
 */
export async function countFleet(
  db: Queryable,
  base: ShootFilter,
  tiles: { statusLabels?: readonly string[]; expiringBefore?: Date },
  horizons: readonly Date[],
): Promise<FleetCounts> {
  const within = namespacesOnly(base);
  if (within !== null) return fleetCountsOf(await tileCountsIn(db, within), tiles, horizons);
  const statusCond = tiles.statusLabels?.length
    ? Prisma.sql`status_label = ANY(${[...tiles.statusLabels]}::text[])`
    : Prisma.sql`TRUE`;
  const expiryCond = tiles.expiringBefore ? Prisma.sql`earliest_expiry <= ${tiles.expiringBefore}` : Prisma.sql`TRUE`;
  const byStatus = (label: ShootStatusLabel) =>
    Prisma.sql`count(*) FILTER (WHERE status_label = ${label} AND ${expiryCond})::int AS ${Prisma.raw(label)}`;
  const expiring = horizons.map(
    (h, i) =>
      Prisma.sql`count(*) FILTER (WHERE earliest_expiry <= ${h} AND ${statusCond})::int AS ${Prisma.raw(`e${i}`)}`,
  );
  const rows = await rawQuery<Record<string, number>>(
    db,
    Prisma.sql`
    SELECT count(*)::int AS total, count(*) FILTER (WHERE ${expiryCond})::int AS status_total,
      count(*) FILTER (WHERE ${statusCond})::int AS expiry_total,
      ${Prisma.join(SHOOT_STATUS_LABELS.map(byStatus), ", ")}
      ${expiring.length ? Prisma.sql`, ${Prisma.join(expiring, ", ")}` : Prisma.empty}
    FROM shoots ${where(whereConditions(base, { words: "indexed" }))}`,
  );
  const r = rows[0];
  return {
    total: r.total,
    statusTotal: r.status_total,
    expiryTotal: r.expiry_total,
    byStatus: Object.fromEntries(SHOOT_STATUS_LABELS.map((label) => [label, r[label]])) as Record<
      ShootStatusLabel,
      number
    >,
    expiringBefore: horizons.map((_, i) => r[`e${i}`]),
  };
}

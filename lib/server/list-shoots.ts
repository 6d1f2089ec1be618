// GET /api/v1/shoots: filter, sort and page through the fleet.
import type { ListShootsParams } from "../api/operations/shoots.ts";
import type { ShootListAnswer } from "../api/shoot-list.ts";
import type { Db } from "../db/client.ts";
import { prepareProfile } from "../engine/prepared-profile.ts";
import { DAY_MS, SECOND_MS } from "../engine/time-units.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import { validityColumns } from "../store/shoot-columns.ts";
import { summaryProfileKey } from "../store/shoot-summary.ts";
import { listingItem, listingValidity, withNextMaintenance } from "../store/shoot-listing.ts";
import {
  listShootPage,
  listShootPageAndTotal,
  type RebuiltListing,
  type ShootFilter,
  type ShootListRow,
  type ShootPageRequest,
  startSearchPage,
  storeRebuiltListings,
} from "../store/shoot-page.ts";
import { type CloudProfile } from "../gardener/types.ts";
import { joinedJson } from "./joined-json.ts";
import { logger } from "../observability/logger.ts";
import { answerCache } from "./answer-cache.ts";
import { type FleetScope, refuseUnreadable, scopedNamespaces, scopeKey } from "./fleet-scope.ts";
import { decodeCursor, encodeCursor } from "./shoot-cursor.ts";

/** Control-plane versions, per profile, that have `classification` at `now`. */
function versionsWithClassification(profiles: Map<string, CloudProfile>, classification: string, now: number) {
  const pairs: { cloudProfile: string; version: string; namespace?: string }[] = [];
  for (const profile of profiles.values()) {
    // Profiles are keyed by profileKey; a NamespacedCloudProfile's pairs name its namespace.
    const { name, namespace } = profile.metadata;
    const of = profile.kind === "NamespacedCloudProfile" ? { cloudProfile: name, namespace } : { cloudProfile: name };
    for (const c of prepareProfile(profile, now).kubernetes.items) {
      if (c.classification === classification) pairs.push({ ...of, version: c.text });
    }
  }
  return pairs;
}

/** The answer with each row as JSON text: mostly stored text, joined without parsing. */
export interface ShootListPage extends Omit<ShootListAnswer, "items"> {
  readonly items: readonly string[];
}

/**
 * A row's JSON text in two pieces: the stored listing without its closing brace, and the next
 * maintenance with the brace (withNextMaintenance's text, not joined). The answer's bytes are
 * written from the pieces: joined as text, each row was first copied whole into a new string
 * (~100 KB a page, twice that for a page with a character beyond Latin-1), garbage the web
 * process then had to collect.
 */
type ItemPieces = readonly [string, string];

/** A page whose items are still in pieces (listShootsJson writes them as bytes). */
interface PiecesPage extends Omit<ShootListPage, "items"> {
  readonly items: readonly ItemPieces[];
}

const itemText = ([stored, rest]: ItemPieces) => stored + rest;

/** What withNextMaintenance adds to any listing, written after the listing without its "}". */
function itemPieces(listing: string, secondOfDay: number | null, now: number): ItemPieces {
  return [listing.slice(0, -1), withNextMaintenance("}", secondOfDay, now)];
}

const secondOfDay = (ms: number) => Math.floor((((ms % DAY_MS) + DAY_MS) % DAY_MS) / SECOND_MS);

/**
 * The rows a query selects, whatever their order and page; `within`: only these namespaces (the
 * caller's readable ones, lib/server/fleet-scope.ts), undefined for the whole landscape.
 */
export function shootFilterOf(
  params: Omit<ListShootsParams, "sort" | "limit" | "cursor" | "status"> & { status?: string[] },
  profiles: Map<string, CloudProfile>,
  now: number,
  within?: readonly string[],
): ShootFilter {
  return {
    namespace: params.namespace,
    namespaces: within,
    project: params.project,
    statusLabels: params.status,
    // An empty list, or a selector without requirements, selects by nothing (as an empty status).
    purposes: params.purpose?.length ? params.purpose : undefined,
    labels: params.labels?.length ? params.labels : undefined,
    cloudProfile: params.cloudProfile,
    seed: params.seed,
    words: params.q?.toLowerCase().split(/\s+/).filter(Boolean),
    expiringBefore:
      params.expiringWithinDays !== undefined ? new Date(now + params.expiringWithinDays * DAY_MS) : undefined,
    kubernetesVersionsIn: params.classification
      ? versionsWithClassification(profiles, params.classification, now)
      : undefined,
  };
}

/** `matchesCounted`: how far a search's or a selector's matches are counted (a test's small bound). */
export async function listShoots(
  db: Db,
  params: ListShootsParams,
  now: number,
  within?: readonly string[],
  matchesCounted = MATCHES_COUNTED,
): Promise<ShootListPage> {
  const page = await listShootPieces(db, params, now, within, matchesCounted);
  return { ...page, items: page.items.map(itemText) };
}

async function listShootPieces(
  db: Db,
  params: ListShootsParams,
  now: number,
  within?: readonly string[],
  matchesCounted = MATCHES_COUNTED,
): Promise<PiecesPage> {
  const profiles = await cachedCloudProfiles(db, now);
  const filter = shootFilterOf(params, profiles, now, within);
  if (!countsBounded(filter)) {
    // The page and its total in one statement where the kept counts say the total.
    let total = 0;
    const page = await readPiecesPage(db, params, filter, profiles, now, async (request) => {
      const read = await listShootPageAndTotal(db, request);
      total = read.total;
      return read.rows;
    });
    return { ...page, total };
  }
  // A search or a label selector counts its matches only up to a bound: its cost is a visit to each
  // match's row, so a common word's or label's full count would cost more than its page
  // (lib/store/shoot-page.ts's startSearchPage).
  let matched = 0;
  const page = await readPiecesPage(db, params, filter, profiles, now, async (request) => {
    const start = await startSearchPage(db, request, matchesCounted);
    matched = start.matched;
    return start.rows;
  });
  return matched > matchesCounted
    ? { ...page, total: matchesCounted, totalBounded: true }
    : { ...page, total: matched };
}

/**
 * Whether the filter's total is counted only up to MATCHES_COUNTED: a search's or a label
 * selector's, which no kept count answers (any word, any selector is possible), so that its count
 * is a visit to each match's row (and, for a selector, a read of its labels in the row's metadata):
 * at 100,000 shoots, counting every `env=prod` took seconds where its first page takes milliseconds.
 */
function countsBounded(filter: ShootFilter): boolean {
  return !!filter.words?.length || !!filter.labels?.length;
}

/**
 * A search (or a label selector) counts this many matches at most (the answer then says "more
 * than 5,000"); up to this many, its page sorts the matches rather than walking an index.
 */
export const MATCHES_COUNTED = 5_000;

/**
 * One page of rows as JSON text and the cursor of the next, without the count: the list's page,
 * and the export's walk through every row (lib/server/export-shoots.ts).
 */
export async function readShootPage(
  db: Db,
  params: Pick<ListShootsParams, "sort" | "limit" | "cursor">,
  filter: ShootFilter,
  profiles: Map<string, CloudProfile>,
  now: number,
): Promise<Omit<ShootListPage, "total" | "totalBounded">> {
  const page = await readPiecesPage(db, params, filter, profiles, now);
  return { ...page, items: page.items.map(itemText) };
}

async function readPiecesPage(
  db: Db,
  params: Pick<ListShootsParams, "sort" | "limit" | "cursor">,
  filter: ShootFilter,
  profiles: Map<string, CloudProfile>,
  now: number,
  rowsOf: (request: ShootPageRequest) => Promise<ShootListRow[]> = (request) => listShootPage(db, request),
): Promise<Omit<PiecesPage, "total" | "totalBounded">> {
  const sort = `${params.sort.descending ? "-" : ""}${params.sort.field}`;
  const cursor = params.cursor ? decodeCursor(params.cursor, sort, params.sort.field) : undefined;
  const origin = cursor?.origin ?? secondOfDay(now);
  // One row more than asked tells whether another page follows.
  const rows = await rowsOf({
    filter,
    sort: params.sort.field,
    descending: params.sort.descending,
    limit: params.limit + 1,
    now: new Date(now),
    origin,
    after: cursor?.after,
  });
  const page = rows.slice(0, params.limit);
  const rebuilt: RebuiltListing[] = [];
  const items = page.map((row) => {
    let listing = row.listing;
    if (listing === null) {
      // The row was stored at a moment with other classifications: rebuild it, and store it again.
      const profile = profiles.get(summaryProfileKey(row.summary!));
      const input = { ...row, summary: row.summary! };
      listing = JSON.stringify(listingItem(input, profile, now));
      rebuilt.push({
        namespace: row.namespace,
        name: row.name,
        resourceVersion: row.resourceVersion,
        listing,
        ...validityColumns(listingValidity(input, profile, now)),
      });
    }
    return itemPieces(listing, row.maintenanceSecondOfDay, now);
  });
  // Not awaited: the answer does not depend on it, and a lost write is only redone later.
  storeRebuiltListings(db, rebuilt).catch((error) =>
    logger().warn(`Storing rebuilt list rows failed: ${(error as Error).message}`),
  );
  const last = page.at(-1);
  return {
    items,
    nextCursor:
      rows.length > params.limit && last
        ? encodeCursor({ sort, after: [last.sortKey, last.namespace, last.name], origin })
        : null,
  };
}

/** The page as the API's JSON, in UTF-8: the rows' stored text joined as bytes (joined-json.ts). */
function shootListJson(page: PiecesPage): Buffer<ArrayBuffer> {
  const bounded = page.totalBounded ? ',"totalBounded":true' : "";
  return joinedJson(
    '{"items":[',
    page.items,
    `],"total":${page.total}${bounded},"nextCursor":${JSON.stringify(page.nextCursor)}}`,
  );
}

const cache = answerCache<Buffer<ArrayBuffer>>(1_000, 256);

/**
 * GET /api/v1/shoots as JSON (UTF-8 bytes) for what `scope` may read: the answer given to the same
 * parameters and the same readable namespaces within the last second if nothing changed since
 * (only queries that passed the scope's check are ever kept, so a hit needs no second check),
 * else read from the database.
 */
export async function listShootsJson(
  db: Db,
  params: ListShootsParams,
  scope: FleetScope,
  gardenRevision: number | undefined,
  now: number,
): Promise<Buffer<ArrayBuffer>> {
  // One caller's narrowed answer must never be another's: the scope is part of the key.
  const key = `${scopeKey(scope)}?${JSON.stringify(params)}`;
  const cached = cache.get(key, gardenRevision, now);
  if (cached !== undefined) return cached;
  await refuseUnreadable(db, scope, params);
  const body = shootListJson(await listShootPieces(db, params, now, scopedNamespaces(scope)));
  cache.set(key, gardenRevision, now, body);
  return body;
}

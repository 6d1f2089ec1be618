// GET /api/v1/shoots: filter, sort and page through the fleet.
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { prepareProfile } from "../engine/prepared-profile.ts";
import { cachedCloudProfiles } from "../garden/embedded/cloud-profiles.ts";
import { countShoots, listShootPage, type ShootFilter, type ShootSortField } from "../garden/embedded/shoots.ts";
import type { CloudProfile } from "../gardener/types.ts";
import { badRequest } from "../http/api-error.ts";
import { parseQuery } from "../http/parse-query.ts";
import { listingItem } from "../garden/embedded/shoot-listing.ts";
import { cachedList, rememberList } from "./list-cache.ts";

const STATUS_LABELS = ["healthy", "progressing", "unknown", "unhealthy"] as const;
const CLASSIFICATIONS = ["preview", "supported", "deprecated", "expired"] as const;
const SORTS = ["name", "namespace", "kubernetesVersion", "status", "expiry", "nextMaintenance", "created"] as const;
export const MAX_LIMIT = 500;

const name = z.string().min(1).max(253);

export const listShootsParams = z.strictObject({
  namespace: name.optional(),
  project: name.optional(),
  status: z.string().optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const labels = v.split(",").map((s) => s.trim()).filter(Boolean);
      const bad = labels.filter((l) => !(STATUS_LABELS as readonly string[]).includes(l));
      if (bad.length > 0) ctx.addIssue({ code: "custom", message: `unknown status ${bad.map((b) => `"${b}"`).join(", ")}; use ${STATUS_LABELS.join(", ")} (comma-separated)` });
      return labels;
    }),
  q: z.string().max(200).optional(),
  expiringWithinDays: z.coerce.number().int().min(0).max(3650).optional(),
  classification: z.enum(CLASSIFICATIONS).optional(),
  cloudProfile: name.optional(),
  seed: name.optional(),
  sort: z.string().optional().transform((v, ctx) => {
    const text = v ?? "name";
    const field = text.replace(/^-/, "");
    if (!(SORTS as readonly string[]).includes(field)) {
      ctx.addIssue({ code: "custom", message: `cannot sort by "${field}"; use one of ${SORTS.join(", ")}, with "-" in front for descending` });
    }
    return { field: field as ShootSortField, descending: text.startsWith("-") };
  }),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(50),
  cursor: z.string().max(2000).optional(),
});

export type ListShootsParams = z.infer<typeof listShootsParams>;

interface Cursor {
  s: string;
  k: [string, string, string];
}

function encodeCursor(sort: string, key: [string, string, string]): string {
  return Buffer.from(JSON.stringify({ s: sort, k: key } satisfies Cursor)).toString("base64url");
}

function decodeCursor(text: string, sort: string): [string, string, string] {
  let cursor: Cursor;
  try {
    cursor = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw badRequest("The cursor is not one this server handed out.", [{ field: "query.cursor", type: "Invalid", detail: "not a cursor from a previous page" }]);
  }
  if (!cursor || !Array.isArray(cursor.k) || cursor.k.length !== 3 || !cursor.k.every((p) => typeof p === "string")) {
    throw badRequest("The cursor is not one this server handed out.", [{ field: "query.cursor", type: "Invalid", detail: "not a cursor from a previous page" }]);
  }
  if (cursor.s !== sort) {
    throw badRequest("The cursor belongs to a listing with another sort order.", [{ field: "query.cursor", type: "Invalid", detail: `cursor was made for sort "${cursor.s}", not "${sort}"` }]);
  }
  return cursor.k;
}

export function parseListShootsParams(search: URLSearchParams) {
  return parseQuery(listShootsParams, search);
}

/** Control-plane versions, per profile, that have `classification` at `now`. */
function versionsWithClassification(profiles: Map<string, CloudProfile>, classification: string, now: number) {
  const pairs: { cloudProfile: string; version: string }[] = [];
  for (const [name, profile] of profiles) {
    for (const c of prepareProfile(profile, now).kubernetes.items) {
      if (c.classification === classification) pairs.push({ cloudProfile: name, version: c.text });
    }
  }
  return pairs;
}

export interface ShootListPage {
  /** Each row as JSON text: mostly stored text, joined without parsing. */
  readonly items: readonly string[];
  readonly total: number;
  readonly nextCursor: string | null;
}

export async function listShoots(db: Db, params: ListShootsParams, now: number): Promise<ShootListPage> {
  const profiles = await cachedCloudProfiles(db, now);
  const filter: ShootFilter = {
    namespace: params.namespace,
    project: params.project,
    statusLabels: params.status,
    cloudProfile: params.cloudProfile,
    seed: params.seed,
    words: params.q?.toLowerCase().split(/\s+/).filter(Boolean),
    expiringBefore: params.expiringWithinDays !== undefined ? new Date(now + params.expiringWithinDays * 86_400_000) : undefined,
    kubernetesVersionsIn: params.classification ? versionsWithClassification(profiles, params.classification, now) : undefined,
  };
  const sortText = `${params.sort.descending ? "-" : ""}${params.sort.field}`;
  const after = params.cursor ? decodeCursor(params.cursor, sortText) : undefined;
  // One row more than asked tells whether another page follows.
  const [rows, total] = await Promise.all([
    listShootPage(db, { filter, sort: params.sort.field, descending: params.sort.descending, limit: params.limit + 1, now: new Date(now), after }),
    countShoots(db, filter),
  ]);
  const page = rows.slice(0, params.limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => row.listing ?? JSON.stringify(listingItem(
      { ...row, summary: row.summary! }, profiles.get(row.summary!.cloudProfile), now))),
    total,
    nextCursor: rows.length > params.limit && last ? encodeCursor(sortText, [last.sortKey, last.namespace, last.name]) : null,
  };
}

/** The page as the API's JSON text. */
export function shootListJson(page: ShootListPage): string {
  return `{"items":[${page.items.join(",")}],"total":${page.total},"nextCursor":${JSON.stringify(page.nextCursor)}}`;
}

/**
 * GET /api/v1/shoots as JSON text: from the list cache when the same query was answered within
 * the last second and nothing changed since, else from the database.
 */
export async function listShootsJson(db: Db, search: URLSearchParams, gardenRevision: number | undefined, now: number): Promise<string> {
  // Only queries that passed validation are ever cached, so a hit needs no second check.
  const key = search.toString();
  const cached = cachedList(key, gardenRevision, now);
  if (cached !== undefined) return cached;
  const params = parseListShootsParams(search);
  const body = shootListJson(await listShoots(db, params, now));
  rememberList(key, gardenRevision, now, body);
  return body;
}

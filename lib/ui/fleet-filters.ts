// The fleet page's filters and sort, as they live in the URL (shareable, and the back button
// works), and as the list API's query string. Unknown or malformed URL values are dropped
// rather than sent, so a hand-edited link still opens a page.
import { SHOOT_SORTS, type ShootSort } from "../api/shoot-sorts.ts";
import { SHOOT_STATUS_LABELS } from "../engine/status-label.ts";
import { CLASSIFICATIONS, type Classification, type StatusLabel } from "./status";

export type { ShootSort as Sort } from "../api/shoot-sorts.ts";

export interface FleetFilters {
  readonly q: string;
  readonly status: readonly StatusLabel[];
  readonly classification?: Classification;
  readonly expiringWithinDays?: number;
  readonly namespace?: string;
  readonly project?: string;
  readonly cloudProfile?: string;
  readonly seed?: string;
  readonly sort: ShootSort;
  readonly descending: boolean;
}

/**
 * A change of the filters, applied to the latest ones (not to those a component last rendered),
 * so that quick changes of several inputs all count.
 */
export type FleetChange = (current: FleetFilters) => FleetFilters;

/**
 * Rows in the first page: small, because the server renders it into the HTML; later pages are
 * larger, fetched as the scroll nears the end.
 */
export const FIRST_PAGE = 30;

export const DEFAULT_FILTERS: FleetFilters = { q: "", status: [], sort: "status", descending: false };

const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

export function filtersFromSearch(search: { get(name: string): string | null }): FleetFilters {
  const text = (key: string) => {
    const v = search.get(key);
    return v && NAME.test(v) ? v : undefined;
  };
  const status = (search.get("status") ?? "")
    .split(",")
    .filter((s): s is StatusLabel => (SHOOT_STATUS_LABELS as readonly string[]).includes(s));
  const classification = search.get("classification");
  const daysText = search.get("expiringWithinDays");
  const days = Number(daysText);
  const sortText = search.get("sort") ?? "";
  const sortField = sortText.replace(/^-/, "");
  const sortKnown = (SHOOT_SORTS as readonly string[]).includes(sortField);
  return {
    q: (search.get("q") ?? "").slice(0, 200),
    status: [...new Set(status)],
    classification: (CLASSIFICATIONS as readonly string[]).includes(classification ?? "")
      ? (classification as Classification)
      : undefined,
    expiringWithinDays:
      daysText !== null && daysText !== "" && Number.isInteger(days) && days >= 0 && days <= 3650 ? days : undefined,
    namespace: text("namespace"),
    project: text("project"),
    cloudProfile: text("cloudProfile"),
    seed: text("seed"),
    sort: sortKnown ? (sortField as ShootSort) : DEFAULT_FILTERS.sort,
    descending: sortKnown ? sortText.startsWith("-") : DEFAULT_FILTERS.descending,
  };
}

/** The URL's query string (defaults left out, so plain links stay plain). */
export function searchFromFilters(f: FleetFilters): string {
  const p = new URLSearchParams();
  if (f.q.trim()) p.set("q", f.q.trim());
  if (f.status.length) p.set("status", f.status.join(","));
  if (f.classification) p.set("classification", f.classification);
  if (f.expiringWithinDays !== undefined) p.set("expiringWithinDays", String(f.expiringWithinDays));
  for (const key of ["namespace", "project", "cloudProfile", "seed"] as const) if (f[key]) p.set(key, f[key]!);
  if (f.sort !== DEFAULT_FILTERS.sort || f.descending !== DEFAULT_FILTERS.descending)
    p.set("sort", `${f.descending ? "-" : ""}${f.sort}`);
  return p.toString();
}

/** The list API's query (always with an explicit sort), without paging. */
export function listQuery(f: FleetFilters): URLSearchParams {
  const p = new URLSearchParams(searchFromFilters(f));
  p.set("sort", `${f.descending ? "-" : ""}${f.sort}`);
  return p;
}

/** The summary API's query: the list's filters, without the sort. */
export function summaryQuery(f: FleetFilters): URLSearchParams {
  const p = listQuery(f);
  p.delete("sort");
  return p;
}

export function activeFilterCount(f: FleetFilters): number {
  return [
    f.q.trim() !== "",
    f.status.length > 0,
    f.classification,
    f.expiringWithinDays !== undefined,
    f.namespace,
    f.project,
    f.cloudProfile,
    f.seed,
  ].filter(Boolean).length;
}

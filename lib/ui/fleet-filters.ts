// The fleet page's filters and sort, as they live in the URL (shareable, and the back button
// works), and as the list API's query string. Unknown or malformed URL values are dropped
// rather than sent, so a hand-edited link still opens a page: each is checked by the list
// operation's own query schema (lib/api/operations/shoots.ts), so the vocabulary is the server's.
import type { z } from "zod";
import { listShootsParams } from "../api/operations/shoots.ts";
import type { ShootSort } from "../api/shoot-sorts.ts";
import { parseLabelSelector } from "../engine/label-selector-string.ts";
import type { ShootPurpose } from "../engine/shoot-purpose.ts";
import type { Classification, StatusLabel } from "./status";

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
  /** Gardener purposes (spec.purpose); none: any. */
  readonly purpose?: readonly ShootPurpose[];
  /** A Kubernetes label selector as typed (`env=prod,!legacy`), only ever a valid one. */
  readonly labels?: string;
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

const LIST_QUERY = listShootsParams.shape;

/** `value` as the list operation's schema for `key` reads it, or undefined if it refuses it. */
function accepted<K extends keyof typeof LIST_QUERY>(
  key: K,
  value: string | null,
): z.output<(typeof LIST_QUERY)[K]> | undefined {
  if (value === null || value === "") return undefined;
  const parsed = LIST_QUERY[key].safeParse(value);
  return parsed.success ? (parsed.data as z.output<(typeof LIST_QUERY)[K]>) : undefined;
}

export function filtersFromSearch(search: { get(name: string): string | null }): FleetFilters {
  const text = (key: "namespace" | "project" | "cloudProfile" | "seed") => {
    const v = search.get(key);
    return v && NAME.test(v) ? accepted(key, v) : undefined;
  };
  // Each label on its own, so that one unknown label drops only itself.
  const status = (search.get("status") ?? "")
    .split(",")
    .filter((label): label is StatusLabel => label !== "" && accepted("status", label) !== undefined);
  const purpose = (search.get("purpose") ?? "")
    .split(",")
    .filter((p): p is ShootPurpose => p !== "" && accepted("purpose", p) !== undefined);
  const labels = (search.get("labels") ?? "").trim();
  const sort = accepted("sort", search.get("sort"));
  return {
    q: (search.get("q") ?? "").slice(0, 200),
    status: [...new Set(status)],
    classification: accepted("classification", search.get("classification")) as Classification | undefined,
    expiringWithinDays: accepted("expiringWithinDays", search.get("expiringWithinDays")),
    namespace: text("namespace"),
    project: text("project"),
    cloudProfile: text("cloudProfile"),
    seed: text("seed"),
    ...(purpose.length ? { purpose: [...new Set(purpose)] } : {}),
    // A selector that does not parse is dropped whole: it would select something else in part.
    ...(labels && parseLabelSelector(labels).ok ? { labels } : {}),
    sort: sort?.field ?? DEFAULT_FILTERS.sort,
    descending: sort?.descending ?? DEFAULT_FILTERS.descending,
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
  if (f.purpose?.length) p.set("purpose", f.purpose.join(","));
  if (f.labels?.trim()) p.set("labels", f.labels.trim());
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
    !!f.purpose?.length,
    !!f.labels?.trim(),
  ].filter(Boolean).length;
}

/** Why `text` is not a label selector (the reason the API's 400 or 422 gives), or undefined. */
export function labelSelectorProblem(text: string): string | undefined {
  const parsed = parseLabelSelector(text.trim());
  return parsed.ok ? undefined : parsed.error;
}

/** A purpose as the filters show it: "production" -> "Production". */
export const purposeWord = (purpose: string) => purpose.charAt(0).toUpperCase() + purpose.slice(1);

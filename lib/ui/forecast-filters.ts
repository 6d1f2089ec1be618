// The forecast page's filters, kept in the URL query so that a view can be shared and survives a
// reload. All but the grouping go to the server, which answers the updates they select.
import type { Grouping } from "./forecast-buckets.ts";

export const HORIZONS = [7, 30, 90, 365] as const;
type Horizon = (typeof HORIZONS)[number];
type ForecastKind = "kubernetes" | "machineImage";

export interface ForecastFilters {
  readonly days: Horizon;
  readonly namespace?: string;
  readonly cloudProfile?: string;
  readonly kind?: ForecastKind;
  readonly stuck: boolean;
  /** Only updates whose shoot's record speaks against them (the engine's update-risk.ts). */
  readonly atRisk: boolean;
  readonly by: Grouping;
}

const DEFAULT_FORECAST_FILTERS: ForecastFilters = { days: 30, stuck: false, atRisk: false, by: "day" };

interface SearchLike {
  get(name: string): string | null;
}

/** Reads the filters; values that make no sense fall back to the defaults. */
export function parseForecastFilters(search: SearchLike): ForecastFilters {
  const days = Number(search.get("days"));
  const kind = search.get("kind");
  const text = (name: string) => search.get(name)?.trim() || undefined;
  return {
    days: (HORIZONS as readonly number[]).includes(days) ? (days as Horizon) : DEFAULT_FORECAST_FILTERS.days,
    namespace: text("namespace"),
    cloudProfile: text("cloudProfile"),
    kind: kind === "kubernetes" || kind === "machineImage" ? kind : undefined,
    stuck: search.get("stuck") === "true",
    atRisk: search.get("atRisk") === "true",
    by: search.get("by") === "week" ? "week" : "day",
  };
}

/** The query string of the page (defaults left out), without "?". */
export function forecastSearch(filters: ForecastFilters): string {
  const params = new URLSearchParams();
  if (filters.days !== DEFAULT_FORECAST_FILTERS.days) params.set("days", String(filters.days));
  if (filters.namespace) params.set("namespace", filters.namespace);
  if (filters.cloudProfile) params.set("cloudProfile", filters.cloudProfile);
  if (filters.kind) params.set("kind", filters.kind);
  if (filters.stuck) params.set("stuck", "true");
  if (filters.atRisk) params.set("atRisk", "true");
  if (filters.by !== DEFAULT_FORECAST_FILTERS.by) params.set("by", filters.by);
  return params.toString();
}

/**
 * The API request for these filters: the first `limit` updates they select, and the summary's
 * counts (the server narrows; a year of a large fleet is too many updates to send).
 */
export function forecastApiPath(filters: ForecastFilters, limit: number): string {
  const params = new URLSearchParams({ days: String(filters.days) });
  if (filters.namespace) params.set("namespace", filters.namespace);
  if (filters.cloudProfile) params.set("cloudProfile", filters.cloudProfile);
  if (filters.kind) params.set("kind", filters.kind);
  if (filters.stuck) params.set("stuck", "true");
  if (filters.atRisk) params.set("atRisk", "true");
  params.set("limit", String(limit));
  params.set("summary", "true");
  return `/forecast?${params}`;
}

/** The same horizon and grouping, without anything that narrows the list. */
export const withoutNarrowing = (f: ForecastFilters): ForecastFilters => ({
  days: f.days,
  by: f.by,
  stuck: false,
  atRisk: false,
});

/** Whether anything narrows the list beyond the horizon (the empty state offers a reset then). */
export const narrowsForecast = (f: ForecastFilters) =>
  Boolean(f.namespace || f.cloudProfile || f.kind || f.stuck || f.atRisk);

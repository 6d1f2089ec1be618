// The download links of the exports and calendars (lib/api/export.ts), for the pages' current
// filters: the same query the page's list sends, without paging, plus the format.
import type { ExportFormat } from "../api/export.ts";
import { auditApiPath, type AuditFilters } from "./audit-filters.ts";
import { listQuery, type FleetFilters } from "./fleet-filters.ts";
import type { ForecastFilters } from "./forecast-filters.ts";

const withFormat = (params: URLSearchParams, format: ExportFormat) => {
  params.set("format", format);
  return params.toString();
};

export const fleetExportUrl = (f: FleetFilters, format: ExportFormat) =>
  `/api/v1/shoots/export?${withFormat(listQuery(f), format)}`;

export function forecastExportUrl(f: ForecastFilters, format: ExportFormat) {
  const params = new URLSearchParams({ days: String(f.days) });
  if (f.namespace) params.set("namespace", f.namespace);
  if (f.cloudProfile) params.set("cloudProfile", f.cloudProfile);
  if (f.kind) params.set("kind", f.kind);
  if (f.stuck) params.set("stuck", "true");
  if (f.atRisk) params.set("atRisk", "true");
  return `/api/v1/forecast/export?${withFormat(params, format)}`;
}

export function auditExportUrl(f: AuditFilters, format: ExportFormat) {
  const params = new URLSearchParams(auditApiPath(f, 1).split("?")[1]);
  params.delete("limit");
  return `/api/v1/audit/export?${withFormat(params, format)}`;
}

export const shootCalendarUrl = (namespace: string, name: string) =>
  `/api/v1/namespaces/${encodeURIComponent(namespace)}/shoots/${encodeURIComponent(name)}/calendar.ics`;

export const namespaceCalendarUrl = (namespace: string) =>
  `/api/v1/namespaces/${encodeURIComponent(namespace)}/calendar.ics`;

/** The cluster's page in the Gardener dashboard under `base` (ALMANAC_DASHBOARD_URL). */
export const gardenerDashboardUrl = (base: string, namespace: string, name: string) =>
  `${base.replace(/\/+$/, "")}/namespace/${encodeURIComponent(namespace)}/shoots/${encodeURIComponent(name)}`;

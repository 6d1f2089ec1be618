// The audit page's filters, kept in the URL query. Dates are whole UTC days as a date input
// gives them ("2026-11-23"); "to" includes its day, so the API's exclusive `until` is the next
// midnight.
import { DAY_MS } from "../engine/time-units.ts";

export interface AuditFilters {
  readonly actor?: string;
  readonly action?: string;
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
  /** First UTC day shown, "YYYY-MM-DD". */
  readonly since?: string;
  /** Last UTC day shown, "YYYY-MM-DD". */
  readonly until?: string;
  /** A bulk action's id: only the changes it made (the fleet page's bulk progress links here). */
  readonly bulkAction?: string;
  /** An update run's id: its own events and its changes to each shoot (the run's page links here). */
  readonly updateRun?: string;
}

const AUDIT_FILTER_KEYS = [
  "actor",
  "action",
  "kind",
  "namespace",
  "name",
  "since",
  "until",
  "bulkAction",
  "updateRun",
] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The actions Almanac records, for the action filter (other values still work from the URL). */
export const KNOWN_AUDIT_ACTIONS = [
  "shoot.update",
  "shoot.maintain",
  "shoot.maintain-now.request",
  "shoot.maintain-now",
  "shoot.migrate",
  "shoot.migrate.succeeded",
  "shoot.migrate.failed",
  "shoot.delete",
  "shoot.deleted",
  "landscape.seed",
  "auth.sign-in",
  "auth.sign-in-failed",
  "account.create",
  "account.delete",
  "role.change",
  "token.create",
  "token.revoke",
  "update-run.create",
  "update-run.approve",
  "update-run.pause",
  "update-run.resume",
  "update-run.cancel",
  "update-run.stage-start",
  "update-run.stage-finish",
  "update-run.gate-pause",
  "update-run.finish",
] as const;

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (s: string) => DAY_PATTERN.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));

interface SearchLike {
  get(name: string): string | null;
}

export function parseAuditFilters(search: SearchLike): AuditFilters {
  const filters: Record<string, string> = {};
  for (const key of AUDIT_FILTER_KEYS) {
    const value = search.get(key)?.trim();
    if (!value) continue;
    if ((key === "since" || key === "until") && !isDay(value)) continue;
    // A malformed id would make the API answer 400: dropped, as a hand-edited day is.
    if ((key === "bulkAction" || key === "updateRun") && !UUID.test(value)) continue;
    filters[key] = value;
  }
  return filters;
}

/** The page's query string (without "?"), in a stable order. */
export function auditSearch(filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const key of AUDIT_FILTER_KEYS) if (filters[key]) params.set(key, filters[key]!);
  return params.toString();
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** GET /audit for these filters, one page of `limit` from `cursor`. */
/** The log's query for `filters`: whole days, the last one included, a page at a time. */
export function auditQuery(filters: AuditFilters, limit: number, cursor?: string | null): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of AUDIT_FILTER_KEYS) {
    const value = filters[key];
    if (!value) continue;
    params.set(key, key === "until" ? nextDay(value) : value);
  }
  params.set("limit", String(limit));
  if (cursor) params.set("cursor", cursor);
  return params;
}

export const auditApiPath = (filters: AuditFilters, limit: number, cursor?: string | null): string =>
  `/audit?${auditQuery(filters, limit, cursor)}`;

export const hasAuditFilters = (filters: AuditFilters) => AUDIT_FILTER_KEYS.some((k) => filters[k]);

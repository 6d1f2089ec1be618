// What the freezes page says and sends, pure: a freeze's length in words, what a datetime-local
// field's value means as an RFC 3339 moment, and how to move a cluster before a freeze.
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../engine/time-units.ts";

/** "13 days", "1 day 6 h", "5 h 30 min", "45 min". */
export function freezeLength(start: string, end: string): string {
  const ms = Math.max(0, Date.parse(end) - Date.parse(start));
  const days = Math.floor(ms / DAY_MS);
  const hours = Math.floor((ms % DAY_MS) / HOUR_MS);
  const minutes = Math.round((ms % HOUR_MS) / MINUTE_MS);
  const parts = [
    days > 0 ? `${days} ${days === 1 ? "day" : "days"}` : "",
    hours > 0 ? `${hours} h` : "",
    days === 0 && minutes > 0 ? `${minutes} min` : "",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(" ") : "0 min";
}

/**
 * A datetime-local field's value ("2026-12-20T00:00", the browser's own time zone) as RFC 3339
 * with an offset (UTC), or undefined when it is empty or not a moment: the API then names the
 * field as missing.
 */
export function localInputToRfc3339(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** A moment as a datetime-local field's value in the browser's time zone (minutes). */
export function rfc3339ToLocalInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The three ways to move a cluster's forced update before a freeze, in words. */
export const MOVE_BEFORE_FREEZE = [
  "update it now (its version or machine image)",
  "maintain it now",
  "change its maintenance window so that it comes before the freeze",
] as const;

/** "Gardener forces 3 updates on 2 clusters inside this freeze". */
export function forcedInsideText(total: number, shoots: number): string {
  if (total === 0) return "Gardener forces no update inside this freeze.";
  return `Gardener forces ${total} ${total === 1 ? "update" : "updates"} on ${shoots} ${shoots === 1 ? "cluster" : "clusters"} inside this freeze, whatever the freeze says.`;
}

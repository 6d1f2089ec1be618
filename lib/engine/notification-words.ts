// How notification summaries word moments and distances (one line each, local-time free): a
// moment in UTC to the minute, and how far ahead it lies ("in 7 days"). The e-mail and the webhook
// show the summary as the producer wrote it, so every kind words time the same way here.
import { DAY_MS, HOUR_MS, MINUTE_MS } from "./time-units.ts";

/** "2026-12-01 03:00 UTC". */
export function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/**
 * How far `at` lies after `now`: "in 7 days" (whole days, rounded, from a day on), "in 5 hours",
 * "in 20 minutes", "now" (less than a minute, or past).
 */
export function inTimeWords(at: number, now: number): string {
  const ahead = at - now;
  if (ahead >= DAY_MS) return `in ${count(Math.round(ahead / DAY_MS), "day")}`;
  if (ahead >= HOUR_MS) return `in ${count(Math.round(ahead / HOUR_MS), "hour")}`;
  if (ahead >= MINUTE_MS) return `in ${count(Math.round(ahead / MINUTE_MS), "minute")}`;
  return "now";
}

/** The shoot as summaries name it: "garden-dev/api-eu". */
export const shootWords = (namespace: string, name: string) => `${namespace}/${name}`;

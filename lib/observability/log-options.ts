// How the logger writes: ALMANAC_LOG_LEVEL (pino's levels, default info) and ALMANAC_LOG_FORMAT
// ("json" or "pretty"), read by lib/config. Unset, a person at a terminal (stdout is one) and
// `next dev` get pretty lines; anything else, a container's log collector above all, JSON lines.
import type { Config } from "../config/load-config.ts";
import type { LOG_LEVELS } from "../config/settings.ts";

export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogOptions {
  readonly level: LogLevel;
  readonly pretty: boolean;
}

/** The options `settings` choose, for a process whose stdout is a `terminal` or not. */
export function logOptions(
  { observability, node }: Pick<Config, "observability" | "node">,
  terminal: boolean,
): LogOptions {
  const format = observability.logFormat;
  const pretty = format === undefined ? terminal || node.nodeEnv === "development" : format === "pretty";
  return { level: observability.logLevel, pretty };
}

// How the logger writes, from the environment: ALMANAC_LOG_LEVEL (pino's levels, default info) and
// ALMANAC_LOG_FORMAT ("json" or "pretty"). Unset, a person at a terminal (stdout is one) and
// `next dev` get pretty lines; anything else, a container's log collector above all, JSON lines.
type Env = Readonly<Record<string, string | undefined>>;

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogOptions {
  readonly level: LogLevel;
  readonly pretty: boolean;
}

/** The options in `env`; throws an error naming the variable for a value it does not know. */
export function logOptions(env: Env, terminal: boolean): LogOptions {
  const levelText = env.ALMANAC_LOG_LEVEL?.trim().toLowerCase() || "info";
  if (!(LOG_LEVELS as readonly string[]).includes(levelText))
    throw new Error(`ALMANAC_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}; got "${env.ALMANAC_LOG_LEVEL}".`);
  const format = env.ALMANAC_LOG_FORMAT?.trim().toLowerCase() || "";
  if (format !== "" && format !== "json" && format !== "pretty")
    throw new Error(`ALMANAC_LOG_FORMAT must be "json" or "pretty"; got "${env.ALMANAC_LOG_FORMAT}".`);
  const pretty = format === "" ? terminal || env.NODE_ENV === "development" : format === "pretty";
  return { level: levelText as LogLevel, pretty };
}

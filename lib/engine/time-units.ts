// Units of time, named once: moments and durations are epoch milliseconds, maintenance windows
// and the schedule count seconds of the UTC day, the window editor minutes of the day.

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export const MINUTE_SECONDS = 60;
export const HOUR_SECONDS = 60 * MINUTE_SECONDS;
export const DAY_SECONDS = 24 * HOUR_SECONDS;

export const DAY_MINUTES = 24 * 60;

// How long a sign-in lasts at most, however much it is used: ALMANAC_SESSION_MAX_HOURS (default
// 12, as NIST SP 800-63B asks of a password sign-in). The idle limit (8 hours, moved on by use)
// is better-auth's; this one is counted from the sign-in and never moves.
import { HOUR_MS } from "../engine/time-units.ts";

const VARIABLE = "ALMANAC_SESSION_MAX_HOURS";
export const DEFAULT_SESSION_MAX_HOURS = 12;

type Env = Readonly<Record<string, string | undefined>>;

/** The absolute lifetime in ms; throws an error naming the variable when its value is not 1 to 720 hours. */
export function sessionMaxMs(env: Env = process.env): number {
  const text = env[VARIABLE]?.trim();
  if (!text) return DEFAULT_SESSION_MAX_HOURS * HOUR_MS;
  const hours = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || hours < 1 || hours > 720)
    throw new Error(`${VARIABLE} "${env[VARIABLE]}" must be a number of hours from 1 to 720.`);
  return hours * HOUR_MS;
}

/** Whether a session signed in at `createdAt` has outlived the absolute lifetime at `now`. */
export const outlived = (createdAt: Date, now: Date, maxMs: number): boolean =>
  now.getTime() - createdAt.getTime() >= maxMs;

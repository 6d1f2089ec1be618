// How long a sign-in lasts at most, however much it is used: ALMANAC_SESSION_MAX_HOURS (default
// 12, as NIST SP 800-63B asks of a password sign-in; read by lib/config). The idle limit (8 hours,
// moved on by use) is better-auth's; this one is counted from the sign-in and never moves.

/** Whether a session signed in at `createdAt` has outlived the absolute lifetime at `now`. */
export const outlived = (createdAt: Date, now: Date, maxMs: number): boolean =>
  now.getTime() - createdAt.getTime() >= maxMs;

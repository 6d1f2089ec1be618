// ALMANAC_ADMIN_TOKEN: a value the operator sets at start that acts as an admin's API token, for
// automation and tests. Too short a value is refused: it would be guessable.
import { timingSafeEqual } from "node:crypto";

export const ADMIN_TOKEN_MIN_LENGTH = 16;

/** The configured admin token; throws when it is set but too short. */
export function adminToken(): string | undefined {
  const value = process.env.ALMANAC_ADMIN_TOKEN;
  if (value === undefined || value === "") return undefined;
  if (value.length < ADMIN_TOKEN_MIN_LENGTH) {
    throw new Error(`ALMANAC_ADMIN_TOKEN must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters long.`);
  }
  return value;
}

/** Compares in constant time, so the answer's timing tells nothing about the token. */
export function isAdminToken(candidate: string): boolean {
  const expected = adminToken();
  if (expected === undefined) return false;
  const a = Buffer.from(candidate, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

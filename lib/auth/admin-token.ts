// ALMANAC_ADMIN_TOKEN: a value the operator sets at start that acts as an admin's API token, for
// automation and tests. lib/config refuses a value too short to be a secret.
import { timingSafeEqual } from "node:crypto";
import { config } from "../config/load-config.ts";

/** Compares in constant time, so the answer's timing tells nothing about the token. */
export function isAdminToken(candidate: string, expected = config().signIn.adminToken): boolean {
  if (expected === undefined) return false;
  const a = Buffer.from(candidate, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

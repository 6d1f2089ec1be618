// Whether a person's identity is vouched for by the company's identity provider (they have signed
// in with it) rather than only by Almanac (a built-in password account an Almanac admin made).
// A live garden impersonates only the first under their own name: an Almanac admin must not be
// able to act in the garden as anyone by making an account with their email.
import { config } from "../config/load-config.ts";
import type { Queryable } from "../db/client.ts";
import { OIDC_PROVIDER_ID } from "./oidc-config.ts";

const KEEP_MS = 60_000;
const known = new Map<string, { until: number; company: boolean }>();

export async function signedInWithCompany(db: Queryable, userId: string, now = Date.now()): Promise<boolean> {
  if (!config().signIn.oidcIssuer) return false;
  const hit = known.get(userId);
  if (hit && hit.until > now) return hit.company;
  const company = (await db.account.count({ where: { userId, providerId: OIDC_PROVIDER_ID } })) > 0;
  if (known.size > 10_000) known.clear(); // only bounds memory
  known.set(userId, { until: now + KEEP_MS, company });
  return company;
}

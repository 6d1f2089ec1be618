// Whether a person's identity is vouched for by the company's identity provider (they have signed
// in with it) rather than only by Almanac (a built-in password account an Almanac admin made).
// A live garden impersonates only the first under their own name: an Almanac admin must not be
// able to act in the garden as anyone by making an account with their email.
import { LRUCache } from "lru-cache";
import { config } from "../config/load-config.ts";
import type { Queryable } from "../db/client.ts";
import { OIDC_PROVIDER_ID } from "./oidc-config.ts";

// Each answer is kept a minute; the least recently asked go first beyond 10,000 people.
const known = new LRUCache<string, boolean>({ max: 10_000, ttl: 60_000 });

export async function signedInWithCompany(db: Queryable, userId: string): Promise<boolean> {
  if (!config().signIn.oidcIssuer) return false;
  const hit = known.get(userId);
  if (hit !== undefined) return hit;
  const company = (await db.account.count({ where: { userId, providerId: OIDC_PROVIDER_ID } })) > 0;
  known.set(userId, company);
  return company;
}

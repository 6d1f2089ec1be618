// A person's OIDC ID token from their last company sign-in (better-auth keeps it in the accounts
// table), for a garden that trusts the same issuer: the garden then sees the person themselves.
// ID tokens are short-lived and Almanac cannot renew them; an expired one means signing in again.
import type { Queryable } from "../db/client.ts";
import { OIDC_PROVIDER_ID } from "./oidc-config.ts";

export type IdTokenLookup =
  | { readonly kind: "token"; readonly token: string }
  /** The token has expired (or will within the margin), or its expiry cannot be read. */
  | { readonly kind: "expired" }
  /** The person has never signed in with the company's identity. */
  | { readonly kind: "none" };

/** A token this close to its expiry is not sent: it could expire on the way. */
const MARGIN_MS = 30_000;

/** The `exp` claim of a JWT, in epoch ms; undefined when it cannot be read. */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split(".")[1];
  if (!payload) return undefined;
  try {
    const exp = (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { exp?: unknown }).exp;
    return typeof exp === "number" && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export async function personsIdToken(db: Queryable, userId: string, now: number): Promise<IdTokenLookup> {
  const account = await db.account.findFirst({
    where: { userId, providerId: OIDC_PROVIDER_ID },
    select: { idToken: true },
    orderBy: { updatedAt: "desc" },
  });
  if (!account) return { kind: "none" };
  const token = account.idToken;
  const expiry = token ? jwtExpiry(token) : undefined;
  if (!token || expiry === undefined || expiry - MARGIN_MS <= now) return { kind: "expired" };
  return { kind: "token", token };
}

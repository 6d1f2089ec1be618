// Who is asking: a signed-in person (session cookie, or a trusted proxy's word), an API token or
// the admin token (Authorization: Bearer), or nobody. Route handlers, the event stream and the
// pages all ask here.
import { LRUCache } from "lru-cache";
import { config } from "../config/load-config.ts";
import { outlived } from "./session-lifetime.ts";
import type { Db } from "../db/client.ts";
import { findUsableToken, noteTokenUse } from "../store/api-tokens.ts";
import { bindingsOf } from "../store/role-bindings.ts";
import { signedInWithCompany } from "./company-sign-in.ts";
import { isAdminToken } from "./admin-token.ts";
import { auth } from "./better-auth.ts";
import { personBindings } from "./group-roles.ts";
import { proxyIdentity } from "./proxy-headers.ts";
import { proxyPerson } from "./proxy-user.ts";
import { type Binding, isRole, LANDSCAPE } from "./roles.ts";
import { tokenHash } from "./token-hash.ts";

export type Principal =
  | {
      readonly kind: "user";
      readonly id: string;
      readonly name: string;
      readonly email: string;
      /** Their company groups (OIDC sign-in, or the trusted proxy's header), which may bring roles. */
      readonly groups: readonly string[];
      readonly bindings: readonly Binding[];
      /** "proxy" when a trusted proxy named them (there is no session to end); else a session. */
      readonly via?: "proxy";
      /** Whether the company vouches for who they are (the trusted proxy, or company sign-in). */
      readonly company?: boolean;
    }
  | { readonly kind: "token"; readonly id: string; readonly name: string; readonly bindings: readonly Binding[] }
  | { readonly kind: "admin-token"; readonly name: string; readonly bindings: readonly Binding[] };

export const ADMIN_TOKEN_PRINCIPAL: Principal = {
  kind: "admin-token",
  name: "admin token",
  bindings: [{ role: "admin", scope: LANDSCAPE }],
};

/** The name the audit log records: the person's email, or the token's name. */
export function actorOf(principal: Principal): string {
  if (principal.kind === "user") return principal.email;
  if (principal.kind === "token") return `token:${principal.name}`;
  return "admin-token";
}

// When this process last noted each token's use: the database is asked at most once a minute per
// token and process, not on every request a busy script makes.
const USE_NOTE_MS = 60_000;
// The request's own clock decides (identify's `now`); the cache only bounds how many it remembers.
const noted = new LRUCache<string, number>({ max: 10_000 });

async function noteUse(db: Db, id: string, now: Date): Promise<void> {
  const last = noted.get(id);
  if (last !== undefined && now.getTime() - last < USE_NOTE_MS) return;
  noted.set(id, now.getTime());
  await noteTokenUse(db, id, now);
}

/**
 * The principal behind these request headers, or undefined for an anonymous request or one whose
 * token or session is not (or no longer) valid. The database is asked only when needed (not for
 * the admin token, nor for a request without credentials).
 *
 * The request's own credentials win over the trusted proxy's word. A bearer token says exactly
 * who acts (a script's token keeps its own narrow role even when it runs behind the proxy), and a
 * wrong one is refused rather than quietly turned into the person. A valid session is a sign-in
 * the person made in this browser on purpose (a built-in account, say an admin's); signing out
 * of it leaves them the proxy's person. A cookie without a valid session does not refuse: the
 * proxy's own cookies reach Almanac too.
 */
export async function identify(database: () => Db, headers: Headers, now = new Date()): Promise<Principal | undefined> {
  const principal = await credentialsOf(database, headers, now);
  if (principal || headers.has("authorization")) return principal;
  const identity = proxyIdentity(headers);
  if (!identity) return undefined;
  return {
    kind: "user",
    ...(await proxyPerson(database(), identity)),
    groups: identity.groups,
    via: "proxy",
    company: true,
  };
}

/** The principal of the request's bearer token or session cookie. */
async function credentialsOf(database: () => Db, headers: Headers, now: Date): Promise<Principal | undefined> {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) return undefined;
    if (isAdminToken(match[1])) return ADMIN_TOKEN_PRINCIPAL;
    const db = database();
    const token = await findUsableToken(db, tokenHash(match[1]), now);
    if (!token || !isRole(token.role)) return undefined;
    await noteUse(db, token.id, now);
    return { kind: "token", id: token.id, name: token.name, bindings: [{ role: token.role, scope: token.scope }] };
  }
  if (!headers.get("cookie")) return undefined;
  const db = database();
  const session = await (await auth(db)).api.getSession({ headers });
  if (!session) return undefined;
  // Past the absolute lifetime the session ends, however recently it was used.
  if (outlived(session.session.createdAt, now, config().signIn.sessionMaxMs)) {
    await db.session.deleteMany({ where: { id: session.session.id } });
    return undefined;
  }
  const { user } = session;
  return {
    kind: "user",
    id: user.id,
    name: user.name,
    email: user.email,
    groups: user.groups ?? [],
    company: await signedInWithCompany(db, user.id),
    // Roles granted to the person, and those their company groups bring (ALMANAC_GROUP_ROLES).
    bindings: personBindings(await bindingsOf(db, user.id), user.groups ?? []),
  };
}

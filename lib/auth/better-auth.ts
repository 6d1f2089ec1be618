// People sign in through better-auth (chosen in docs/architecture.md): built-in accounts with
// email and password (scrypt hashes), sessions in Postgres behind an HttpOnly cookie, sign-in
// attempts rate-limited across every web process, and the cookie signed with a secret made once
// per database. Self sign-up with a password is off: the first admin comes from the setup link,
// others from an admin. With an OIDC issuer configured (lib/auth/oidc-config.ts), people also sign
// in with the company's identity; their first sign-in makes their account, and every sign-in
// renews their groups, which bring roles through ALMANAC_GROUP_ROLES.
import { prismaAdapter } from "@better-auth/prisma-adapter";
import { betterAuth } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins";
import { isSafeNext } from "../api/safe-next.ts";
import { passwordProblem } from "../api/password-policy.ts";
import type { Db } from "../db/client.ts";
import { setGroups } from "../store/accounts.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { authSecret } from "./auth-secret.ts";
import { CLIENT_ADDRESS_HEADER, clientAddressOf } from "./client-address.ts";
import { holdGroups, takeGroups } from "./groups-at-sign-in.ts";
import { config } from "../config/load-config.ts";
import { groupsOfClaim, OIDC_PROVIDER_ID, type OidcConfig, oidcConfig } from "./oidc-config.ts";
import { signInFailed, signInSucceeded, signInWait, typedAccount } from "./sign-in-throttle.ts";

/** How long a session lasts without use, and how often its expiry moves on while in use. */
export const SESSION_SECONDS = 8 * 3600;
const SESSION_REFRESH_SECONDS = 3600;

/** better-auth's generic OAuth plugin for the configured issuer, its ID tokens verified. */
function companySignIn(oidc: OidcConfig) {
  return genericOAuth({
    config: [
      {
        providerId: OIDC_PROVIDER_ID,
        name: oidc.displayName,
        discoveryUrl: `${oidc.issuer}/.well-known/openid-configuration`,
        requireIdTokenVerification: true,
        clientId: oidc.clientId,
        clientSecret: oidc.clientSecret,
        scopes: [...oidc.scopes],
        pkce: true,
        // Name and groups follow the company's identity at every sign-in.
        overrideUserInfo: true,
        mapProfileToUser: (profile) => {
          if (typeof profile.email === "string") holdGroups(profile.email, groupsOfClaim(profile[oidc.groupsClaim]));
          return {
            name:
              [profile.name, profile.preferred_username, profile.email].find(
                (n): n is string => typeof n === "string" && n !== "",
              ) ?? String(profile.sub),
          };
        },
      },
    ],
  });
}

/** The paths that end a sign-in attempt: with a password, or back from the company's issuer. */
const SIGN_IN_PATHS = new Set(["/sign-in/email", "/callback/:id"]);

/** Where better-auth may send a browser afterwards: each must be a path of this site (lib/api/safe-next.ts). */
const REDIRECT_FIELDS = ["callbackURL", "errorCallbackURL", "newUserCallbackURL", "redirectTo"] as const;

function refuseOffSiteRedirects(body: Record<string, unknown> | undefined, query: Record<string, unknown> | undefined) {
  for (const field of REDIRECT_FIELDS) {
    const value = body?.[field] ?? query?.[field];
    if (value !== undefined && (typeof value !== "string" || !isSafeNext(value)))
      throw new APIError("BAD_REQUEST", { message: `${field} must be a path of this site.` });
  }
}

const clientOf = (request: Request | undefined) => (request ? clientAddressOf(request.headers) : undefined);

async function createAuth(db: Db) {
  const publicUrl = config().server.publicUrl;
  const oidc = oidcConfig();
  return betterAuth({
    appName: "Almanac",
    database: prismaAdapter(db, { provider: "postgresql" }),
    secret: await authSecret(db),
    ...(publicUrl ? { baseURL: publicUrl } : {}),
    // With a public URL, only its pages are trusted (and only its addresses are places to send
    // people back to). Without one, Almanac answers on whatever address it is reached by
    // (localhost, 127.0.0.1, a host name): a request is trusted when it comes from that address.
    trustedOrigins: (request) => {
      if (publicUrl) return [publicUrl];
      const host = request?.headers.get("x-forwarded-host") ?? request?.headers.get("host");
      return host ? [`http://${host}`, `https://${host}`] : [];
    },
    user: {
      additionalFields: { groups: { type: "string[]", required: false, input: false, defaultValue: [] } },
    },
    plugins: oidc ? [companySignIn(oidc)] : [],
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: 12,
      maxPasswordLength: 256,
    },
    session: { expiresIn: SESSION_SECONDS, updateAge: SESSION_REFRESH_SECONDS },
    rateLimit: {
      enabled: true,
      storage: "database",
      // Ten tries a minute per client address for signing in (and for changing one's password);
      // the rest of better-auth's paths are lenient. Starting a company sign-in only answers the
      // issuer's address, and the issuer guards its own sign-in: thirty a minute, so a team behind
      // one address is not locked out.
      customRules: {
        "/sign-in/email": { window: 60, max: 10 },
        "/change-password": { window: 60, max: 10 },
        "/sign-in/social": { window: 60, max: 30 },
      },
    },
    advanced: {
      // The client's address is the TCP peer's, or what a trusted proxy says it is: the web server
      // writes it into this header (lib/auth/client-address.ts). A client's X-Forwarded-For is
      // never read; without the header (behind plain `next start`) every client shares one limit.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
      // Secure cookies whenever Almanac is served over https (ALMANAC_PUBLIC_URL says so).
      useSecureCookies: publicUrl?.startsWith("https://") ?? false,
      cookiePrefix: "almanac",
      // better-auth skips its origin and callback-URL checks when NODE_ENV is "test"; Almanac
      // checks them always, so its tests see what a deployment does.
      disableOriginCheck: false,
    },
    // What a company sign-in makes is audited like an admin's change: a new account, or the
    // company identity joined to an existing account of the same (verified) email.
    databaseHooks: {
      user: {
        create: {
          after: async (user, ctx) => {
            if (ctx?.path !== "/callback/:id") return;
            await recordAuditEvent(db, {
              actor: user.email,
              action: "account.create",
              target: { kind: "Account", name: user.email },
              changes: [
                { field: "name", before: null, after: user.name },
                { field: "signed in by", before: null, after: "company sign-in" },
              ],
            });
          },
        },
      },
      account: {
        create: {
          after: async (account, ctx) => {
            if (ctx?.path !== "/callback/:id" || account.providerId !== OIDC_PROVIDER_ID) return;
            const others = await db.account.count({ where: { userId: account.userId, id: { not: account.id } } });
            if (others === 0) return; // the account of a new person, audited above
            const user = await db.user.findUnique({ where: { id: account.userId }, select: { email: true } });
            const email = user?.email ?? account.userId;
            await recordAuditEvent(db, {
              actor: email,
              action: "account.link",
              target: { kind: "Account", name: email },
              changes: [{ field: "company identity", before: null, after: String(account.accountId) }],
            });
          },
        },
      },
    },
    hooks: {
      // A company sign-in goes through the issuer's redirect, with state, PKCE and nonce. better-auth
      // would also take a bare ID token posted to it, which skips all three (and the groups'
      // renewal): refused.
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/sign-in/social" && ctx.body?.idToken !== undefined) {
          throw new APIError("BAD_REQUEST", { message: "Sign in through the issuer's page, not with an ID token." });
        }
        // Sign-in never sends anyone to another site, whatever a link's `next` said.
        refuseOffSiteRedirects(ctx.body, ctx.query);
        // After failed sign-ins to an account, the next try waits (lib/auth/sign-in-throttle.ts);
        // a try during the wait is not checked, nor counted.
        if (ctx.path === "/sign-in/email") {
          const wait = await signInWait(db, typedAccount(ctx.body?.email), clientOf(ctx.request), Date.now());
          if (wait > 0) {
            const seconds = Math.ceil(wait / 1000);
            throw new APIError(
              "TOO_MANY_REQUESTS",
              { message: `Too many failed sign-ins to this account; try again in ${seconds} s.` },
              { "Retry-After": String(seconds) },
            );
          }
        }
        if (ctx.path === "/change-password") {
          const problem =
            typeof ctx.body?.newPassword === "string" ? passwordProblem(ctx.body.newPassword) : "none was sent";
          if (problem) throw new APIError("BAD_REQUEST", { message: `The new password is refused: ${problem}.` });
          // Changing one's password (the current one required) signs out every other session of theirs.
          return { context: { body: { ...ctx.body, revokeOtherSessions: true } } };
        }
      }),
      // Every sign-in, and every failed one, goes to the audit log (never the password). A company
      // sign-in renews the person's groups; a password sign-in drops them, since they were the
      // issuer's word at some earlier sign-in and may be stale.
      after: createAuthMiddleware(async (ctx) => {
        if (!SIGN_IN_PATHS.has(ctx.path) || (ctx.path === "/callback/:id" && !oidc)) return;
        const session = ctx.context.newSession;
        if (session)
          await setGroups(
            db,
            session.user.id,
            ctx.path === "/callback/:id" ? (takeGroups(session.user.email) ?? []) : [],
          );
        // What was typed is recorded only when it is an email address ("(invalid)" else).
        const email = session
          ? session.user.email
          : ctx.path === "/sign-in/email"
            ? typedAccount(ctx.body?.email)
            : "(company identity)";
        const client = clientOf(ctx.request);
        if (session) {
          if (ctx.path === "/sign-in/email") await signInSucceeded(db, typedAccount(ctx.body?.email), client);
        } else {
          // Repeated failures are one row per ten, with their count in the last hour.
          const failures = await signInFailed(db, email, client, Date.now());
          if (failures === undefined) return;
          await recordAuditEvent(db, {
            actor: email,
            action: "auth.sign-in-failed",
            target: { kind: "Account", name: email },
            changes: failures > 1 ? [{ field: "failures in the last hour", before: null, after: failures }] : [],
          });
          return;
        }
        await recordAuditEvent(db, {
          actor: email,
          action: "auth.sign-in",
          target: { kind: "Account", name: email },
          changes: [],
        });
      }),
    },
  });
}

export type Auth = Awaited<ReturnType<typeof createAuth>>;

const holder = globalThis as { almanacAuth?: Promise<Auth> };

/** The better-auth instance of this process (made once, on first use). */
export function auth(db: Db): Promise<Auth> {
  holder.almanacAuth ??= createAuth(db).catch((error) => {
    holder.almanacAuth = undefined;
    throw error;
  });
  return holder.almanacAuth;
}

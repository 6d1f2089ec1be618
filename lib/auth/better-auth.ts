// People sign in through better-auth (chosen in docs/architecture.md): built-in accounts with
// email and password (scrypt hashes), sessions in Postgres behind an HttpOnly cookie, sign-in
// attempts rate-limited across every web process, and the cookie signed with a secret made once
// per database. Self sign-up is off: the first admin comes from the setup link, others from an
// admin.
import { prismaAdapter } from "@better-auth/prisma-adapter";
import { betterAuth } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";
import type { Db } from "../db/client.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { authSecret } from "./auth-secret.ts";

/** How long a session lasts without use, and how often its expiry moves on while in use. */
export const SESSION_SECONDS = 8 * 3600;
const SESSION_REFRESH_SECONDS = 3600;

async function createAuth(db: Db) {
  const publicUrl = process.env.ALMANAC_PUBLIC_URL;
  return betterAuth({
    appName: "Almanac",
    database: prismaAdapter(db, { provider: "postgresql" }),
    secret: await authSecret(db),
    ...(publicUrl ? { baseURL: publicUrl } : {}),
    // Without a public URL, Almanac answers on whatever address it is reached by (localhost,
    // 127.0.0.1, a host name): a request is trusted when it comes from the page of that address.
    trustedOrigins: (request) => {
      const host = request?.headers.get("x-forwarded-host") ?? request?.headers.get("host");
      if (!host) return publicUrl ? [publicUrl] : [];
      return [...(publicUrl ? [publicUrl] : []), `http://${host}`, `https://${host}`];
    },
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 12, maxPasswordLength: 256 },
    session: { expiresIn: SESSION_SECONDS, updateAge: SESSION_REFRESH_SECONDS },
    rateLimit: {
      enabled: true,
      storage: "database",
      // Ten tries a minute per client for signing in; the rest of better-auth's paths are lenient.
      customRules: { "/sign-in/email": { window: 60, max: 10 } },
    },
    advanced: {
      // Secure cookies whenever Almanac is served over https (ALMANAC_PUBLIC_URL says so).
      useSecureCookies: publicUrl?.startsWith("https://") ?? false,
      cookiePrefix: "almanac",
    },
    hooks: {
      // Every sign-in, and every failed one, goes to the audit log (never the password).
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/sign-in/email") return;
        const email = typeof ctx.body?.email === "string" ? ctx.body.email.slice(0, 256) : "(none)";
        const session = ctx.context.newSession;
        await recordAuditEvent(db, {
          actor: session ? session.user.email : email,
          action: session ? "auth.sign-in" : "auth.sign-in-failed",
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

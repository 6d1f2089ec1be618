// Hands /api/auth/* to better-auth (made on first use, with the database's secret), but only the
// paths Almanac's pages use: better-auth serves many more (changing a password or a session,
// linking accounts, handing out the issuer's tokens) that Almanac neither offers nor reviews, and
// an upgrade may add others. Everything else answers 404.
import { auth } from "../auth/better-auth.ts";
import { OIDC_PROVIDER_ID } from "../auth/oidc-config.ts";
import { db } from "../db/client.ts";

const PREFIX = "/api/auth";

const ALLOWED = new Set([
  "POST /sign-in/email",
  "POST /sign-in/social",
  `GET /callback/${OIDC_PROVIDER_ID}`,
  "POST /sign-out",
  "GET /get-session",
  "GET /ok",
  "GET /error",
]);

export async function authHandler(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname.slice(PREFIX.length).replace(/\/+$/, "");
  if (!ALLOWED.has(`${request.method} ${path}`)) {
    return new Response(
      JSON.stringify({ error: "not_found", message: `${request.method} ${PREFIX}${path} is not offered.` }),
      {
        status: 404,
        headers: { "content-type": "application/json" },
      },
    );
  }
  return (await auth(db())).handler(request);
}

// Hands /api/auth/* to better-auth (made on first use, with the database's secret), but only the
// paths Almanac's pages use: better-auth serves many more (resetting a password or listing
// sessions, linking accounts, handing out the issuer's tokens) that Almanac neither offers nor
// reviews, and an upgrade may add others. Everything else answers 404. A body is read here first,
// at most AUTH_BODY_MAX bytes (413 past that, before better-auth parses anything: these paths are
// anonymous), and the client's address reaches better-auth only as the web server found it.
import { CLIENT_ADDRESS_HEADER, clientAddressOf } from "../auth/client-address.ts";
import { auth } from "../auth/better-auth.ts";
import { OIDC_PROVIDER_ID } from "../auth/oidc-config.ts";
import { db } from "../db/client.ts";
import { Refusal } from "../api/refusal.ts";
import { refusalAnswer } from "./refusal-answer.ts";
import { readCappedBody } from "./request-body.ts";

const PREFIX = "/api/auth";

/** An email, a password and a few fields of JSON: 16 KiB is far more than any of them needs. */
export const AUTH_BODY_MAX = 16 * 1024;

const ALLOWED = new Set([
  "POST /sign-in/email",
  "POST /sign-in/social",
  `GET /callback/${OIDC_PROVIDER_ID}`,
  "POST /sign-out",
  "POST /change-password",
  "GET /get-session",
  "GET /ok",
  "GET /error",
]);

const answer = (status: number, error: string, message: string) =>
  new Response(JSON.stringify({ error, message }), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });

export async function authHandler(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname.slice(PREFIX.length).replace(/\/+$/, "");
  if (!ALLOWED.has(`${request.method} ${path}`)) {
    return answer(404, "not_found", `${request.method} ${PREFIX}${path} is not offered.`);
  }
  let body: Buffer | undefined;
  if (request.method === "POST") {
    try {
      body = await readCappedBody(request, AUTH_BODY_MAX);
    } catch (error) {
      if (error instanceof Refusal) {
        const { status, title, detail } = refusalAnswer(error);
        return answer(status, title, detail);
      }
      throw error;
    }
  }
  // The address header as the web server stamped it, or none (a client's copy never passes).
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_ADDRESS_HEADER);
  const client = clientAddressOf(request.headers);
  if (client) headers.set(CLIENT_ADDRESS_HEADER, client);
  const response = await (
    await auth(db())
  ).handler(
    new Request(request.url, {
      method: request.method,
      headers,
      body: body ? new Uint8Array(body) : undefined,
      signal: request.signal,
    }),
  );
  // Sessions and the person they belong to are nobody's to keep: no cache keeps them.
  const answered = new Response(response.body, response);
  answered.headers.set("cache-control", "no-store");
  return answered;
}

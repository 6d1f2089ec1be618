// The Content-Security-Policy of every response, with a nonce made per request.
//
// Next.js renders inline scripts into every page (the React Server Components payload,
// `self.__next_f.push(...)`, and its bootstrap), different on every render, so neither a fixed
// list of hashes nor `script-src 'self'` alone lets the page run, and 'unsafe-inline' would let
// any injected script run too. Next's answer is a nonce: it reads the request's
// Content-Security-Policy header while rendering and puts the nonce in it on each of its scripts
// (next/dist/server/app-render/get-script-nonce-from-header.js). So whoever receives the request
// before Next (scripts/web-worker.mjs) sets the same policy on the request and on the response,
// and pages must be rendered per request (app/layout.tsx), never prerendered without a nonce.
import { randomFillSync } from "node:crypto";

const NONCE_BYTES = 18;
// Drawn from the system's generator for 256 nonces at once: each nonce is still fresh random
// bytes, used once, while asking for them request by request took ~1 % of a loaded web process.
const pool = Buffer.alloc(NONCE_BYTES * 256);
let drawn = pool.length;

export function newNonce(): string {
  if (drawn === pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  drawn += NONCE_BYTES;
  return pool.toString("base64", drawn - NONCE_BYTES, drawn);
}

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    // The framework's chunks come from /_next/static ('self'); its inline scripts carry the nonce.
    `script-src 'self' 'nonce-${nonce}'`,
    // Style sheets are files (Next puts the nonce on its <link>s too), but the server-rendered
    // HTML has style attributes (the virtual fleet table's row heights and offsets, progress
    // bars), which no nonce or hash can allow: style-src-attr needs 'unsafe-inline'. Browsers
    // that know only style-src (before CSP level 3) fall back to its 'unsafe-inline'; the others
    // refuse inline <style> elements without the nonce.
    "style-src 'self' 'unsafe-inline'",
    `style-src-elem 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

interface NodeRequest {
  headers: Record<string, string | string[] | undefined>;
}

interface NodeResponse {
  setHeader(name: string, value: string): unknown;
}

/** Gives `request` and `response` one fresh policy; Next renders the page with its nonce. */
export function applyContentSecurityPolicy(request: NodeRequest, response: NodeResponse): void {
  const policy = contentSecurityPolicy(newNonce());
  // Whatever policy the client sent is replaced: a nonce it chose would be no secret.
  request.headers["content-security-policy"] = policy;
  delete request.headers["content-security-policy-report-only"];
  response.setHeader("Content-Security-Policy", policy);
}

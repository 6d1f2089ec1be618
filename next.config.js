// ESM because package.json has "type": "module".
// Telemetry is switched off in the npm scripts (NEXT_TELEMETRY_DISABLED=1): the machines are offline.

// Security headers on every response. The Content-Security-Policy is not here: it carries a nonce
// made per request, set by the server in front of Next (lib/http/content-security-policy.ts).
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Not no-referrer: that would make browsers send "Origin: null" on same-origin POSTs.
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  // For browsers without CSP's frame-ancestors.
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // One prom-client per process: the web server in front of Next (scripts/web-worker.mjs) answers
  // the cluster's metric asks from the same registry the route handlers count in.
  serverExternalPackages: ["prom-client"],
  // No type check inside `next build`: `npm test` runs `tsc --noEmit` over the whole project
  // (this included) while the build runs, and CI runs `npm test` on every change, so checking
  // again here only doubled the wait. A standalone `npm run build` or `npm start` on a user's
  // machine is still safe: it builds code that CI has type-checked; a contributor's unchecked
  // change is caught by `npm run typecheck` or `npm test`, not by the build.
  typescript: { ignoreBuildErrors: true },
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;

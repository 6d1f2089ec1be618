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
  // Loaded by Node, once per process, not bundled. prom-client: one registry per process, so the
  // web server in front of Next (scripts/web-worker.mjs) answers the cluster's metric asks from the
  // same registry the route handlers count in. The rest are server-only libraries: Turbopack writes
  // the code that many routes share into a chunk per group of routes, byte for byte the same under
  // several names, and a web process holds each copy's source (~3.4 MB, 8 copies, with undici and
  // pg-boss in it). Outside the bundle, a web process peaked 30-50 MB lower in bench:scale.
  // @kubernetes/client-node stays bundled: as a package it loads every API group (a 7 MB source).
  serverExternalPackages: [
    "prom-client",
    "croner",
    "cronstrue",
    "ical-generator",
    "ipaddr.js",
    "nodemailer",
    "pg-boss",
    "pg-copy-streams",
    "semver",
    "undici",
    "yaml",
  ],
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

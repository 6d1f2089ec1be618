// One web server process: the production build of Next.js on PORT. scripts/start.mjs runs
// several of these with node:cluster (they share the port), because one Node process is the
// limit of how many requests a second the app can answer.
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";

// A wrong setting stops this process with exit code 2, naming it (npm start checked them before
// forking; a web process started on its own checks them here).
const { exitOnBadConfig } = await import("../lib/config/load-config.ts");
const settings = exitOnBadConfig();
const { applyContentSecurityPolicy } = await import("../lib/http/content-security-policy.ts");
const { proxyHeaderGuard } = await import("../lib/auth/proxy-headers.ts");
const { answerClientError, refuseLargeBody, refuseMalformedTarget } = await import("../lib/http/malformed-request.ts");
const { peerAddressStamp } = await import("../lib/auth/peer-address.ts");
const { clientAddressStamp } = await import("../lib/auth/client-address.ts");
const { strictTransport } = await import("../lib/http/strict-transport.ts");
const { headersWithBody } = await import("../lib/http/headers-with-body.ts");
const { answerMetricsAsks } = await import("../lib/observability/cluster-metrics.ts");
const { watchPool } = await import("../lib/observability/pool-metrics.ts");
const { serverPool } = await import("../lib/db/server-pool.ts");

const root = path.resolve(import.meta.dirname, "..");
const next = createRequire(import.meta.url)("next");
const port = settings.server.port;

const app = next({ dev: false, dir: root, port });
await app.prepare();
const handle = app.getRequestHandler();
// Only this server sees the TCP peer: a trusted proxy's user header becomes Almanac's internal one
// here, and every other copy of either is dropped (lib/auth/proxy-headers.ts).
const guardProxyHeaders = proxyHeaderGuard();
// The TCP peer, for /metrics' ALMANAC_METRICS_ALLOW (lib/auth/peer-address.ts).
const stampPeerAddress = peerAddressStamp();
// The client's address for the sign-in limits: the peer, or a trusted proxy's X-Forwarded-For
// (lib/auth/client-address.ts).
const stampClientAddress = clientAddressStamp();
const hsts = strictTransport();
// npm start's primary gathers every web process's metrics for one scrape (cluster-metrics.ts),
// this process's database pool among them.
watchPool("web", serverPool);
answerMetricsAsks();
const server = http.createServer((request, response) => {
  if (hsts) response.setHeader("Strict-Transport-Security", hsts);
  if (refuseMalformedTarget(request, response)) return;
  // A body larger than any Almanac reads is refused before Next, or better-auth, reads it.
  if (refuseLargeBody(request, response)) return;
  guardProxyHeaders(request);
  stampPeerAddress(request);
  stampClientAddress(request);
  // Here and not in next.config.js headers(): the policy carries a nonce made for this request,
  // which Next reads from the request to put on its inline scripts.
  applyContentSecurityPolicy(request, response);
  // Next writes the headers on their own; sent with the body they cost one write, not two or three.
  headersWithBody(response);
  return handle(request, response);
});
server.on("clientError", answerClientError);
// Longer than common proxies' idle timeouts, so they never reuse a socket we are closing.
server.keepAliveTimeout = 65_000;
server.listen(port, () => process.send?.({ listening: port }));

// Stop accepting, let answers in flight finish, then go (the primary waits for us). Ctrl-C and a
// closed terminal reach the whole process group: handled alike, so the log's last batch is written.
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"])
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  });

// `npm run bench:load [-- --shoots N --duration S --clients C]`: a mixed load on the production
// build as `npm start` runs it (web processes, scheduler, simulated gardenlet) with 10,000 shoots,
// for 60 s at once: fleet list pages and filters, shoot reads, maintenance window edits, "maintain
// now", and the event stream held open by 200 clients. Prints, per kind of request, throughput,
// p50 and p99 latency, and answers by class; the event stream's clients, events and drops.
// Goal (issue 16): no errors (no 5xx, no dropped connection), reads p99 < 100 ms.
// autocannon and the stream clients run in this process, on the same two cores as the server.
import autocannon from "autocannon";
import { parseArgs } from "node:util";
import { config } from "../lib/config/load-config.ts";
import { ADMIN_HEADERS } from "../tests/support/api-client.ts";
import { startAlmanac } from "../tests/support/app-server.ts";
import { benchLandscape } from "./bench-landscape.ts";
import { ensureBuild } from "./next-build.mjs";

const { values } = parseArgs({
  options: {
    shoots: { type: "string", default: "10000" },
    duration: { type: "string", default: "60" },
    clients: { type: "string", default: "200" },
  },
});
const shoots = Number(values.shoots);
const duration = Number(values.duration);
const streamClients = Number(values.clients);

ensureBuild();
const landscape = await benchLandscape("load", shoots);

interface Kind {
  readonly name: string;
  readonly read: boolean;
  readonly connections: number;
  readonly requests: autocannon.Request[];
}

/** The event stream's clients: each reads until stopped, counting events and drops. */
function holdStreams(baseUrl: string, count: number) {
  const stop = new AbortController();
  const stats = { connected: 0, events: 0, dropped: 0, failed: 0 };
  const one = async () => {
    try {
      const response = await fetch(`${baseUrl}/api/v1/events`, { headers: ADMIN_HEADERS, signal: stop.signal });
      if (!response.ok || !response.body) {
        stats.failed += 1;
        return;
      }
      stats.connected += 1;
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read())
        stats.events += (decoder.decode(next.value, { stream: true }).match(/^event: /gm) ?? []).length;
      if (!stop.signal.aborted) stats.dropped += 1;
    } catch (error) {
      if (!stop.signal.aborted) stats[(error as Error).name === "TypeError" ? "failed" : "dropped"] += 1;
    }
  };
  const all = Promise.all(Array.from({ length: count }, one));
  return {
    stats,
    stop: async () => {
      stop.abort();
      await all;
    },
  };
}

let exitCode = 0;
const app = await startAlmanac({ DATABASE_URL: landscape.url });
try {
  const headers = { ...ADMIN_HEADERS, accept: "application/json" };
  const sample = (await (await fetch(`${app.baseUrl}/api/v1/shoots?limit=500`, { headers })).json()) as {
    items: { namespace: string; name: string }[];
  };
  const pick = (n: number, offset: number) => sample.items.slice(offset, offset + n);
  const shootUrl = (s: { namespace: string; name: string }) => `/api/v1/namespaces/${s.namespace}/shoots/${s.name}`;
  // One-hour windows at 01:00, 02:00 or 03:00 UTC, in turn.
  const windows = [1, 2, 3].map((h) => ({ begin: `0${h}0000+0000`, end: `0${h + 1}0000+0000` }));
  const kinds: Kind[] = [
    {
      name: "fleet list pages and filters",
      read: true,
      connections: 4,
      requests: [
        "/api/v1/shoots?limit=50",
        "/api/v1/shoots?limit=50&status=unhealthy",
        "/api/v1/shoots?limit=50&q=prod",
        "/api/v1/shoots?limit=50&sort=expiry",
        "/api/v1/shoots?limit=50&cloudProfile=aws&expiringWithinDays=30",
        "/api/v1/shoots/summary",
      ].map((path) => ({ method: "GET", path, headers })),
    },
    {
      name: "shoot reads",
      read: true,
      connections: 4,
      requests: pick(100, 0).map((s) => ({ method: "GET", path: shootUrl(s), headers })),
    },
    {
      name: "window edits (PATCH)",
      read: false,
      connections: 2,
      requests: pick(50, 100).map((s, i) => ({
        method: "PATCH",
        path: shootUrl(s),
        headers: { ...headers, "content-type": "application/merge-patch+json" },
        body: JSON.stringify({
          spec: { maintenance: { timeWindow: windows[i % 3] } },
        }),
      })),
    },
    {
      name: "maintain now (POST)",
      read: false,
      connections: 1,
      requests: pick(50, 150).map((s) => ({ method: "POST", path: `${shootUrl(s)}/maintain`, headers })),
    },
  ];

  const streams = holdStreams(app.baseUrl, streamClients);
  // Let the stream clients connect and everything warm up before measuring.
  await new Promise((r) => setTimeout(r, 5_000));
  const results = await Promise.all(
    kinds.map(async (kind) => {
      const r = await autocannon({
        url: app.baseUrl,
        connections: kind.connections,
        duration,
        requests: kind.requests,
      });
      return {
        kind,
        total: r.requests.total,
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        ok: r["2xx"],
        clientErrors: r["4xx"],
        serverErrors: r["5xx"],
        socketErrors: r.errors + r.timeouts,
        // Which refusals, by status ("409×12"): a 4xx is an answer, but the reader wants to know.
        refusals: Object.entries((r as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {})
          .filter(([code]) => Number(code) >= 400)
          .map(([code, stat]) => `${code}×${stat.count}`)
          .join(" "),
      };
    }),
  );
  const during = { ...streams.stats };
  await streams.stop();

  console.log(
    `\n${shoots} shoots, ${duration} s, ${streamClients} event-stream clients, ` +
      `${config().server.webWorkers} web processes\n`,
  );
  console.log(
    "kind".padEnd(32) +
      "requests".padStart(10) +
      "req/s".padStart(8) +
      "p50 ms".padStart(8) +
      "p99 ms".padStart(8) +
      "2xx".padStart(8) +
      "4xx".padStart(7) +
      "5xx".padStart(6) +
      "socket".padStart(8),
  );
  for (const r of results)
    console.log(
      r.kind.name.padEnd(32) +
        String(r.total).padStart(10) +
        r.rps.toFixed(0).padStart(8) +
        String(r.p50).padStart(8) +
        String(r.p99).padStart(8) +
        String(r.ok).padStart(8) +
        String(r.clientErrors).padStart(7) +
        String(r.serverErrors).padStart(6) +
        String(r.socketErrors).padStart(8) +
        (r.refusals ? `  ${r.refusals}` : ""),
    );
  console.log(
    `event stream: ${during.connected} of ${streamClients} connected, ${during.events} events received, ` +
      `${during.dropped} dropped, ${during.failed} refused`,
  );
  const errors = results.reduce((n, r) => n + r.serverErrors + r.socketErrors, 0) + during.dropped + during.failed;
  const slowest = Math.max(...results.filter((r) => r.kind.read).map((r) => r.p99));
  console.log(
    `\ngoal: no errors (${errors}: ${errors === 0 ? "met" : "NOT met"}), reads p99 < 100 ms (${slowest} ms: ${slowest < 100 ? "met" : "NOT met"})`,
  );
  if (errors > 0) exitCode = 1;
} finally {
  await app.stop().catch(() => {});
  await landscape.drop();
}
process.exit(exitCode);

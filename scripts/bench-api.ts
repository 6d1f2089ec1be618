// `npm run bench:api`: seeds 10,000 shoots, serves the production build, and loads it with
// autocannon: the fleet list (50 rows, status filter) with and without the list cache, one
// shoot, Next's own /healthz, and, for scale, a trivial Node http server in the same run.
// Prints requests/s, p50/p99 latency and the ratio to the trivial server.
// Goal (issue 3): list p99 < 50 ms and >= 1,500 requests/s on this 2-core machine.
// autocannon runs in this process, on the same two cores as the server and PostgreSQL.
import autocannon from "autocannon";
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { config } from "../lib/config/load-config.ts";
import { freePort, startAlmanac, waitFor } from "../tests/support/app-server.ts";
import { benchLandscape } from "./bench-landscape.ts";
import { ensureBuild } from "./next-build.mjs";

const { values } = parseArgs({
  options: {
    shoots: { type: "string", default: "10000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
  },
});
const shoots = Number(values.shoots);
const duration = Number(values.duration);
const connections = Number(values.connections);

ensureBuild();
const landscape = await benchLandscape("bench", shoots);

let exitCode = 0;
const cleanups: (() => Promise<unknown>)[] = [];
try {
  // The app as `npm start` serves it (scripts/start.mjs: its web processes on the database).
  const app = await startAlmanac({ DATABASE_URL: landscape.url });
  cleanups.push(() => app.stop());
  const uncached = await startAlmanac({ DATABASE_URL: landscape.url, ALMANAC_ANSWER_CACHE: "off" });
  cleanups.push(() => uncached.stop());
  const trivialPort = await freePort();
  const trivial = spawn(
    process.execPath,
    [
      "-e",
      `require("node:http").createServer((q, s) => { s.setHeader("content-type", "application/json"); s.end('{"status":"ok"}'); }).listen(${trivialPort}, "127.0.0.1")`,
    ],
    { stdio: "ignore" },
  );
  cleanups.push(async () => trivial.kill());
  await waitFor(`http://127.0.0.1:${trivialPort}/`, 10_000);

  const sample = await (await fetch(`${app.baseUrl}/api/v1/shoots?status=healthy&limit=1`)).json();
  const one = sample.items[0];
  const list = "/api/v1/shoots?status=healthy&limit=50";
  const targets = [
    { name: "trivial node:http", url: `http://127.0.0.1:${trivialPort}/` },
    { name: "GET /healthz (Next, no database)", url: `${app.baseUrl}/healthz` },
    { name: `GET ${list}`, url: `${app.baseUrl}${list}` },
    { name: "  the same, answer cache off", url: `${uncached.baseUrl}${list}` },
    {
      name: "GET /api/v1/namespaces/{ns}/shoots/{name}",
      url: `${app.baseUrl}/api/v1/namespaces/${one.namespace}/shoots/${one.name}`,
    },
  ];
  const results: { name: string; rps: number; p50: number; p99: number; errors: number }[] = [];
  for (const target of targets) {
    // Warm up (JIT, connection pool, profile cache), then measure.
    await autocannon({ url: target.url, connections, duration: 2 });
    const r = await autocannon({ url: target.url, connections, duration });
    results.push({
      name: target.name,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.non2xx,
    });
  }
  const base = results[0].rps;
  console.log(
    `\n${shoots} shoots, ${connections} connections, ${duration} s per target (after a 2 s warm-up), ` +
      `${config().server.webWorkers} web processes\n`,
  );
  console.log(
    "target".padEnd(48) +
      "req/s".padStart(10) +
      "p50 ms".padStart(9) +
      "p99 ms".padStart(9) +
      "vs trivial".padStart(12) +
      "errors".padStart(8),
  );
  for (const r of results) {
    console.log(
      r.name.padEnd(48) +
        r.rps.toFixed(0).padStart(10) +
        String(r.p50).padStart(9) +
        String(r.p99).padStart(9) +
        `${((r.rps / base) * 100).toFixed(1)}%`.padStart(12) +
        String(r.errors).padStart(8),
    );
  }
  const listed = results[2];
  console.log(
    `\nlist goal: p99 < 50 ms (${listed.p99} ms: ${listed.p99 < 50 ? "met" : "NOT met"}), >= 1,500 req/s (${listed.rps.toFixed(0)}: ${listed.rps >= 1500 ? "met" : "NOT met"})`,
  );
  if (results.some((r) => r.errors > 0)) exitCode = 1;
} finally {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  await landscape.drop();
}
process.exit(exitCode);

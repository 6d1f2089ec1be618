// A database that stops answering (its processes paused, not gone) turns requests into a 503
// problem with Retry-After within seconds, never a hang; once it answers again, so does the API.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb } from "../../lib/db/client.ts";
import { startTemporaryPostgres } from "../../lib/db/embedded-postgres.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { TEST_ADMIN_TOKEN } from "../support/api-client.ts";
import { type AppServer, startWebServer } from "../support/app-server.ts";
import { smallLandscape } from "../support/small-landscape.ts";

let postgres: Awaited<ReturnType<typeof startTemporaryPostgres>>;
let server: AppServer;
let paused: number[] = [];

beforeAll(async () => {
  postgres = await startTemporaryPostgres();
  await migrate(postgres.url);
  const db = createDb(postgres.url, 2);
  const now = Date.now();
  await seedLandscape(db, smallLandscape(now, 3), { actor: "test", now });
  await db.$disconnect();
  server = await startWebServer(postgres.url, { ALMANAC_DB_TIMEOUT_MS: "2000" });
}, 180_000);
afterAll(async () => {
  resume();
  await server?.stop();
  await postgres?.stop();
});

/** The server process and every process it started (its backends and helpers). */
function serverProcesses(): number[] {
  const postmaster = Number(
    readFileSync(path.join(postgres.dataDir, "postgres/postmaster.pid"), "utf8").split("\n")[0],
  );
  const children = execFileSync("pgrep", ["-P", String(postmaster)], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map(Number);
  return [postmaster, ...children];
}

function resume(): void {
  for (const pid of paused) process.kill(pid, "SIGCONT");
  paused = [];
}

const get = (url: string) =>
  fetch(`${server.baseUrl}${url}`, {
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    signal: AbortSignal.timeout(30_000),
  });

it("answers 503 with Retry-After within seconds while the database is paused, and recovers by itself", async () => {
  expect((await get("/api/v1/shoots")).status).toBe(200);

  paused = serverProcesses();
  for (const pid of paused) process.kill(pid, "SIGSTOP");
  for (const url of ["/api/v1/shoots", "/api/v1/namespaces/garden-dev/shoots/cluster-1"]) {
    const started = Date.now();
    const response = await get(url);
    const seconds = (Date.now() - started) / 1000;
    expect(response.status, url).toBe(503);
    expect(response.headers.get("retry-after"), url).toMatch(/^\d+$/);
    expect(response.headers.get("content-type"), url).toContain("application/problem+json");
    const problem = (await response.json()) as { status: number; detail: string };
    expect(problem.status).toBe(503);
    expect(problem.detail).not.toMatch(/at .*\.(js|ts):\d+/); // no stack
    expect(seconds, url).toBeLessThan(10);
  }
  const readiness = await get("/readyz");
  expect(readiness.status).toBe(503);

  resume();
  const until = Date.now() + 30_000;
  let status = 0;
  while (Date.now() < until && status !== 200) {
    status = (await get("/api/v1/shoots")).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  expect(status).toBe(200);
}, 120_000);

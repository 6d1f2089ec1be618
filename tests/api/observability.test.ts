// npm start as it runs for real (two web processes and the primary with the job worker), watched
// the way an operator would: its JSON log lines name each request's id and actor, /metrics is
// refused to everyone but an admin, and one scrape sums every process of the cluster (the web
// processes' request counts and the primary's maintenance runs alike), with the gauges read at
// that moment.
import http from "node:http";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ADMIN_HEADERS, call, TEST_ADMIN_TOKEN } from "../support/api-client.ts";
import { type AppServer, startAlmanac } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { tokenHeader } from "../support/tokens.ts";

let database: TestDatabase;
let almanac: AppServer;
let viewer: { authorization: string };

beforeAll(async () => {
  database = await createTestDatabase();
  viewer = await tokenHeader(database.db, "metrics-viewer", "viewer");
  almanac = await startAlmanac({
    DATABASE_URL: database.url,
    ALMANAC_WEB_WORKERS: "2",
    ALMANAC_LOG_FORMAT: "json",
    ALMANAC_LOG_LEVEL: "debug",
    // Not this test's address: every scrape here needs credentials.
    ALMANAC_METRICS_ALLOW: "192.0.2.0/24",
  });
}, 180_000);

afterAll(async () => {
  await almanac?.stop();
  await database?.drop();
});

/** The JSON lines the processes wrote (the log); anything else they printed is left out. */
function logLines(): Record<string, unknown>[] {
  return almanac
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A GET on a connection of its own, so node:cluster hands each to the next web process. */
function getOnNewConnection(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${almanac.baseUrl}${path}`, { agent: false, headers }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", reject);
  });
}

async function scrape(): Promise<string> {
  const response = await call(almanac.baseUrl, "/metrics");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return response.body as string;
}

/** The value of the sample `name{labels}` in `text`, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? "").split(",").filter((l) => l !== "");
    if (wanted.every((w) => have.includes(w)) && have.length === wanted.length) return Number(match[3]);
  }
  return undefined;
}

describe("the log", () => {
  it("puts the request id and actor on every line of a request, and its access line", async () => {
    const refused = await call(almanac.baseUrl, "/api/v1/jobs", {
      headers: { ...viewer, "x-request-id": "observe-refused-1" },
    });
    expect(refused.status).toBe(403);
    const listed = await call(almanac.baseUrl, "/api/v1/jobs", { headers: { "x-request-id": "observe-listed-1" } });
    expect(listed.status).toBe(200);

    // Written at the end of the web process's turn (lib/observability/batched-destination.ts):
    // they may reach this process's pipe just after the answers did.
    await vi.waitFor(() =>
      expect(logLines().filter((l) => l.msg === "request" && /^observe-/.test(String(l.requestId)))).toHaveLength(2),
    );
    const refusedLines = logLines().filter((l) => l.requestId === "observe-refused-1");
    // The problem's debug line and the access line.
    expect(refusedLines.map((l) => l.msg)).toEqual(["problem", "request"]);
    for (const line of refusedLines) expect(line.actor).toBe("token:metrics-viewer");
    expect(refusedLines[1]).toMatchObject({ level: "info", method: "GET", route: "/api/v1/jobs", status: 403 });

    const listedLines = logLines().filter((l) => l.requestId === "observe-listed-1");
    expect(listedLines).toHaveLength(1);
    expect(listedLines[0]).toMatchObject({ actor: "admin-token", route: "/api/v1/jobs", status: 200 });
    expect(typeof listedLines[0].durationMs).toBe("number");
    expect(almanac.output()).not.toContain(TEST_ADMIN_TOKEN);
  });
});

describe("/metrics", () => {
  it("is refused without credentials (401) and to a viewer (403), as problem+json", async () => {
    const anonymous = await call(almanac.baseUrl, "/metrics", { anonymous: true });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-type")).toBe("application/problem+json");
    const byViewer = await call(almanac.baseUrl, "/metrics", { headers: viewer });
    expect(byViewer.status).toBe(403);
    expect(byViewer.headers.get("content-type")).toBe("application/problem+json");
    expect(JSON.stringify(byViewer.body)).not.toContain("http_request_duration_seconds");
  });

  it("counts requests by route template and status, summed over both web processes", async () => {
    const { items } = (await call(almanac.baseUrl, "/api/v1/shoots?limit=1")).body;
    const shoot = `/api/v1/namespaces/${items[0].namespace}/shoots/${items[0].name}`;
    const template = "/api/v1/namespaces/[namespace]/shoots/[name]";
    const before = await scrape();
    const count = (text: string, status: string) =>
      sample(text, "http_request_duration_seconds_count", { method: "GET", route: template, status }) ?? 0;

    const statuses = [];
    for (let i = 0; i < 10; i++) {
      statuses.push(await getOnNewConnection(shoot, { ...ADMIN_HEADERS, "x-request-id": `observe-count-${i}` }));
    }
    statuses.push(await getOnNewConnection(`${shoot}-not-there`, ADMIN_HEADERS));
    expect(statuses).toEqual([...Array(10).fill(200), 404]);
    // Both web processes answered some of them (each line names its process)...
    await vi.waitFor(() =>
      expect(
        logLines().filter((l) => l.msg === "request" && String(l.requestId).startsWith("observe-count-")),
      ).toHaveLength(10),
    );
    const pids = new Set(
      logLines()
        .filter((l) => String(l.requestId).startsWith("observe-count-"))
        .map((l) => l.pid),
    );
    expect(pids.size).toBe(2);

    // ...and every scrape, whichever process it reaches, counts all of them, in one exposition
    // (each metric declared once, however many processes have it).
    for (let i = 0; i < 2; i++) {
      const after = await scrape();
      const types = after.split("\n").filter((line) => line.startsWith("# TYPE "));
      expect(types.length).toBeGreaterThan(10);
      expect(new Set(types).size).toBe(types.length);
      expect(count(after, "200") - count(before, "200")).toBe(10);
      expect(count(after, "404") - count(before, "404")).toBe(1);
      expect(after).not.toContain(items[0].name);
    }
  });

  it("counts the job worker's maintenance runs (the primary's own metrics)", async () => {
    const runs = (text: string) =>
      text
        .split("\n")
        .filter((line) => line.startsWith("almanac_maintenance_runs_total{"))
        .reduce((sum, line) => sum + Number(line.split(" ")[1]), 0);
    // A shoot's window may come meanwhile and add its run: count from here on.
    const before = runs(await scrape());
    const { items } = (await call(almanac.baseUrl, "/api/v1/shoots?limit=1&sort=name")).body;
    const maintain = await call(
      almanac.baseUrl,
      `/api/v1/namespaces/${items[0].namespace}/shoots/${items[0].name}/maintain`,
      { method: "POST" },
    );
    expect(maintain.status, JSON.stringify(maintain.body)).toBe(202);
    let after = before;
    while (after === before) after = runs(await scrape());
    expect(after).toBeGreaterThan(before);
  });

  it("reports the job queue, migrations, event-stream clients and database pools", async () => {
    // A job nobody works on (a queue of its own), and two finished migrations and a failed one.
    const boss = new PgBoss({ connectionString: database.url, schema: "pgboss", supervise: false, schedule: false });
    await boss.start();
    await boss.createQueue("observe-probe");
    await boss.send("observe-probe", {});
    await boss.stop({ graceful: false });
    const { items } = (await call(almanac.baseUrl, "/api/v1/shoots?limit=1")).body;
    const migration = { namespace: items[0].namespace, name: items[0].name, source: "a", destination: "b" };
    await database.db.controlPlaneMigration.createMany({
      data: ["Succeeded", "Succeeded", "Failed"].map((state) => ({ ...migration, state, flow: {}, actor: "test" })),
    });
    const following = new AbortController();
    const stream = await fetch(`${almanac.baseUrl}/api/v1/events`, {
      headers: ADMIN_HEADERS,
      signal: following.signal,
    });
    expect(stream.status).toBe(200);
    try {
      const text = await scrape();
      expect(sample(text, "almanac_event_stream_clients")).toBe(1);
      expect(sample(text, "almanac_job_queue_depth", { queue: "observe-probe" })).toBe(1);
      const age = sample(text, "almanac_job_queue_oldest_age_seconds", { queue: "observe-probe" });
      expect(age).toBeGreaterThanOrEqual(0);
      expect(age).toBeLessThan(600);
      expect(sample(text, "almanac_job_queue_depth", { queue: "maintenance" })).toBeDefined();
      expect(sample(text, "almanac_migrations", { state: "Succeeded" })).toBe(2);
      expect(sample(text, "almanac_migrations", { state: "Failed" })).toBe(1);
      expect(sample(text, "almanac_db_pool_connections", { pool: "web" })).toBeGreaterThan(0);
      expect(sample(text, "almanac_db_pool_connections", { pool: "jobs" })).toBeGreaterThan(0);
      expect(sample(text, "almanac_db_pool_idle_connections", { pool: "web" })).toBeDefined();
      expect(sample(text, "almanac_db_pool_waiting_clients", { pool: "web" })).toBe(0);
    } finally {
      following.abort();
    }
    let clients = 1;
    while (clients !== 0) clients = sample(await scrape(), "almanac_event_stream_clients") ?? -1;
  });
});

describe("/readyz", () => {
  it("reports the job queue as ready", async () => {
    const ready = await call(almanac.baseUrl, "/readyz", { anonymous: true });
    expect(ready.status).toBe(200);
    expect(ready.body.checks.jobs).toEqual({ ok: true, detail: "ready" });
  });
});

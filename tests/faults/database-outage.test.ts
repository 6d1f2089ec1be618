// A web process under concurrent window edits and reads while its database (a server this test
// runs itself, as an external DATABASE_URL, so nothing restarts it behind the test's back) is
// paused for 10 s, killed and left down for 10 s, has its sessions terminated and one backend
// killed: every answer is a 2xx, a refusal the API defines, or a 503 problem with Retry-After,
// never a 500 and never a hang; Almanac recovers by itself each time, and every edit answered 200
// is still there afterwards, with its audit event.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb } from "../../lib/db/client.ts";
import { startEmbeddedPostgres } from "../../lib/db/embedded-postgres.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { type PostgresServer, startPostgresServer } from "../../lib/db/postgres-server.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { type AppServer, startWebServer } from "../support/app-server.ts";
import { call } from "../support/api-client.ts";
import { allowedFinalWindows, badAnswers, startEditLoad, tally } from "../support/edit-load.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const SHOOTS = ["cluster-0", "cluster-1", "cluster-2", "cluster-3", "cluster-4", "cluster-5"];
// The web process' limit on a connection or a query; an answer takes at most a few of them.
const DB_TIMEOUT_MS = 2000;
const MAX_ANSWER_MS = 8000;

const dataDir = mkdtempSync(path.join(os.tmpdir(), "almanac-outage-"));
const pgData = path.join(dataDir, "postgres");
let url: string;
let port: number;
let server: PostgresServer | undefined;
let web: AppServer;
let initialWindows: Map<string, { begin: string; end: string }>;

/** The folder's server, started by the test alone: when it dies, it stays dead until started here. */
async function startServer(): Promise<void> {
  server = await startPostgresServer({
    pgData,
    port,
    flags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    log: () => {},
  });
}

beforeAll(async () => {
  // The embedded server makes the cluster, its password and the database; then it is stopped and
  // the same folder served on the same port by a server nobody supervises.
  const embedded = await startEmbeddedPostgres(dataDir);
  url = embedded.url;
  port = Number(new URL(url).port);
  await migrate(url);
  const db = createDb(url, 2);
  const now = Date.now();
  const landscape = smallLandscape(now, SHOOTS.length);
  await seedLandscape(db, landscape, { actor: "test", now });
  initialWindows = new Map(landscape.shoots.map((s) => [s.metadata.name, s.spec.maintenance!.timeWindow!]));
  await db.$disconnect();
  await embedded.stop();
  await startServer();
  web = await startWebServer(url, { ALMANAC_DB_TIMEOUT_MS: String(DB_TIMEOUT_MS) });
}, 120_000);

afterAll(async () => {
  signalAll("SIGCONT");
  await web?.stop();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The postmaster and every process it started (backends, checkpointer, ...). */
function postgresProcesses(): number[] {
  const postmaster = Number(readFileSync(path.join(pgData, "postmaster.pid"), "utf8").split("\n")[0]);
  let children: number[] = [];
  try {
    children = execFileSync("pgrep", ["-P", String(postmaster)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    // none
  }
  return [postmaster, ...children];
}

function signalAll(signal: NodeJS.Signals): void {
  if (!server) return;
  for (const pid of postgresProcesses()) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The admin connection's view: the app's sessions ended, as an administrator or a failover would. */
async function terminateSessions(): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
  } finally {
    await admin.end();
  }
}

/** The server process of one of the app's sessions (a backend serving it). */
async function oneBackend(): Promise<number | undefined> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' LIMIT 1",
    );
    return rows[0]?.pid;
  } finally {
    await admin.end();
  }
}

it("answers 2xx or 503 through a paused, a killed and a cut-off database, recovers alone and loses no acknowledged edit", async () => {
  const load = startEditLoad({
    baseUrl: web.baseUrl,
    namespace: "garden-dev",
    shoots: SHOOTS,
    readers: 2,
    requestTimeoutMs: 30_000,
  });
  // Recovery without restarting anything: an edit sent after the fault ends is answered 200.
  const recovered = (what: string) => load.acknowledgedAfter(Date.now(), 30_000, what);
  try {
    await sleep(1500);

    // 1. Every PostgreSQL process stopped for 10 s (a frozen VM, a stalled disk).
    signalAll("SIGSTOP");
    await sleep(10_000);
    signalAll("SIGCONT");
    await recovered("the pause");

    // 2. The server killed outright and started again 10 s later on the same port.
    const killedAt = Date.now();
    signalAll("SIGKILL");
    await server!.exited;
    server = undefined;
    await sleep(Math.max(0, killedAt + 10_000 - Date.now()));
    await startServer();
    await recovered("the restart");

    // 3. Every session terminated, twice, while edits run; then one backend killed, which makes
    // the server end every session and recover from a crash.
    await terminateSessions();
    await sleep(700);
    await terminateSessions();
    await recovered("the terminated sessions");
    const backend = await oneBackend();
    if (backend !== undefined) process.kill(backend, "SIGKILL");
    await recovered("the killed backend");
  } finally {
    signalAll("SIGCONT");
  }
  const result = await load.stop();

  const counts = tally(result.answers);
  console.log("database outage:", JSON.stringify(counts));
  // The server's log says what went wrong behind a 500.
  expect(badAnswers(result.answers), `${JSON.stringify(counts)}\n${web.output().slice(-6000)}`).toEqual([]);
  // A single web process that stays up: every request gets an answer, in seconds.
  expect(result.answers.filter((a) => a.status === 0)).toEqual([]);
  expect(Math.max(...result.answers.map((a) => a.ms))).toBeLessThan(MAX_ANSWER_MS);
  expect(result.answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
  expect(result.answers.filter((a) => a.status === 503).length, JSON.stringify(counts)).toBeGreaterThan(0);

  // Every acknowledged edit is there: each shoot holds its last acknowledged window (or a later
  // one whose answer was a 503), and the audit log has an event for every edit answered 200.
  const allowed = allowedFinalWindows(result.edits, initialWindows);
  const db = createDb(url, 2);
  try {
    for (const name of SHOOTS) {
      const shoot = await call(web.baseUrl, `/api/v1/namespaces/garden-dev/shoots/${name}`);
      expect(shoot.status).toBe(200);
      expect(allowed.get(name), name).toContainEqual(shoot.body.spec.maintenance.timeWindow);
    }
    const acknowledged = result.edits.filter((e) => e.status === 200).map((e) => e.requestId);
    const audited = new Set(
      (
        await db.auditEvent.findMany({
          where: { requestId: { in: acknowledged } },
          select: { requestId: true },
        })
      ).map((e) => e.requestId),
    );
    expect(acknowledged.filter((id) => !audited.has(id))).toEqual([]);
  } finally {
    await db.$disconnect();
  }
}, 150_000);

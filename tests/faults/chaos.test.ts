// Chaos on the whole `npm start`: several web processes and the embedded PostgreSQL under
// concurrent window edits (each writer its own shoot, never the same value twice), while web
// processes and the database are killed at moments drawn from a seed. Afterwards every edit
// answered 200 is there (each shoot holds its last acknowledged value, or one sent after it whose
// answer was lost) and in the audit log; no answer was a 500. ALMANAC_CHAOS_SEED replays a run.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb } from "../../lib/db/client.ts";
import { startEmbeddedPostgres } from "../../lib/db/embedded-postgres.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { createRng } from "../../lib/demo/random.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startAlmanac } from "../support/app-server.ts";
import { allowedFinalWindows, badAnswers, startEditLoad, tally } from "../support/edit-load.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const SHOOTS = Array.from({ length: 8 }, (_, i) => `cluster-${i}`);
const WEB_PROCESSES = 3;
const CHAOS_MS = 18_000;
// start.mjs gives up after more than five web processes die within a minute: stay below.
const WEB_KILLS = 4;
const DATABASE_KILLS = 3;
const seed = Number(process.env.ALMANAC_CHAOS_SEED || Date.now() % 1_000_000);

const dataDir = mkdtempSync(path.join(os.tmpdir(), "almanac-chaos-"));
let almanac: AppServer | undefined;
let initialWindows: Map<string, { begin: string; end: string }>;

beforeAll(async () => {
  // The folder's database is made first with a small landscape, so every shoot takes window edits
  // (the demo's has webhooks that refuse some); `npm start` then finds it and seeds nothing.
  const embedded = await startEmbeddedPostgres(dataDir);
  await migrate(embedded.url);
  const db = createDb(embedded.url, 2);
  const now = Date.now();
  const landscape = smallLandscape(now, SHOOTS.length);
  await seedLandscape(db, landscape, { actor: "test", now });
  initialWindows = new Map(landscape.shoots.map((s) => [s.metadata.name, s.spec.maintenance!.timeWindow!]));
  await db.$disconnect();
  await embedded.stop();
  almanac = await startAlmanac({
    ALMANAC_DATA_DIR: dataDir,
    DATABASE_URL: "",
    ALMANAC_WEB_WORKERS: String(WEB_PROCESSES),
    ALMANAC_DB_TIMEOUT_MS: "2000",
  });
}, 180_000);

afterAll(async () => {
  await almanac?.stop("SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The web processes start.mjs runs now (its cluster workers). */
function webProcesses(): number[] {
  let listed: string;
  try {
    listed = execFileSync("pgrep", ["-P", String(almanac!.process.pid)], { encoding: "utf8" });
  } catch (error) {
    // pgrep's exit code 1: no child at this moment (every web process being replaced at once).
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
  const children = listed.split("\n").filter(Boolean).map(Number);
  return children.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("web-worker.mjs");
    } catch {
      return false;
    }
  });
}

/** SIGKILLs `pid`; false when it had already ended (a second fault on what is still down). */
function kill(pid: number): boolean {
  try {
    process.kill(pid, "SIGKILL");
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

const postmaster = () => Number(readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);

it(`keeps every acknowledged edit through web processes and the database killed at random (seed ${seed})`, async () => {
  const rng = createRng(seed);
  // The plan, from the seed alone: which fault at which moment of the run.
  const faults = [
    ...Array.from({ length: WEB_KILLS }, () => ({ kind: "web" as const, pick: rng.next() })),
    ...Array.from({ length: DATABASE_KILLS }, () => ({ kind: "database" as const, pick: 0 })),
  ]
    .map((fault) => ({ ...fault, at: rng.int(1000, CHAOS_MS - 2000) }))
    .sort((a, b) => a.at - b.at);
  const replay = `ALMANAC_CHAOS_SEED=${seed}; faults ${JSON.stringify(faults.map((f) => `${f.kind}@${f.at}`))}`;
  console.log(`chaos: ${replay}`);

  const load = startEditLoad({
    baseUrl: almanac!.baseUrl,
    namespace: "garden-dev",
    shoots: SHOOTS,
    readers: 2,
    requestTimeoutMs: 10_000,
  });
  const started = Date.now();
  const done: string[] = [];
  const webKills: number[] = [];
  for (const fault of faults) {
    await sleep(Math.max(0, started + fault.at - Date.now()));
    if (fault.kind === "web") {
      const pids = webProcesses();
      if (pids.length === 0) continue; // all being replaced at this moment
      const pid = pids[Math.floor(fault.pick * pids.length)];
      webKills.push(Date.now());
      done.push(`web ${pid}@${Date.now() - started}${kill(pid) ? "" : " (already gone)"}`);
    } else {
      // After a kill, postmaster.pid names the dead server until Almanac has started it again.
      const pid = postmaster();
      done.push(`postgres ${pid}@${Date.now() - started}${kill(pid) ? "" : " (already down)"}`);
    }
  }
  await sleep(Math.max(0, started + CHAOS_MS - Date.now()));
  // Almanac comes back by itself: the database is started again, the web processes replaced.
  await load.acknowledgedAfter(Date.now(), 45_000, `the chaos (${replay})`);
  const result = await load.stop();
  const counts = tally(result.answers);
  const lost = result.answers
    .filter((a) => a.status === 0)
    .map((a) => `${a.method} ${a.note}@${a.startedAt - started}+${a.ms}`);
  const context = `${replay}; done ${JSON.stringify(done)}; answers ${JSON.stringify(counts)}; lost ${JSON.stringify(lost)}`;
  console.log(`chaos: ${context}`);

  expect(almanac!.process.exitCode, `${context}\n${almanac!.output().slice(-4000)}`).toBeNull();
  expect(webProcesses().length, context).toBe(WEB_PROCESSES);
  expect(badAnswers(result.answers), `${context}\n${almanac!.output().slice(-6000)}`).toEqual([]);
  // A killed web process drops its connections, and nothing else is left waiting. (Except: Node's
  // round-robin cluster hands each connection to a web process; one handed to a process as it is
  // killed, or before the primary has seen it die, stays open in the primary, unanswered, until the
  // client gives up. Such a request was sent around a kill.)
  expect(
    result.answers.filter(
      (a) =>
        a.status === 0 &&
        a.note === "timeout" &&
        !webKills.some((k) => a.startedAt > k - 1000 && a.startedAt < k + 2000),
    ),
    context,
  ).toEqual([]);

  const allowed = allowedFinalWindows(result.edits, initialWindows);
  for (const name of SHOOTS) {
    const shoot = await call(almanac!.baseUrl, `/api/v1/namespaces/garden-dev/shoots/${name}`);
    expect(shoot.status, context).toBe(200);
    expect(allowed.get(name), `${name}: ${context}`).toContainEqual(shoot.body.spec.maintenance.timeWindow);
  }
  // The audit log holds every acknowledged edit (the folder's server, joined while Almanac runs).
  const joined = await startEmbeddedPostgres(dataDir);
  const db = createDb(joined.url, 1);
  try {
    const acknowledged = result.edits.filter((e) => e.status === 200).map((e) => e.requestId);
    expect(acknowledged.length, context).toBeGreaterThan(0);
    const audited = new Set(
      (await db.auditEvent.findMany({ where: { requestId: { in: acknowledged } }, select: { requestId: true } })).map(
        (e) => e.requestId,
      ),
    );
    expect(
      acknowledged.filter((id) => !audited.has(id)),
      context,
    ).toEqual([]);
  } finally {
    await db.$disconnect();
    await joined.stop();
  }
  expect(await almanac!.stop("SIGTERM")).toBe(0);
  almanac = undefined;
}, 150_000);

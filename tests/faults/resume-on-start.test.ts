// `npm start` killed outright (its whole process group, SIGKILL: web processes, job worker and the
// embedded PostgreSQL) while a maintain-now run is half-way through its transaction and a
// control-plane migration is between steps, then started again on the same data folder: the
// migration finishes and the maintenance completes, and nothing is applied twice (one run record,
// one audit event, one version bump per run; every migration step once, one seed switch).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb, type Db } from "../../lib/db/client.ts";
import { startEmbeddedPostgres } from "../../lib/db/embedded-postgres.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { latestMigration } from "../../lib/store/migrations.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startAlmanac } from "../support/app-server.ts";
import { seed } from "../support/builders.ts";
import { waitUntil } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "almanac-resume-"));
const ENV = {
  ALMANAC_DATA_DIR: dataDir,
  DATABASE_URL: "",
  ALMANAC_WEB_WORKERS: "1",
  // Only the work under test: no simulated gardenlet, no failing migration steps.
  ALMANAC_GARDENLET: "off",
  ALMANAC_MIGRATION_FAULT_RATE: "0",
  ALMANAC_MIGRATION_STEP_MS: "1000",
  ALMANAC_POLL_SECONDS: "0.5",
  // A job held by a killed process is taken up again after this.
  ALMANAC_JOB_EXPIRE_SECONDS: "2",
};
const MIGRATING = "cluster-1";
const MAINTAINED = ["cluster-2", "cluster-3"];
let running: AppServer | undefined;

beforeAll(async () => {
  const embedded = await startEmbeddedPostgres(dataDir);
  await migrate(embedded.url);
  const db = createDb(embedded.url, 2);
  const now = Date.now();
  const landscape = smallLandscape(now, 4);
  landscape.seeds = [seed("seed-1"), seed("seed-2")];
  // Windows hours away, so no scheduled run touches the shoots while the test looks.
  const hour = (new Date(now).getUTCHours() + 6) % 24;
  const at = (h: number) => `${String(h % 24).padStart(2, "0")}0000+0000`;
  for (const s of landscape.shoots) s.spec.maintenance!.timeWindow = { begin: at(hour), end: at(hour + 1) };
  await seedLandscape(db, landscape, { actor: "test", now });
  await db.$disconnect();
  await embedded.stop();
}, 120_000);

afterAll(async () => {
  if (running?.process.pid && running.process.exitCode === null) {
    try {
      process.kill(-running.process.pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const shootPath = (name: string) => `/api/v1/namespaces/garden-dev/shoots/${name}`;

/** The folder's database, joined while Almanac serves it. */
async function withDb<T>(work: (db: Db, url: string) => Promise<T>): Promise<T> {
  const joined = await startEmbeddedPostgres(dataDir);
  const db = createDb(joined.url, 1);
  try {
    return await work(db, joined.url);
  } finally {
    await db.$disconnect();
    await joined.stop();
  }
}

it("resumes a maintenance run and a migration cut short by a crash, applying nothing twice", async () => {
  running = await startAlmanac(ENV, { ownProcessGroup: true });
  const first = running.baseUrl;

  // The test holds maintenance_runs locked, so a maintain-now run stops at its insert, inside its
  // transaction, having claimed its jobs and written the shoots (uncommitted).
  const url = await withDb(async (_db, u) => u);
  const blocker = new pg.Client({ connectionString: url });
  blocker.on("error", () => {}); // the server dies under it
  await blocker.connect();
  await blocker.query("BEGIN");
  await blocker.query("LOCK TABLE maintenance_runs IN EXCLUSIVE MODE");
  const watcher = new pg.Client({ connectionString: url });
  watcher.on("error", () => {});
  await watcher.connect();

  const migration = await call(first, `${shootPath(MIGRATING)}/migrate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seedName: "seed-2" }),
  });
  expect(migration.status, JSON.stringify(migration.body)).toBe(202);
  // The binding's change raised the generation; Migrate Succeeded raises it once more.
  const generationBefore = (await call(first, shootPath(MIGRATING))).body.metadata.generation as number;
  const versionsAfterRequest = new Map<string, number>();
  for (const name of MAINTAINED) {
    const accepted = await call(first, `${shootPath(name)}/maintain`, { method: "POST" });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    versionsAfterRequest.set(name, Number(accepted.body.resourceVersion));
  }

  let seen = "";
  // The moment to crash: the run waits on the lock, and the migration is some steps in.
  await waitUntil(
    "the maintain-now run to be half-way and the migration under way",
    async () => {
      // From another session: a transaction sees pg_stat_activity as it was when it first looked.
      const { rows } = await watcher.query<{ waiting: number }>(
        "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%maintenance_runs%'",
      );
      const m = await withDb((db) => latestMigration(db, "garden-dev", MIGRATING));
      seen = `${rows[0].waiting} waiting; migration ${m?.flow.state} at step ${m?.flow.step}`;
      return rows[0].waiting > 0 && m !== undefined && m.flow.step >= 3 && m.flow.state === "Processing";
    },
    30_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message} (${seen})\n${running?.output().slice(-3000)}`);
  });
  process.kill(-running.process.pid!, "SIGKILL");
  await new Promise((r) => (running!.process.exitCode !== null ? r(null) : running!.process.once("exit", r)));
  await blocker.end().catch(() => {});
  await watcher.end().catch(() => {});
  running = undefined;

  // Started again on the same folder (the killed PostgreSQL's files, a stale postmaster.pid).
  running = await startAlmanac(ENV, { ownProcessGroup: true });
  await waitUntil(
    "the migration to finish and both runs to complete",
    () =>
      withDb(async (db) => {
        const m = await latestMigration(db, "garden-dev", MIGRATING);
        const runs = await db.maintenanceRun.count({ where: { name: { in: MAINTAINED }, trigger: "maintain-now" } });
        return m?.flow.state === "Succeeded" && runs >= MAINTAINED.length;
      }),
    60_000,
  );
  // Enough time for a duplicate to show: jobs held by the killed process expire after 2 s.
  await new Promise((r) => setTimeout(r, 3000));

  await withDb(async (db) => {
    const m = (await latestMigration(db, "garden-dev", MIGRATING))!;
    expect(m.flow.steps.map((s) => [s.outcome, s.attempts])).toEqual(m.flow.steps.map(() => ["Succeeded", 1]));
    expect(await db.auditEvent.count({ where: { targetName: MIGRATING, action: "shoot.migrate.succeeded" } })).toBe(1);
    expect(await db.controlPlaneMigration.count({ where: { name: MIGRATING } })).toBe(1);
    for (const name of MAINTAINED) {
      expect(await db.maintenanceRun.count({ where: { name, trigger: "maintain-now" } }), name).toBe(1);
      expect(await db.auditEvent.count({ where: { targetName: name, action: "shoot.maintain-now" } }), name).toBe(1);
    }
  });
  const migrated = (await call(base(), shootPath(MIGRATING))).body;
  expect(migrated.status.seedName).toBe("seed-2");
  expect(migrated.metadata.generation).toBe(generationBefore + 1);
  for (const name of MAINTAINED) {
    const shoot = (await call(base(), shootPath(name))).body;
    expect(shoot.metadata.annotations?.["gardener.cloud/operation"], name).toBeUndefined();
    // The request's version bump, then the run's: once.
    expect(Number(shoot.metadata.resourceVersion), name).toBe(versionsAfterRequest.get(name)! + 1);
  }
  expect(await running.stop("SIGTERM")).toBe(0);
  running = undefined;
}, 180_000);

const base = () => running!.baseUrl;

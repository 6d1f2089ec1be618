// `npm run backup` and `npm run restore -- FILE`: a backup of a landscape (shoots, their history,
// the audit log, jobs waiting in the queue) restored into a fresh data folder holds the same rows,
// continues its id sequences, and a second restore into that folder is refused.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../lib/db/embedded-postgres.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { KEPT_BY_THE_DATABASE } from "../../lib/db/backup.ts";
import { startQueue } from "../../lib/jobs/queue.ts";
import { storedForecast } from "../../lib/server/fleet-forecast.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, "../..");
const work = mkdtempSync(path.join(os.tmpdir(), "almanac-backup-"));
const backupFile = path.join(work, "almanac.backup.gz");
const dataDir = path.join(work, "restored");

let source: TestDatabase;
let restored: EmbeddedDatabase | undefined;
beforeAll(async () => {
  source = await createTestDatabase();
  const now = Date.now();
  await seedLandscape(source.db, generateLandscape({ now, shoots: 64, seed: 7 }), { actor: "test", now });
  // Stored forecast facts, so that the counts kept from their items are part of the backup's test.
  await (
    await storedForecast(source.db, { days: 365, scope: {} }, now)
  ).written;
  // A job waiting in the queue is part of the data: a flow goes on from it after a restore.
  const boss = await startQueue(source.url, { expireSeconds: 60, supervise: false });
  await boss.send("maintain-now", { namespace: "garden-x", name: "waiting" }, { startAfter: 3600 });
  await boss.stop({ graceful: false });
}, 120_000);
afterAll(async () => {
  await restored?.stop();
  await source?.drop();
  rmSync(work, { recursive: true, force: true });
});

/** A script of the repo, as `npm run` starts it, with only the given database settings. */
function script(name: string, args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _url, ALMANAC_DATA_DIR: _dir, ...rest } = process.env;
  return run(process.execPath, [path.join(repo, "scripts", name), ...args], {
    cwd: repo,
    env: { ...rest, ...env },
    timeout: 120_000,
  });
}

async function rows(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

// Every row as it was, in a fixed order (the row's text).
const SAME = [
  "shoots",
  "shoot_counts",
  "shoot_tile_counts",
  "cloud_profile_usage_counts",
  "shoot_forecast_items",
  "forecast_item_counts",
  "forecast_shoot_counts",
  "audit_events",
  "maintenance_runs",
  "maintenance_schedules",
  "cloud_profiles",
  "seeds",
  "projects",
  "_prisma_migrations",
].map((table) => `SELECT * FROM ${table} t ORDER BY t::text`);
SAME.push("SELECT name, state, data, start_after FROM pgboss.job ORDER BY id");

it("leaves out of the backup every table a trigger writes (a restore fills them again)", async () => {
  // The tables named after INSERT INTO / UPDATE / DELETE FROM in the functions of the triggers on
  // Almanac's tables: a table kept that way and restored as well would count every row twice.
  const written = (await rows(
    source.url,
    `SELECT DISTINCT lower(m[1]) AS name
       FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid JOIN pg_namespace n ON n.oid = p.pronamespace,
            regexp_matches(pg_get_functiondef(p.oid), '(?:INSERT INTO|UPDATE|DELETE FROM)\\s+"?([a-z_]+)"?', 'gi') AS m
      WHERE NOT t.tgisinternal AND n.nspname = 'public' AND lower(m[1]) <> 'set'`,
  )) as { name: string }[];
  expect(written.length).toBeGreaterThan(0);
  for (const { name } of written) expect(KEPT_BY_THE_DATABASE, name).toContain(name);
});

it("restores a backup into a fresh data folder with the same shoots, history, audit log and jobs", async () => {
  const backup = await script("backup.ts", [backupFile], { DATABASE_URL: source.url });
  expect(backup.stdout).toMatch(/Backup written to .*: \d+ tables, \d+ rows \(64 shoots, \d+ audit events\)/);
  // It holds accounts and sessions: its owner's only.
  expect(statSync(backupFile).mode & 0o777).toBe(0o600);

  const restore = await script("restore.ts", [backupFile], { ALMANAC_DATA_DIR: dataDir });
  expect(restore.stdout).toContain("64 shoots");

  restored = await startEmbeddedPostgres(dataDir);
  for (const sql of SAME) expect(await rows(restored.url, sql), sql).toEqual(await rows(source.url, sql));
  const [{ n }] = (await rows(restored.url, "SELECT count(*)::int AS n FROM audit_events")) as { n: number }[];
  expect(n).toBeGreaterThan(0);
  expect(await rows(restored.url, "SELECT data FROM pgboss.job WHERE name = 'maintain-now'")).toContainEqual({
    data: { namespace: "garden-x", name: "waiting" },
  });

  // New rows continue the ids the restored ones used.
  const [{ last }] = (await rows(restored.url, "SELECT max(id)::text AS last FROM audit_events")) as { last: string }[];
  const [{ id }] = (await rows(
    restored.url,
    `INSERT INTO audit_events (actor, action, target_kind, target_name)
     VALUES ('test', 'test.after-restore', 'Shoot', 'x') RETURNING id::text AS id`,
  )) as { id: string }[];
  expect(BigInt(id)).toBeGreaterThan(BigInt(last));
}, 240_000);

it("refuses to restore into a database that has data, and a file that is no backup", async () => {
  await restored?.stop();
  restored = undefined;
  const again = await script("restore.ts", [backupFile], { ALMANAC_DATA_DIR: dataDir }).catch((e) => e);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("Not restored: The database is not empty (table");

  const bogus = path.join(work, "not-a-backup.gz");
  writeFileSync(bogus, "hello");
  const other = await script("restore.ts", [bogus], { ALMANAC_DATA_DIR: path.join(work, "other") }).catch((e) => e);
  expect(other.code).toBe(1);
  expect(other.stderr).toMatch(/Not restored: This file is not an Almanac backup|Restore failed: .*header/);
}, 240_000);

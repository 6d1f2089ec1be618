// The embedded PostgreSQL killed under Almanac is started again by it, on the same port, with its
// data; a pool that used the old server works again without being made anew.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTemporaryPostgres } from "../../lib/db/embedded-postgres.ts";

let db: Awaited<ReturnType<typeof startTemporaryPostgres>>;
let pool: pg.Pool;
beforeAll(async () => {
  db = await startTemporaryPostgres();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  // A killed server breaks the pool's idle connections; the pool reports them, it must not crash us.
  pool.on("error", () => {});
});
afterAll(async () => {
  await pool?.end();
  await db?.stop();
});

const serverPid = () => Number(readFileSync(path.join(db.dataDir, "postgres/postmaster.pid"), "utf8").split("\n")[0]);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually<T>(attempt: () => Promise<T>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

it("starts the embedded server again after it is killed, and the same pool reads what was written", async () => {
  await pool.query("CREATE TABLE kept (note text)");
  await pool.query("INSERT INTO kept VALUES ('written before the kill')");
  const killed = serverPid();
  process.kill(killed, "SIGKILL");

  // A backend of the killed server may still answer for a moment: wait for the new server.
  const restarted = await eventually(async () => {
    const pid = serverPid();
    if (pid === killed || !alive(pid)) throw new Error("not started again yet");
    return pid;
  }, 30_000);
  expect(alive(killed)).toBe(false);
  const rows = await eventually(async () => (await pool.query<{ note: string }>("SELECT note FROM kept")).rows, 10_000);
  expect(rows).toEqual([{ note: "written before the kill" }]);
  expect(readFileSync(path.join(db.dataDir, "postgres.log"), "utf8")).toContain("ended on its own (signal SIGKILL)");

  // Stopped on purpose, it stays stopped.
  await pool.end();
  await db.stop();
  expect(alive(restarted)).toBe(false);
  expect(existsSync(db.dataDir)).toBe(false);
  pool = undefined as unknown as pg.Pool;
  db = undefined as unknown as typeof db;
}, 60_000);

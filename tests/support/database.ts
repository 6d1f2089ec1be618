// A fresh, migrated database per test file, on the run's PostgreSQL server.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { createDb, type Db } from "../../lib/db/client.ts";
import { migrate } from "../../lib/db/migrate.ts";

function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs `sql` as the run's server's superuser, outside any test database (CREATE DATABASE, roles). */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject("postgresServerUrl") });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  readonly url: string;
  readonly db: Db;
  drop(): Promise<void>;
}

/** An empty database; `migrated: false` leaves even the migrations out. */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const name = `almanac_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = databaseUrl(inject("postgresServerUrl"), name);
  if (options.migrated !== false) await migrate(url);
  const db = createDb(url, 4);
  return {
    url,
    db,
    drop: async () => {
      await db.$disconnect();
      await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

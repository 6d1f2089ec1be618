// A fresh, migrated database per test file, on the run's PostgreSQL server: a clone of the
// template the global setup migrated (tests/support/postgres-setup.ts).
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { createDb, type Db } from "../../lib/db/client.ts";

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

/** A migrated database without data; `migrated: false` leaves even the migrations out. */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const name = `almanac_test_${randomBytes(6).toString("hex")}`;
  const template = options.migrated === false ? "template1" : inject("migratedTemplate");
  await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  const url = databaseUrl(inject("postgresServerUrl"), name);
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

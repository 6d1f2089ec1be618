// vitest globalSetup (integration and fault projects): one PostgreSQL server for the project's
// files (DATABASE_URL when set, else an embedded one in a temporary folder), and on it a template
// database migrated once. Each test file clones the template (tests/support/database.ts), which
// takes a fraction of what applying every migration again would.
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startTemporaryPostgres } from "../../lib/db/embedded-postgres.ts";
import { migrate } from "../../lib/db/migrate.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresServerUrl: string;
    /** A database with every migration applied, for CREATE DATABASE ... TEMPLATE. */
    migratedTemplate: string;
  }
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Makes and migrates the template; nobody stays connected to it, or cloning it would fail. */
async function migratedTemplate(serverUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
  // A name of its own per run: two runs may share a DATABASE_URL server.
  const name = `almanac_template_${randomBytes(6).toString("hex")}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  await migrate(databaseUrl(serverUrl, name));
  return { name, drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

export default async function setup(project: TestProject) {
  const external = process.env.DATABASE_URL;
  const server = external ? undefined : await startTemporaryPostgres();
  const serverUrl = external ?? server!.adminUrl;
  const template = await migratedTemplate(serverUrl);
  project.provide("postgresServerUrl", serverUrl);
  project.provide("migratedTemplate", template.name);
  return async () => {
    if (server) await server.stop();
    else await template.drop();
  };
}

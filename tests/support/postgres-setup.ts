// vitest globalSetup: one PostgreSQL server for the whole run (DATABASE_URL when set, else an
// embedded one in a temporary folder). Each test file makes its own database on it.
import type { TestProject } from "vitest/node";
import { startTemporaryPostgres } from "../../lib/db/embedded-postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresServerUrl: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide("postgresServerUrl", process.env.DATABASE_URL);
    return;
  }
  const server = await startTemporaryPostgres();
  project.provide("postgresServerUrl", server.adminUrl);
  return () => server.stop();
}

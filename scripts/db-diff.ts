// `npm run db:diff`: prints the SQL that takes prisma/migrations to schema.prisma.
// `npm run db:diff -- --create <name>` writes it as prisma/migrations/<timestamp>_<name>/migration.sql.
// Uses DATABASE_URL when set, else a throwaway embedded PostgreSQL.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { config } from "../lib/config/load-config.ts";
import { startTemporaryPostgres } from "../lib/db/embedded-postgres.ts";
import { MIGRATIONS_DIR } from "../lib/db/migrate.ts";
import { diffMigrationsToSchema } from "../lib/db/schema-diff.ts";

const { values } = parseArgs({ options: { create: { type: "string" } } });
const external = config().data.databaseUrl;
const server = external ? undefined : await startTemporaryPostgres();
try {
  const sql = await diffMigrationsToSchema(external ?? server!.url);
  if (!sql) {
    console.log("schema.prisma and prisma/migrations agree: nothing to migrate.");
  } else if (values.create) {
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const dir = path.join(MIGRATIONS_DIR, `${stamp}_${values.create.replace(/\W+/g, "_")}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "migration.sql"), `${sql}\n`);
    console.log(`Wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
  } else {
    console.log(sql);
  }
} finally {
  await server?.stop();
}

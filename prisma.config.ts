// Prisma's configuration. The URL comes from the environment when set; it is optional because
// `prisma generate` (run at install) needs none, and the app picks its database at start
// (lib/db/database-url.ts: DATABASE_URL, else the embedded PostgreSQL).
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL },
});

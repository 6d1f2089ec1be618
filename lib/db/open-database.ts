// Which database Almanac uses: the server in DATABASE_URL when it is set, otherwise the embedded
// PostgreSQL in ALMANAC_DATA_DIR (default .almanac/ in the project).
import path from "node:path";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "./embedded-postgres.ts";

export interface OpenDatabase {
  readonly url: string;
  /** "external" (DATABASE_URL) or the embedded server's data folder. */
  readonly description: string;
  close(): Promise<void>;
}

function dataDir(): string {
  return path.resolve(process.env.ALMANAC_DATA_DIR || path.join(import.meta.dirname, "../../.almanac"));
}

export async function openDatabase(): Promise<OpenDatabase> {
  const external = process.env.DATABASE_URL;
  if (external) return { url: external, description: "DATABASE_URL", close: async () => {} };
  const dir = dataDir();
  const embedded: EmbeddedDatabase = await startEmbeddedPostgres(dir);
  return {
    url: embedded.url,
    description: `embedded PostgreSQL in ${path.join(dir, "postgres")}${embedded.owned ? "" : " (shared with the process that started it)"}`,
    close: () => embedded.stop(),
  };
}

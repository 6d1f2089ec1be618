// Which database Almanac uses: the server in DATABASE_URL when it is set, otherwise the embedded
// PostgreSQL in ALMANAC_DATA_DIR (default .almanac/ in the project).
import path from "node:path";
import { type Config, config } from "../config/load-config.ts";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "./embedded-postgres.ts";

export interface OpenDatabase {
  readonly url: string;
  /** "external" (DATABASE_URL) or the embedded server's data folder. */
  readonly description: string;
  close(): Promise<void>;
}

export async function openDatabase({ data }: Pick<Config, "data"> = config()): Promise<OpenDatabase> {
  const external = data.databaseUrl;
  if (external) return { url: external, description: "DATABASE_URL", close: async () => {} };
  const dir = data.dataDir;
  const embedded: EmbeddedDatabase = await startEmbeddedPostgres(dir);
  return {
    url: embedded.url,
    description: `embedded PostgreSQL in ${path.join(dir, "postgres")}${embedded.owned ? "" : " (shared with the process that started it)"}`,
    close: () => embedded.stop(),
  };
}

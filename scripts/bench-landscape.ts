// What the benchmarks share: a throwaway database (on DATABASE_URL's server, or an embedded
// PostgreSQL) holding a generated landscape of `shoots` shoots, and its removal afterwards.
import pg from "pg";
import { config } from "../lib/config/load-config.ts";
import { createDb } from "../lib/db/client.ts";
import { startTemporaryPostgres } from "../lib/db/embedded-postgres.ts";
import { migrate } from "../lib/db/migrate.ts";
import { drawLandscape } from "../lib/demo/landscape.ts";
import { seedLandscape } from "../lib/server/seed-landscape.ts";

export interface BenchLandscape {
  readonly url: string;
  readonly drop: () => Promise<void>;
}

export async function benchLandscape(name: string, shoots: number): Promise<BenchLandscape> {
  const external = config().data.databaseUrl;
  const server = external ? undefined : await startTemporaryPostgres();
  const adminUrl = external ?? server!.adminUrl;
  const dbName = `almanac_${name}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const drop = async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => {});
    await admin.end();
    await server?.stop();
  };
  try {
    await migrate(url.toString());
    const db = createDb(url.toString(), 2);
    const now = Date.now();
    const t = Date.now();
    // Drawn as it is written: the shoots are drawn while PostgreSQL reads the ones before.
    await seedLandscape(db, drawLandscape({ now, shoots }), { actor: "bench", now });
    console.log(`seeded ${shoots} shoots in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    await db.$disconnect();
  } catch (error) {
    await drop();
    throw error;
  }
  return { url: url.toString(), drop };
}

// What `npm start` does before the web server starts: pick the database (DATABASE_URL or the
// embedded PostgreSQL), apply pending migrations, start the job queue, and create the demo
// landscape (with its maintenance schedules) on first start. A live garden brings its own
// landscape: the mirror fills the tables, and nothing is invented.
import { createDb } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { type OpenDatabase, openDatabase } from "../db/open-database.ts";
import { generateLandscape } from "../demo/landscape.ts";
import { gardenConfig } from "../garden/garden-config.ts";
import { jobsConfig } from "../jobs/config.ts";
import { type PgBoss, startQueue } from "../jobs/queue.ts";
import { hasSearchIndex, missingSearchIndexWarning } from "../store/search-index.ts";
import { seedLandscape } from "./seed-landscape.ts";

export interface PreparedGarden {
  readonly database: OpenDatabase;
  readonly boss: PgBoss;
}

export async function prepareGarden(log: (line: string) => void): Promise<PreparedGarden> {
  const database = await openDatabase();
  try {
    log(`Database: ${database.description}`);
    const applied = await migrate(database.url);
    if (applied.length > 0) log(`Applied migrations: ${applied.join(", ")}`);
    const boss = await startQueue(database.url, { expireSeconds: jobsConfig().jobExpireSeconds, supervise: true });
    const db = createDb(database.url, 2);
    try {
      const warning = missingSearchIndexWarning(await hasSearchIndex(db));
      if (warning) log(warning);
      if (gardenConfig().kind === "live") return { database, boss };
      const now = Date.now();
      const report = await seedLandscape(db, generateLandscape({ now }), {
        actor: "system:almanac",
        now,
        onlyIfEmpty: true,
        boss,
      });
      if (report)
        log(
          `Created the demo landscape: ${report.shoots} shoots in ${report.projects} projects, ${report.seeds} seeds, ${report.cloudProfiles} cloud profiles.`,
        );
    } finally {
      await db.$disconnect();
    }
    return { database, boss };
  } catch (error) {
    await database.close();
    throw error;
  }
}

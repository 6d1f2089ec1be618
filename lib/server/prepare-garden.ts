// What `npm start` does before the web server starts: pick the database (DATABASE_URL or the
// embedded PostgreSQL), apply pending migrations, and create the demo landscape on first start.
import { createDb } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { type OpenDatabase, openDatabase } from "../db/open-database.ts";
import { generateLandscape } from "../demo/landscape.ts";
import { seedLandscape } from "./seed-landscape.ts";

export async function prepareGarden(log: (line: string) => void): Promise<OpenDatabase> {
  const database = await openDatabase();
  try {
    log(`Database: ${database.description}`);
    const applied = await migrate(database.url);
    if (applied.length > 0) log(`Applied migrations: ${applied.join(", ")}`);
    const db = createDb(database.url, 2);
    try {
      const now = Date.now();
      const report = await seedLandscape(db, generateLandscape({ now }), { actor: "system:almanac", now, onlyIfEmpty: true });
      if (report) log(`Created the demo landscape: ${report.shoots} shoots in ${report.projects} projects, ${report.seeds} seeds, ${report.cloudProfiles} cloud profiles.`);
    } finally {
      await db.$disconnect();
    }
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}

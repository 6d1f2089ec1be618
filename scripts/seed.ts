// `npm run seed [-- --shoots N] [--seed S]`: replaces the landscape with a freshly generated demo
// landscape of N shoots (default 64, up to 100,000), in the database `npm start` uses.
import { parseArgs } from "node:util";
import { exitOnBadConfig } from "../lib/config/load-config.ts";
import { createDb } from "../lib/db/client.ts";
import { migrate } from "../lib/db/migrate.ts";
import { openDatabase } from "../lib/db/open-database.ts";
import { DEFAULT_SHOOT_COUNT, drawLandscape, MAX_SHOOT_COUNT } from "../lib/demo/landscape.ts";
import { jobsConfig } from "../lib/jobs/config.ts";
import { startQueue } from "../lib/jobs/queue.ts";
import { seedLandscape } from "../lib/server/seed-landscape.ts";

function positiveInt(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    console.error(`--${name} must be a whole number from 1 to ${max}; got "${text}".`);
    process.exit(2);
  }
  return n;
}

let args;
try {
  args = parseArgs({ options: { shoots: { type: "string" }, seed: { type: "string" } } }).values;
} catch (error) {
  console.error(`${(error as Error).message}\nUsage: npm run seed -- [--shoots N] [--seed S]`);
  process.exit(2);
}
const shoots = positiveInt("shoots", args.shoots, DEFAULT_SHOOT_COUNT, MAX_SHOOT_COUNT);
const seed = positiveInt("seed", args.seed, 1, 2 ** 31 - 1);

const started = Date.now();
exitOnBadConfig(); // a wrong setting stops here with exit code 2, naming it
// The database starts (a new one's folder is made first) while the configuration is drawn; the
// shoots are drawn as they are written.
const opening = openDatabase();
const now = Date.now();
const landscape = drawLandscape({ now, shoots, seed });
const database = await opening;
try {
  console.log(`Database: ${database.description}`);
  await migrate(database.url);
  const boss = await startQueue(database.url, { expireSeconds: jobsConfig().jobExpireSeconds, supervise: false });
  const db = createDb(database.url, 2);
  let lastShown = 0;
  const report = await seedLandscape(db, landscape, {
    actor: "system:seed",
    now,
    boss,
    onProgress: (done, total) => {
      if (total >= 5_000 && (done - lastShown >= total / 10 || done === total)) {
        lastShown = done;
        console.log(`  ${done} / ${total} shoots written`);
      }
    },
    onPhases: (phases) => {
      if (shoots < 5_000) return;
      const parts = Object.entries(phases).map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`);
      console.log(`  where the time went: ${parts.join(", ")}`);
    },
  });
  await db.$disconnect();
  await boss.stop({ graceful: false });
  console.log(
    `Seeded ${report?.shoots} shoots in ${report?.projects} projects, ${report?.seeds} seeds, ` +
      `${report?.cloudProfiles} cloud profiles and ${report?.maintenanceRuns} past maintenance runs in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  // Computing them here would nearly double the seed's time (19 s more for 20,000 shoots).
  console.log("The shoots' forecasts are computed in the background by the worker (npm start or npm run worker).");
} finally {
  await database.close();
}

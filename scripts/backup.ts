// `npm run backup [-- FILE]`: a consistent snapshot of Almanac's data (lib/db/backup.ts), taken
// while it runs, from the database `npm start` uses (DATABASE_URL or the embedded one). The file
// holds accounts and sessions, so only its owner may read it; it appears under its name only
// once complete.
import { createWriteStream, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { exitOnBadConfig } from "../lib/config/load-config.ts";
import { writeBackup } from "../lib/db/backup.ts";
import { openDatabase } from "../lib/db/open-database.ts";
import { redactSecrets } from "../lib/engine/redact-secrets.ts";

const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "").replace("T", "-");
const file = path.resolve(process.argv[2] ?? `almanac-backup-${stamp}.gz`);
const partial = `${file}.partial`;

const started = Date.now();
exitOnBadConfig(); // a wrong setting stops here with exit code 2, naming it
const database = await openDatabase();
try {
  console.log(`Database: ${database.description}`);
  const header = await writeBackup(database.url, createWriteStream(partial, { mode: 0o600, flags: "wx" }));
  renameSync(partial, file);
  const rows = header.tables.reduce((sum, t) => sum + t.rows, 0);
  const count = (name: string) => header.tables.find((t) => t.name === name)?.rows ?? 0;
  console.log(
    `Backup written to ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${header.tables.length} tables, ` +
      `${rows} rows (${count("shoots")} shoots, ${count("audit_events")} audit events), schema ${header.migrations.at(-1)}.`,
  );
} catch (error) {
  rmSync(partial, { force: true });
  console.error(`Backup failed: ${redactSecrets((error as Error).message)}`);
  process.exitCode = 1;
} finally {
  await database.close();
}

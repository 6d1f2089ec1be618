// `npm run restore -- FILE`: loads a backup made by `npm run backup` into an empty database: the
// embedded one in ALMANAC_DATA_DIR (a new folder is made) or DATABASE_URL. Nothing is loaded
// unless everything is: the rows go in one transaction.
import { createReadStream, existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { exitOnBadConfig } from "../lib/config/load-config.ts";
import { RestoreError, restoreBackup } from "../lib/db/backup.ts";
import { openDatabase } from "../lib/db/open-database.ts";
import { redactSecrets } from "../lib/engine/redact-secrets.ts";
import { jobsConfig } from "../lib/jobs/config.ts";
import { startQueue } from "../lib/jobs/queue.ts";

const file = process.argv[2];
if (!file || !existsSync(file)) {
  console.error(`${file ? `No such file: ${file}` : "Which backup?"}\nUsage: npm run restore -- FILE`);
  process.exit(2);
}

/** The job queue's own setup (schema, Almanac's queues); returns its schema version. */
async function prepareJobQueue(url: string): Promise<number | undefined> {
  const boss = await startQueue(url, { expireSeconds: jobsConfig().jobExpireSeconds, supervise: false });
  await boss.stop({ graceful: false });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ version: number }>("SELECT version FROM pgboss.version")).rows[0]?.version;
  } finally {
    await client.end();
  }
}

const started = Date.now();
exitOnBadConfig(); // a wrong setting stops here with exit code 2, naming it
const database = await openDatabase();
try {
  console.log(`Database: ${database.description}`);
  const header = await restoreBackup(database.url, createReadStream(path.resolve(file)), prepareJobQueue);
  const count = (name: string) => header.tables.find((t) => t.name === name)?.rows ?? 0;
  console.log(
    `Restored ${file} (taken ${header.createdAt}) in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
      `${count("shoots")} shoots, ${count("audit_events")} audit events, ${header.tables.length} tables.`,
  );
} catch (error) {
  const message = redactSecrets((error as Error).message);
  console.error(error instanceof RestoreError ? `Not restored: ${message}` : `Restore failed: ${message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}

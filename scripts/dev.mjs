// `npm run dev`: Next's development server (reloads as you edit) on the database `npm start` uses,
// with no setting needed: DATABASE_URL when set, else the embedded PostgreSQL in ALMANAC_DATA_DIR
// (default .almanac/), started here or joined when `npm start` already runs it. Before `next dev`
// starts, the database is prepared exactly as `npm start` prepares it (lib/server/prepare-garden.ts:
// migrations, the demo landscape on first start), and `npm run worker` runs beside it, so the
// landscape lives as it does under `npm start`. Arguments go to `next dev` (`npm run dev -- -H ::`).
// Ctrl-C stops the development server and the worker, then the database.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { requireNode24, root } from "./next-build.mjs";

requireNode24();
// A wrong setting stops here with exit code 2, naming it, as it stops `npm start`.
const { exitOnBadConfig } = await import("../lib/config/load-config.ts");
const settings = exitOnBadConfig();
const { prepareGarden } = await import("../lib/server/prepare-garden.ts");
const { createDb } = await import("../lib/db/client.ts");
const { firstAdminLink } = await import("../lib/server/first-admin.ts");
// Errors of the database connection may quote its URL, password and all.
const { redactSecrets } = await import("../lib/engine/redact-secrets.ts");

const port = String(settings.server.port);
let database;
try {
  const prepared = await prepareGarden((line) => console.log(`> ${line}`));
  database = prepared.database;
  // The queue was needed to schedule the demo landscape's maintenance; the worker runs its own.
  await prepared.boss.stop({ graceful: false });
  const db = createDb(database.url, 1);
  try {
    const base = settings.server.publicUrl?.replace(/\/$/, "") ?? `http://localhost:${port}`;
    const link = await firstAdminLink(db, base, Date.now());
    if (link)
      console.log(`> No account exists yet. Create the first admin (the link works once, for 24 hours):\n>   ${link}`);
  } finally {
    await db.$disconnect();
  }
} catch (error) {
  console.error(`Almanac cannot start: ${redactSecrets(error.message)}`);
  await database?.close().catch(() => {});
  process.exit(1);
}

// The children find the database through DATABASE_URL, as `npm start`'s web processes do.
const env = { ...process.env, DATABASE_URL: database.url, NEXT_TELEMETRY_DISABLED: "1" };
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const children = [
  spawn(process.execPath, [nextBin, "dev", "--port", port, ...process.argv.slice(2)], {
    cwd: root,
    env,
    stdio: "inherit",
  }),
  spawn(process.execPath, [path.join(root, "scripts", "worker.ts")], { cwd: root, env, stdio: "inherit" }),
];

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", resolve);
          child.kill("SIGTERM");
        }),
    ),
  );
  // Last, so nothing is left holding the data folder (a joined server stays with its owner).
  await database.close().catch((error) => console.error(`Stopping the database: ${error.message}`));
  process.exit(code);
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.removeAllListeners(signal);
  process.on(signal, () => stop(0));
}
// Either child ending on its own ends the whole: a development server without its worker (or the
// reverse) would look alive while half of Almanac is missing.
for (const child of children)
  child.once("exit", (code, signal) => {
    if (stopping) return;
    console.error(`> ${child.spawnargs.slice(1, 3).join(" ")} exited (${signal ?? `code ${code}`}); stopping.`);
    void stop(code || 1);
  });

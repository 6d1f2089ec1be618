// `npm start`: serve the production build on PORT (default 3000), building it first if needed.
import { spawn } from "node:child_process";
import { ensureBuild, nextBin, requireNode24, root } from "./next-build.mjs";

requireNode24();
ensureBuild();

const port = process.env.PORT || "3000";
const server = spawn(process.execPath, [nextBin, "start", "-p", port], { cwd: root, stdio: "inherit" });

// Pass stop signals on, so that stopping this script (Ctrl-C, Playwright's webServer teardown)
// also stops the server instead of leaving it holding the port.
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    stopping = true;
    server.kill(signal);
  });
}
// A server that dies on its own is a failure; one we asked to stop is not.
server.on("exit", (code, signal) => process.exit(code ?? (stopping ? 0 : 1)));

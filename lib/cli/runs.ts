// `almanac runs list|get|create|approve|pause|resume|cancel`: update runs through a running
// Almanac's HTTP API (/api/v1/update-runs), printing its JSON answers as `almanac bulk` does.
// `create --file run.yaml` sends the run as written there (YAML or JSON: {"name", "target",
// "stages", "healthGate"?}); with --dry-run it answers the run's preview and starts nothing.
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { askAlmanac, type AlmanacRequest } from "./almanac-http.ts";
import { CliError } from "./cli-error.ts";
import type { CommandResult } from "./commands.ts";

export const RUNS_SUBCOMMANDS = ["list", "get", "create", "approve", "pause", "resume", "cancel"] as const;
export type RunsSubcommand = (typeof RUNS_SUBCOMMANDS)[number];

export const isRunsSubcommand = (word: string | undefined): word is RunsSubcommand =>
  (RUNS_SUBCOMMANDS as readonly (string | undefined)[]).includes(word);

export interface RunsFlags {
  readonly server?: string;
  readonly token?: string;
  readonly id?: string;
  readonly file?: string;
  readonly dryRun: boolean;
  readonly limit?: string;
  readonly cursor?: string;
}

function readRun(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (error) {
    throw new CliError(`runs create: cannot read ${file} (${(error as Error).message})`);
  }
  let body: unknown;
  try {
    body = parse(text);
  } catch (error) {
    throw new CliError(`runs create: ${file} is neither YAML nor JSON (${(error as Error).message.split("\n")[0]})`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new CliError(`runs create: ${file} must hold one object: {"name", "target", "stages", "healthGate"?}`);
  return body;
}

/** What to ask: the method, the path and the body. */
export function runsRequest(sub: RunsSubcommand, flags: RunsFlags): AlmanacRequest {
  const base = "/api/v1/update-runs";
  if (sub === "list") {
    const query = new URLSearchParams();
    if (flags.limit !== undefined) query.set("limit", flags.limit);
    if (flags.cursor !== undefined) query.set("cursor", flags.cursor);
    return { method: "GET", path: query.size > 0 ? `${base}?${query}` : base };
  }
  if (sub === "create") {
    if (flags.file === undefined)
      throw new CliError("runs create: --file must name the run (YAML or JSON; - reads standard input)");
    const body = readRun(flags.file) as Record<string, unknown>;
    return { method: "POST", path: base, body: flags.dryRun ? { ...body, dryRun: true } : body };
  }
  if (flags.id === undefined) throw new CliError(`runs ${sub}: --id must name the run`);
  const id = encodeURIComponent(flags.id);
  return sub === "get" ? { method: "GET", path: `${base}/${id}` } : { method: "POST", path: `${base}/${id}/${sub}` };
}

export async function runsCommand(
  sub: RunsSubcommand,
  flags: RunsFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommandResult> {
  return askAlmanac(`runs ${sub}`, runsRequest(sub, flags), flags, env);
}
